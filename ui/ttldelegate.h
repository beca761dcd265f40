#pragma once

#include <QStyledItemDelegate>

namespace LockScope {

// The TTL column of the lock table as a bar that drains from each lock's deadline and jumps back when a renewal
// is seen: green for a watchdog that renews, blue for a fixed lease, red once renewals fail or the lease is gone.
// Painted from LockTableModel's DeadlineRole and LeaseRole at paint time; nothing counts down in the model.
class TtlDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace LockScope
