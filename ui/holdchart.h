#pragma once

#include "monitor/lockrecord.h"

#include <QColor>
#include <QWidget>

namespace LockScope {

// Who held one lock when: one lane per owner, a bar while it held the lock, built from the lock's timeline (acquired /
// owner-changed open a bar; released, expired, force-released and lost close it). The window ends now and fits the
// data it has (from its oldest bar, rounded up to a step from 10 s to 24 h), until Ctrl+wheel zooms it in or out
// through those steps (the wheel alone scrolls the pane); a double-click fits it to the data again.
class HoldChart : public QWidget
{
    Q_OBJECT
public:
    explicit HoldChart(QWidget *parent = nullptr);

    void setTimeline(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow);
    // Where the window ends (epoch ms): a replayed moment; -1, the default, is now, by the wall clock.
    void setEndMs(qint64 ms)
    {
        m_endMs = ms;
        update();
    }
    qint64 endMs() const;
    // The moment under x in the bars drawn last (-1: none drawn there).
    qint64 timeAt(int x) const;
    // A fixed window (one of zoomSteps() or any other); 0: fit to the data.
    void setWindowMs(qint64 ms)
    {
        m_zoomMs = ms;
        update();
    }
    qint64 windowMs(qint64 nowMs) const;
    bool isFitted() const { return m_zoomMs == 0; }
    void zoomIn(qint64 nowMs);
    void zoomOut(qint64 nowMs);
    void fitToData() { setWindowMs(0); }
    static const QList<qint64> &zoomSteps();
    // The smallest step that shows every bar (the oldest one's start to now), with a margin.
    static qint64 fitWindowMs(const QList<QPair<qint64, qint64>> &bars, qint64 nowMs);
    static QString durationText(qint64 ms); // "30 s", "5 min", "3 h"
    // An owner as the legend names it: a Redisson owner by its client id's first block and its thread
    // ("6e3d30b7…:1"), any other token escaped and shortened.
    static QString ownerLabel(const QByteArray &owner);
    QSize sizeHint() const override { return { 360, 110 }; }

    struct Span
    {
        QByteArray owner;
        qint64 fromMs; // epoch ms
        qint64 toMs; // epoch ms; -1: still holding
    };
    // The bars, for tests and for painting.
    static QList<Span> spans(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow);
    // The colour of the lane-th owner's lane, its legend swatch and its bars.
    static QColor laneColour(int lane);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

signals:
    // A click on the bars: "who held it then" (the replay goes to that moment).
    void timeClicked(qint64 timeMs);

private:
    QList<Span> m_spans;
    qint64 m_zoomMs = 0; // 0: fitted
    qint64 m_endMs = -1;
    // What the last paint drew, for timeAt().
    QRect m_bars;
    qint64 m_fromMs = 0;
    qint64 m_windowMs = 0;
};

} // namespace LockScope
