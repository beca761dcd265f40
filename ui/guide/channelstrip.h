#pragma once

#include <QWidget>

namespace LockScope::Guide {

class GuideStage;

// The lock's channel: how many clients listen (PUBSUB NUMSUB: the observer never subscribes, so it is not counted),
// and each message as a pulse with its receivers that fades; a publish nobody hears says so.
class ChannelStrip : public QWidget
{
    Q_OBJECT
public:
    explicit ChannelStrip(const GuideStage *stage, QWidget *parent = nullptr);
    void setNow(qint64 nowMs);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    const GuideStage *m_stage;
    qint64 m_nowMs = 0;
};

} // namespace LockScope::Guide
