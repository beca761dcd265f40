#include "guide/actorlanes.h"

#include "guide/guidepalette.h"
#include "guide/guidestage.h"

#include <QPainter>

namespace LockScope::Guide {

ActorLanes::ActorLanes(const GuideStage *stage, QWidget *parent)
    : QWidget(parent)
    , m_stage(stage)
{
    setAccessibleName(tr("Actors"));
}

void ActorLanes::setNow(qint64 nowMs)
{
    m_nowMs = nowMs;
    update();
}

QSize ActorLanes::sizeHint() const
{
    const int lanes = qMax(2, int(m_stage->lanes().size()));
    return { fontMetrics().averageCharWidth() * 70, fontMetrics().height() * (2 * lanes + 2) };
}

QSize ActorLanes::minimumSizeHint() const
{
    const int lanes = qMax(1, int(m_stage->lanes().size()));
    return { fontMetrics().averageCharWidth() * 40, fontMetrics().height() * (2 * lanes + 2) + 2 };
}

void ActorLanes::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const auto &lanes = m_stage->lanes();
    const int textWidth = qMin(width() / 2, fm.averageCharWidth() * 46);
    // A caption line on top (two owners at once), the axis's labels at the bottom.
    const QRect axis(textWidth, line, width() - textWidth - 1, height() - 2 * line - 2);
    const qint64 span = qMax(m_stage->plannedMs(), m_nowMs + m_stage->timeScaleMs() / 4);
    auto xOf = [&](qint64 t) { return axis.left() + int(double(axis.width()) * double(t) / double(span)); };
    const int laneHeight = lanes.isEmpty() ? line : qMax(line * 2, axis.height() / int(lanes.size()));

    // Two owners at once: a red band across every lane, captioned.
    const auto overlaps = m_stage->overlaps(m_nowMs);
    for (const GuideStage::Section &o : overlaps) {
        const int x0 = xOf(o.startMs);
        const int x1 = xOf(o.endMs < 0 ? m_nowMs : o.endMs);
        QColor red = goneColor();
        red.setAlphaF(0.25);
        painter.fillRect(QRect(x0, axis.top(), qMax(2, x1 - x0), axis.height()), red);
    }

    for (int i = 0; i < lanes.size(); ++i) {
        const GuideStage::Lane &lane = lanes.at(i);
        const int top = axis.top() + i * laneHeight;
        const QColor colour = clientColor(lane.client);
        const bool dim = lane.state == GuideStage::LaneState::Crashed || lane.state == GuideStage::LaneState::Frozen;
        // The words: alias, hold count, state, countdown.
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(dim ? palette().color(QPalette::Mid) : colour);
        QString name = QString::fromUtf8(lane.alias);
        if (const int count = m_stage->holdCount(lane); count > 0)
            name += QStringLiteral(" ×%1").arg(count);
        if (lane.pid > 0)
            name += tr("  pid %1").arg(lane.pid);
        painter.drawText(QRect(0, top, textWidth - 4, line), Qt::AlignLeft | Qt::AlignVCenter, name);
        painter.setFont(font());
        painter.setPen(palette().color(dim ? QPalette::Mid : QPalette::Text));
        QString state = lane.chip;
        if (lane.state == GuideStage::LaneState::Sleeping && lane.sleepUntilMs >= 0)
            state += tr("; timer in %1 s").arg(qMax<qint64>(0, lane.sleepUntilMs - m_nowMs) / 1000.0, 0, 'f', 1);
        if (!lane.watchdog.isEmpty())
            state += tr("; watchdog: %1").arg(lane.watchdog);
        painter.drawText(QRect(0, top + line, textWidth - 4, laneHeight - line),
            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, fm.elidedText(state, Qt::ElideRight, (textWidth - 4) * 2));

        // The critical sections on the shared axis.
        painter.setPen(palette().color(QPalette::Midlight));
        painter.drawLine(axis.left(), top + laneHeight / 2, axis.right(), top + laneHeight / 2);
        for (const GuideStage::Section &s : lane.sections) {
            const int x0 = xOf(s.startMs);
            const int x1 = xOf(s.endMs < 0 ? m_nowMs : s.endMs);
            painter.fillRect(QRect(x0, top + laneHeight / 2 - line / 3, qMax(2, x1 - x0), line * 2 / 3), colour);
        }
    }
    // Now, and the axis in seconds.
    painter.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
    painter.drawLine(xOf(m_nowMs), axis.top(), xOf(m_nowMs), axis.bottom());
    painter.setPen(palette().color(QPalette::Text));
    const qint64 stepMs = m_stage->timeScaleMs() / 3; // the watchdog's period: the ticks a viewer counts
    for (qint64 t = 0; t <= span && stepMs > 0; t += stepMs) {
        const int x = xOf(t);
        painter.drawLine(x, axis.bottom(), x, axis.bottom() + 3);
    }
    painter.drawText(QRect(axis.left(), axis.bottom() + 2, axis.width(), line), Qt::AlignRight | Qt::AlignVCenter,
        tr("+%1 s").arg(span / 1000.0, 0, 'f', 1));
    if (!overlaps.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(goneColor());
        painter.drawText(QRect(0, 0, width(), line), Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(tr("two owners at once"), Qt::ElideRight, width()));
        painter.setFont(font());
    }
}

} // namespace LockScope::Guide
