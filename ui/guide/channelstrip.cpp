#include "guide/channelstrip.h"

#include "guide/guidepalette.h"
#include "guide/guidestage.h"
#include "guide/redissonclient.h"

#include <QPainter>

namespace LockScope::Guide {

namespace {
// How long a pulse stays on screen, in units of T: long enough to read at any speed.
constexpr double pulseLifeT = 0.5;
} // namespace

ChannelStrip::ChannelStrip(const GuideStage *stage, QWidget *parent)
    : QWidget(parent)
    , m_stage(stage)
{
    setAccessibleName(tr("Channel"));
}

void ChannelStrip::setNow(qint64 nowMs)
{
    m_nowMs = nowMs;
    update();
}

QSize ChannelStrip::sizeHint() const
{
    return { fontMetrics().averageCharWidth() * 70, fontMetrics().height() * 2 + fontMetrics().descent() + 4 };
}

void ChannelStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const QByteArray key = m_stage->scenario().keys.value(0);
    painter.setPen(palette().color(QPalette::Text));
    const QString head = tr("%1   %n client(s) listening", nullptr, m_stage->listeners())
                             .arg(QString::fromUtf8(RedissonClient::channel(key)));
    // A line and its descent: a CJK font draws the channel's underscores below the line box.
    painter.drawText(QRect(0, 0, width(), line + fm.descent()), Qt::AlignLeft | Qt::AlignTop, head);

    // The pulses still alive, newest first from the left.
    const qint64 life = qint64(pulseLifeT * m_stage->timeScaleMs());
    int x = 0;
    const auto &pulses = m_stage->pulses();
    for (auto it = pulses.crbegin(); it != pulses.crend(); ++it) {
        const qint64 age = m_nowMs - it->tMs;
        if (age > life || age < 0)
            continue;
        const double alpha = 1.0 - double(age) / double(life);
        const QString text = it->receivers == 0 ? tr("\"%1\" from %2: nobody was listening")
                                                      .arg(QString::fromUtf8(it->payload), QString::fromUtf8(it->from))
                                                : tr("\"%1\" from %2 → %n receiver(s)", nullptr, it->receivers)
                                                      .arg(QString::fromUtf8(it->payload), QString::fromUtf8(it->from));
        const int w = fm.horizontalAdvance(text) + line * 2;
        QColor c = it->receivers == 0 ? palette().color(QPalette::Mid) : clientColor(it->from);
        c.setAlphaF(0.25 + 0.75 * alpha);
        painter.setPen(Qt::NoPen);
        painter.setBrush(c);
        painter.drawRoundedRect(QRectF(x, line + fm.descent() + 2, w, line), line / 2.0, line / 2.0);
        painter.setPen(it->receivers == 0 ? palette().color(QPalette::Text) : QColor(Qt::white));
        painter.drawText(QRect(x + line, line + fm.descent() + 2, w - line * 2, line), Qt::AlignCenter, text);
        x += w + line / 2;
    }
}

} // namespace LockScope::Guide
