#include "leasedelegate.h"

#include "holdsmodel.h"

#include <QApplication>
#include <QPainter>

namespace LockScope {

void paintLeaseBar(QPainter *painter, const QStyleOptionViewItem &option, const QRect &bar, double fraction,
    const QColor &fill, int trackAlpha, const QColor &bareTextColour, const QString &text)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    QColor track = fill;
    track.setAlpha(trackAlpha);
    painter->setBrush(track);
    painter->drawRoundedRect(bar, 3, 3);
    if (fraction > 0) {
        QRect done = bar;
        done.setWidth(qMax(2, int(bar.width() * fraction)));
        painter->setBrush(fill);
        painter->drawRoundedRect(done, 3, 3);
    }
    // The text sits at the bar's left end: white while the fill still covers it, the bare colour on the track.
    const int textWidth = option.fontMetrics.horizontalAdvance(text) + 12;
    painter->setPen(bar.width() * fraction >= textWidth ? QColor(Qt::white) : bareTextColour);
    painter->setFont(option.font);
    painter->drawText(bar.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    painter->restore();
}

void LeaseDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    // The background and selection as the style draws them, without the text: the bar carries it.
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const qint64 remaining = index.data(HoldsModel::RemainingRole).toLongLong();
    const qint64 lease = index.data(HoldsModel::LeaseRole).toLongLong();
    const bool watchdog = index.data(HoldsModel::WatchdogRole).toBool();
    const bool crashed = index.data(HoldsModel::CrashedRole).toBool();
    const double fraction = lease > 0 ? qBound(0.0, double(remaining) / double(lease), 1.0) : 0.0;

    QColor fill = watchdog ? QColor(0x2e, 0x7d, 0x32) : QColor(0x15, 0x65, 0xc0);
    if (crashed || remaining <= 0)
        fill = QColor(0xc6, 0x28, 0x28);
    const QRect bar = option.rect.adjusted(6, 5, -6, -5);

    paintLeaseBar(painter, opt, bar, fraction, fill, 40, fill.darker(130), index.data(Qt::DisplayRole).toString());
}

QSize LeaseDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(qMax(size.width(), 140));
    size.setHeight(qMax(size.height(), option.fontMetrics.height() + 12));
    return size;
}

} // namespace LockScope
