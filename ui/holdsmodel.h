#pragma once

#include "demo/demoevent.h"

#include <QAbstractTableModel>

#include <functional>

namespace LockScope {

// The holds a stream of DemoEvents describes, one row per (lock, owner). Remaining leases are never counted
// down: each row keeps the deadline (acquire or renewal time + lease, on a monotonic clock) and data()
// computes what is left, so a view only has to repaint to show a live countdown.
class HoldsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, OwnerColumn, ClientColumn, CountColumn, LeaseColumn, ColumnCount };
    enum Role {
        RemainingRole = Qt::UserRole + 1, // qint64 ms left on the lease; <= 0: should have expired
        LeaseRole, // qint64 ms, the lease last set
        WatchdogRole, // bool
        CrashedRole, // bool: the holder stopped renewing without releasing
    };
    using Clock = std::function<qint64()>; // monotonic milliseconds

    explicit HoldsModel(QObject *parent = nullptr);

    // Tests drive time themselves; the default is the system's monotonic clock.
    void setClock(Clock clock);
    qint64 now() const { return m_clock(); }

    void applyEvent(const DemoEvent &event);
    void clear();
    int rowOf(const QByteArray &name, const QByteArray &owner) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString formatRemaining(qint64 ms);

private:
    struct Hold
    {
        QByteArray name;
        QByteArray owner;
        int client = 0;
        DemoEvent::Role role = DemoEvent::Role::WatchdogHolder;
        int count = 0;
        qint64 leaseMs = 0;
        qint64 deadlineMs = 0; // on m_clock
        bool watchdog = false;
        bool crashed = false;
    };

    void upsert(const DemoEvent &event);
    void removeRow(int row);
    void rowChanged(int row);
    QVariant display(const Hold &hold, int column) const;

    QList<Hold> m_holds;
    Clock m_clock;
};

} // namespace LockScope
