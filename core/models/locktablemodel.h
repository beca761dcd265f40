#pragma once

#include "models/rowindex.h"
#include "monitor/lockmonitor.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QTimer>

#include <functional>

namespace LockScope {

// Every lock the monitor knows, one row each, shared by the desktop view and the CLI. Rows change in batches, as
// the monitor reports them; the TTL is computed from each lock's deadline whenever it is asked for, so a view
// repaints its visible rows on its own clock and the model never runs a timer per row.
class LockTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Mode, Holders, Count, Ttl, Watchdog, Waiters, Age, Warnings, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // a value that sorts numerically where the column is a number
        NameRole, // the lock name as stored (QByteArray)
        KindRole, // "reentrant", "fair", ... (QString)
        LibraryRole, // "redisson", "shedlock", ... (QString): JSON's "library"
        DeadlineRole, // monotonic ms when the lease ends; -1 none
        LeaseRole, // the lease in ms, as far as seen
        ClientIdsRole, // the holders' client ids (QStringList): one JVM's whole footprint
        WarningCountRole,
        OursRole, // held by this console's own client id (bool)
        WatchdogRole, // WatchdogGuess as int
        RenewalWarningRole, // the TTL fell below 2/3 of a watchdog lease (bool)
        CounterRole, // a Redisson semaphore's free permits or a latch's count (qint64); -1: a lock, no counter
    };
    using Clock = std::function<qint64()>; // monotonic ms

    explicit LockTableModel(LockMonitor *monitor, QObject *parent = nullptr);

    void setClock(Clock clock) { m_clock = std::move(clock); }
    // The console's own client id: its holds are marked as ours.
    void setOwnClientId(const QByteArray &clientId);
    // The console's own holds, name -> owner: what tells a bare-token holder (a string lock's) as ours, since it
    // carries no client id.
    void setOwnHolds(const QHash<QByteArray, QByteArray> &tokens);
    bool isOurs(const LockRecord &record) const;
    int rowOf(const QByteArray &name) const { return m_index.rowOf(name); }
    QByteArray nameAt(int row) const { return m_index.nameAt(row); }
    const LockRecord *recordAt(int row) const { return static_cast<const LockRecord *>(m_index.payloadAt(row)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString kindText(LockInfo::Kind kind);
    static QString watchdogText(WatchdogGuess guess);
    static QString durationText(qint64 ms);

private:
    void apply(const LockMonitor::Changes &changes);
    void insertRows(const QList<QByteArray> &names);
    void insertPending();
    QVariant display(const LockRecord &r, int column) const;
    QVariant sortValue(const LockRecord &r, int column) const;

    LockMonitor *m_monitor;
    Clock m_clock;
    QByteArray m_ownClientId;
    QHash<QByteArray, QByteArray> m_ownTokens;
    RowIndex m_index;
    // While the first snapshot streams in, new rows wait here and join the table together every 100 ms: a view's
    // proxy does work in proportion to the whole table for each insertion (QSortFilterProxyModel rebuilds its
    // mapping), and a scan of a million locks among ten million keys brings them in ten thousand small batches.
    QList<QByteArray> m_pending;
    QSet<QByteArray> m_pendingNames;
    QTimer m_pendingTimer;
};

} // namespace LockScope
