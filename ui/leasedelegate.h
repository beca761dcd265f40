#pragma once

#include <QStyledItemDelegate>

namespace LockScope {

// Paints a hold's remaining lease as a shrinking bar with the seconds on it: green while the watchdog renews
// it, blue for a fixed lease, red once the holder crashed or the lease should have run out. Reads
// HoldsModel's roles at paint time, so repainting the view is all a countdown needs.
class LeaseDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace LockScope
