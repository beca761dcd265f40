#pragma once

#include "monitor/lockrecord.h"

#include <QWidget>

namespace LockScope {

// Who held one lock when, over the last minutes: one lane per owner, a bar while it held the lock, built from the
// lock's timeline (acquired / owner-changed open a bar; released, expired, force-released and lost close it).
class HoldChart : public QWidget
{
    Q_OBJECT
public:
    explicit HoldChart(QWidget *parent = nullptr);

    void setTimeline(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow);
    void setWindowMs(qint64 ms) { m_windowMs = ms; }
    QSize sizeHint() const override { return { 360, 110 }; }

    struct Span
    {
        QByteArray owner;
        qint64 fromMs; // epoch ms
        qint64 toMs; // epoch ms; -1: still holding
    };
    // The bars, for tests and for painting.
    static QList<Span> spans(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Span> m_spans;
    qint64 m_windowMs = 5 * 60 * 1000;
};

} // namespace LockScope
