#pragma once

#include <QWidget>

namespace LockScope::Guide {

class GuideStage;

// One lane per emulated Java thread: its state in words (holding, sleeping with the countdown of its timer, woken by
// a message or by its timer, refused, crashed, frozen), its client's watchdog and process, and its critical sections
// as bars on a shared time axis; where two overlap, a red band: two owners at once.
class ActorLanes : public QWidget
{
    Q_OBJECT
public:
    explicit ActorLanes(const GuideStage *stage, QWidget *parent = nullptr);
    void setNow(qint64 nowMs);
    QSize sizeHint() const override;
    // Two lines per lane (the name, the state) and the caption and axis: less would draw the lanes over each other.
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    const GuideStage *m_stage;
    qint64 m_nowMs = 0;
};

} // namespace LockScope::Guide
