#include "holdchart.h"

#include "redis/bytesformat.h"

#include <QDateTime>
#include <QPainter>
#include <QWheelEvent>

namespace LockScope {

HoldChart::HoldChart(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Who held the lock when"));
    setMinimumHeight(80);
    setToolTip(tr("Scroll to zoom from 10 s to 24 h; double-click to fit the window to the holds seen"));
}

const QList<qint64> &HoldChart::zoomSteps()
{
    static const QList<qint64> steps { 10'000, 30'000, 60'000, 5 * 60'000, 15 * 60'000, 3'600'000, 3 * 3'600'000,
        6 * 3'600'000, 12 * 3'600'000, 24 * 3'600'000 };
    return steps;
}

qint64 HoldChart::fitWindowMs(const QList<QPair<qint64, qint64>> &bars, qint64 nowMs)
{
    qint64 oldest = nowMs;
    for (const auto &[from, to] : bars) {
        Q_UNUSED(to)
        oldest = qMin(oldest, from);
    }
    // A tenth more than the data, so the oldest bar does not start on the edge.
    const qint64 needed = (nowMs - oldest) * 11 / 10;
    for (const qint64 step : zoomSteps())
        if (step >= needed)
            return step;
    return zoomSteps().last();
}

qint64 HoldChart::windowMs(qint64 nowMs) const
{
    if (m_zoomMs > 0)
        return m_zoomMs;
    QList<QPair<qint64, qint64>> bars;
    for (const Span &s : m_spans)
        bars.append({ s.fromMs, s.toMs });
    return fitWindowMs(bars, nowMs);
}

void HoldChart::zoomIn(qint64 nowMs)
{
    const qint64 current = windowMs(nowMs);
    qint64 next = zoomSteps().first();
    for (const qint64 step : zoomSteps())
        if (step < current)
            next = step;
    setWindowMs(next);
}

void HoldChart::zoomOut(qint64 nowMs)
{
    const qint64 current = windowMs(nowMs);
    for (const qint64 step : zoomSteps()) {
        if (step > current) {
            setWindowMs(step);
            return;
        }
    }
    setWindowMs(zoomSteps().last());
}

QString HoldChart::ownerLabel(const QByteArray &owner)
{
    const int colon = int(owner.lastIndexOf(':'));
    // A client id is 36 characters; its first 8 tell JVMs apart, as in the locks table.
    if (colon > 8)
        return escapeBytes(owner.left(8)) + QChar(0x2026) + QLatin1Char(':') + escapeBytes(owner.mid(colon + 1), 12);
    return escapeBytes(owner, 16);
}

QString HoldChart::durationText(qint64 ms)
{
    if (ms < 60'000)
        return tr("%1 s").arg(ms / 1000);
    if (ms < 3'600'000)
        return tr("%1 min").arg(ms / 60'000);
    return tr("%1 h").arg(ms / 3'600'000);
}

QColor HoldChart::laneColour(int lane)
{
    // Each a golden angle of hue (about 137.5 degrees) from the one before: neighbours never look alike, which hues
    // from a hash of the owner did (issue 47).
    return QColor::fromHsv(int(lane * 137.508 + 200) % 360, 170, 205);
}

void HoldChart::wheelEvent(QWheelEvent *event)
{
    // Ctrl+wheel zooms; the wheel alone scrolls the pane the chart sits in, as everywhere else (issue 47: the pane
    // would not scroll past the chart).
    const int delta = event->angleDelta().y();
    if (delta == 0 || !(event->modifiers() & Qt::ControlModifier)) {
        event->ignore();
        return;
    }
    const qint64 now = endMs();
    if (delta > 0)
        zoomIn(now);
    else
        zoomOut(now);
    event->accept();
}

qint64 HoldChart::endMs() const
{
    return m_endMs >= 0 ? m_endMs : QDateTime::currentMSecsSinceEpoch();
}

qint64 HoldChart::timeAt(int x) const
{
    if (m_bars.isEmpty() || x < m_bars.left() || x > m_bars.right())
        return -1;
    return m_fromMs + qint64(double(x - m_bars.left()) / double(m_bars.width()) * double(m_windowMs));
}

void HoldChart::mousePressEvent(QMouseEvent *event)
{
    const qint64 at = event->button() == Qt::LeftButton ? timeAt(event->position().toPoint().x()) : -1;
    if (at >= 0)
        emit timeClicked(at);
    QWidget::mousePressEvent(event);
}

void HoldChart::mouseDoubleClickEvent(QMouseEvent *event)
{
    fitToData();
    event->accept();
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
    const qint64 now = endMs();
    const qint64 window = windowMs(now);
    const qint64 from = now - window;
    m_bars = QRect();
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignBottom | Qt::AlignLeft, QLatin1Char('-') + durationText(window));
    p.drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignBottom | Qt::AlignHCenter,
        QLatin1Char('-') + durationText(window / 2) + (isFitted() ? QString() : tr("  (zoomed)")));
    p.drawText(rect().adjusted(4, 0, -4, 0), Qt::AlignBottom | Qt::AlignRight,
        m_endMs < 0 ? tr("now") : QDateTime::fromMSecsSinceEpoch(m_endMs).toString(QStringLiteral("HH:mm:ss")));
    // A tick at each quarter of the window.
    for (int i = 1; i < 4; ++i) {
        const int tx = area.left() + area.width() * i / 4;
        p.drawLine(tx, area.bottom() + 1, tx, area.bottom() + 4);
    }
    QList<QByteArray> lanes;
    for (const Span &s : m_spans)
        if ((s.toMs < 0 || s.toMs >= from) && !lanes.contains(s.owner))
            lanes << s.owner;
    if (lanes.isEmpty()) {
        p.drawText(area, Qt::AlignCenter, tr("no holds in the last %1").arg(durationText(window)));
        return;
    }
    // The legend: each lane's colour and owner on the left, so that a bar too short for a label still says whose it
    // is; the bars take the rest.
    const QFontMetrics metrics = fontMetrics();
    int legendWidth = 0;
    for (const QByteArray &owner : std::as_const(lanes))
        legendWidth = qMax(legendWidth, metrics.horizontalAdvance(ownerLabel(owner)));
    legendWidth = qMin(legendWidth + 18, area.width() * 2 / 5);
    const QRect bars = area.adjusted(legendWidth, 0, 0, 0);
    m_bars = bars;
    m_fromMs = from;
    m_windowMs = window;
    const int laneHeight = qMax(6, qMin(22, area.height() / int(lanes.size())));
    const auto x
        = [&](qint64 t) { return bars.left() + int(double(qMax(t, from) - from) / double(window) * bars.width()); };
    for (int lane = 0; lane < lanes.size(); ++lane) {
        const QRect row(area.left(), area.top() + lane * laneHeight, legendWidth - 4, laneHeight);
        p.setPen(Qt::NoPen);
        p.setBrush(laneColour(lane));
        p.drawRect(QRect(row.left(), row.center().y() - 4, 9, 9));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(row.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
            metrics.elidedText(ownerLabel(lanes.at(lane)), Qt::ElideMiddle, row.width() - 14));
    }
    for (const Span &s : m_spans) {
        const int lane = int(lanes.indexOf(s.owner));
        if (lane < 0)
            continue;
        const QRect bar(QPoint(x(s.fromMs), bars.top() + lane * laneHeight + 1),
            QPoint(qMax(x(s.fromMs) + 2, x(s.toMs < 0 ? now : s.toMs)), bars.top() + (lane + 1) * laneHeight - 2));
        p.setPen(Qt::NoPen);
        p.setBrush(laneColour(lane));
        p.drawRoundedRect(bar, 2, 2);
    }
}

} // namespace LockScope
