#include "ttldelegate.h"

#include "leasedelegate.h"
#include "models/locktablemodel.h"
#include "monitor/lockrecord.h"

#include <QApplication>
#include <QPainter>

namespace LockScope {

void TtlDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const qint64 deadline = index.data(LockTableModel::DeadlineRole).toLongLong();
    const qint64 lease = index.data(LockTableModel::LeaseRole).toLongLong();
    const auto watchdog = WatchdogGuess(index.data(LockTableModel::WatchdogRole).toInt());
    const bool failing = index.data(LockTableModel::RenewalWarningRole).toBool();
    const QString text = index.data(Qt::DisplayRole).toString();
    const QRect bar = option.rect.adjusted(4, 4, -4, -4);
    if (deadline < 0) {
        // No TTL at all: Java lock() waiters may wait forever, so it is said in the warning colour. A semaphore or a
        // latch has none by design.
        const bool counter = index.data(LockTableModel::CounterRole).toLongLong() >= 0;
        painter->save();
        painter->setPen(counter ? opt.palette.color(QPalette::Text) : QColor(0xc6, 0x28, 0x28));
        painter->drawText(bar, Qt::AlignVCenter | Qt::AlignLeft, text);
        painter->restore();
        return;
    }
    const qint64 remaining = qMax<qint64>(0, deadline - monotonicMs());
    const double fraction = lease > 0 ? qBound(0.0, double(remaining) / double(lease), 1.0) : 0.0;
    QColor fill = watchdog == WatchdogGuess::Likely ? QColor(0x2e, 0x7d, 0x32) : QColor(0x15, 0x65, 0xc0);
    if (failing || remaining == 0)
        fill = QColor(0xc6, 0x28, 0x28);
    paintLeaseBar(painter, opt, bar, fraction, fill, 45, opt.palette.color(QPalette::Text), text);
}

QSize TtlDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(qMax(size.width(), 120));
    size.setHeight(qMax(size.height(), option.fontMetrics.height() + 10));
    return size;
}

} // namespace LockScope
