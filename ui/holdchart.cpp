#include "holdchart.h"

#include <QDateTime>
#include <QPainter>

namespace LockScope {

HoldChart::HoldChart(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Who held the lock when"));
    setMinimumHeight(80);
}

QList<HoldChart::Span> HoldChart::spans(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow)
{
    QList<Span> spans;
    QHash<QByteArray, int> open; // owner -> index of its open span
    for (const LockEvent &e : timeline) {
        switch (e.type) {
        case LockEvent::Type::Acquired:
        case LockEvent::Type::OwnerChanged:
            if (!open.contains(e.owner)) {
                open.insert(e.owner, int(spans.size()));
                spans.append({ e.owner, e.timeMs, -1 });
            }
            break;
        case LockEvent::Type::Released:
        case LockEvent::Type::Expired:
        case LockEvent::Type::ForceReleased:
        case LockEvent::Type::Lost:
            // A partial release (count still above 0) leaves the bar open.
            if (e.type == LockEvent::Type::Released && e.count > 0)
                break;
            if (open.contains(e.owner))
                spans[open.take(e.owner)].toMs = e.timeMs;
            break;
        default:
            break;
        }
    }
    // Bars left open by a timeline that was cut short, for owners that no longer hold it, end at their last event.
    for (auto it = open.cbegin(); it != open.cend(); ++it)
        if (!holdersNow.contains(it.key()) && !timeline.isEmpty())
            spans[it.value()].toMs = timeline.last().timeMs;
    return spans;
}

void HoldChart::setTimeline(const QList<LockEvent> &timeline, const QList<QByteArray> &holdersNow)
{
    m_spans = spans(timeline, holdersNow);
    update();
}

void HoldChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect area = rect().adjusted(4, 4, -4, -18);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = now - m_windowMs;
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignBottom | Qt::AlignLeft, tr("-%1 min").arg(m_windowMs / 60000));
    p.drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignBottom | Qt::AlignRight, tr("now"));
    QList<QByteArray> lanes;
    for (const Span &s : m_spans)
        if ((s.toMs < 0 || s.toMs >= from) && !lanes.contains(s.owner))
            lanes << s.owner;
    if (lanes.isEmpty()) {
        p.drawText(area, Qt::AlignCenter, tr("no holds in the last %1 minutes").arg(m_windowMs / 60000));
        return;
    }
    const int laneHeight = qMax(6, qMin(22, area.height() / int(lanes.size())));
    const auto x
        = [&](qint64 t) { return area.left() + int(double(qMax(t, from) - from) / m_windowMs * area.width()); };
    for (const Span &s : m_spans) {
        const int lane = int(lanes.indexOf(s.owner));
        if (lane < 0)
            continue;
        QColor color = QColor::fromHsv(int(qHash(s.owner) % 360), 150, 200);
        const QRect bar(QPoint(x(s.fromMs), area.top() + lane * laneHeight + 1),
            QPoint(qMax(x(s.fromMs) + 2, x(s.toMs < 0 ? now : s.toMs)), area.top() + (lane + 1) * laneHeight - 2));
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawRoundedRect(bar, 2, 2);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(bar.adjusted(4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
            QString::fromLatin1(s.owner.left(8) + "…" + s.owner.mid(s.owner.lastIndexOf(':'))));
    }
}

} // namespace LockScope
