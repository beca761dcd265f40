#pragma once

#include <QStyledItemDelegate>

namespace LockScope {

// A lease as a bar that is `fraction` full, with its text on it: what both the demo's holds and the lock table draw.
void paintLeaseBar(QPainter *painter, const QStyleOptionViewItem &option, const QRect &bar, double fraction,
    const QColor &fill, int trackAlpha, const QColor &bareTextColour, const QString &text);

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
