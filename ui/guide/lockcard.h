#pragma once

#include <QWidget>

namespace LockScope::Guide {

class GuideStage;

// The lock card: each guided key's type, its fields as rows (owner → count, in the owner's colour), the count in
// large digits, and a TTL bar whose full width is the lease, with ticks at 1/3 and 2/3 (where the watchdog renews)
// and the cause of its last jump; when the key is gone, a tombstone saying how it went.
class LockCard : public QWidget
{
    Q_OBJECT
public:
    explicit LockCard(const GuideStage *stage, QWidget *parent = nullptr);
    void setNow(qint64 nowMs);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // What the card of key `index` shows, as a viewer reads it: a hash's fields as rows ("B1  b983c1…:132  →  1") or
    // a string's value, and the hold count in large digits, which only a hash has (empty otherwise).
    QStringList rows(int index) const;
    QString countText(int index) const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintCard(QPainter &painter, const QRect &box, int index);

    const GuideStage *m_stage;
    qint64 m_nowMs = 0;
};

} // namespace LockScope::Guide
