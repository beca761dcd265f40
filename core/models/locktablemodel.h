#pragma once

#include "models/ownholds.h"
#include "models/rowindex.h"
#include "monitor/lockmonitor.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace LockScope {

class HolderWatch;

// Every lock the monitor knows, one row each, shared by the desktop view and the CLI. Rows change in batches, as
// the monitor reports them; the TTL is computed from each lock's deadline whenever it is asked for, so a view
// repaints its visible rows on its own clock and the model never runs a timer per row.
class LockTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Renewed and Liveness came last: a header state saved before them keeps its meaning.
    enum Column {
        Name,
        Kind,
        Mode,
        Holders,
        Count,
        Ttl,
        Watchdog,
        Waiters,
        Age,
        Warnings,
        Renewed,
        Liveness,
        ColumnCount
    };
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
        EndedRole, // the lock is gone and its row stays a moment, saying how it ended (bool)
        // The worst of its holders' liveness (LivenessVerdict::State as int); -1: not judged (no holder watch, no
        // holder, a gone lock).
        LivenessRole,
        MissedRenewalsRole, // renewal periods overdue (double, RenewalFigures::missed); -1: unknown
    };
    using Clock = std::function<qint64()>; // monotonic ms

    explicit LockTableModel(LockMonitor *monitor, QObject *parent = nullptr);

    void setClock(Clock clock) { m_clock = std::move(clock); }
    // Who holds each lock and whether it is alive: the Liveness column. Its changed() repaints that column; what
    // changes with time alone (renewals falling overdue) shows at the view's next repaint. nullptr: not judged.
    void setHolderWatch(const HolderWatch *watch);
    // Rows of locks that went (released, expired, force-released, lost) stay for retentionMs, greyed and saying how
    // they ended, and for as long after as keep(name) says so (the lock a person has selected): a lock does not vanish
    // from under someone's eyes, and comes back to its row if it is taken again meanwhile. 0, the default: a gone
    // lock's row goes at once.
    void setEndedRetention(int retentionMs, std::function<bool(const QByteArray &)> keep = {});
    bool isEnded(const QByteArray &name) const { return m_ended.contains(name); }
    // How many times the gone rows were looked at to see which may go (every 250 ms while there are some): a test
    // waits for the next look before it says that a row stayed.
    int endedChecks() const { return m_endedChecks; }
    int presentCount() const { return rowCount() - int(m_ended.size()); }
    int endedCount() const { return int(m_ended.size()); } // gone locks whose rows are still shown
    LockMonitor *monitor() const { return m_monitor; }
    // The console's own client id: its holds are marked as ours.
    void setOwnClientId(const QByteArray &clientId);
    // The console's own holds, name -> owner: what tells a bare-token holder (a string lock's) as ours, since it
    // carries no client id.
    void setOwnHolds(const QHash<QByteArray, QByteArray> &tokens);
    // Whether the console's watchdog renews each of its own holds (name -> on): shown as on or off in the Watchdog
    // column in place of the monitor's guess, which only renewals seen over time can make.
    void setOwnWatchdogs(const QHash<QByteArray, bool> &watchdogs);
    bool isOurs(const LockRecord &record) const { return m_own.isOurs(record); }
    int rowOf(const QByteArray &name) const { return m_index.rowOf(name); }
    QByteArray nameAt(int row) const { return m_index.nameAt(row); }
    const LockRecord *recordAt(int row) const { return static_cast<const LockRecord *>(m_index.payloadAt(row)); }
    // What a row sorts by in a column (its SortRole data), without an index: a sort asks it of every row.
    QVariant sortValueAt(int row, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void apply(const LockMonitor::Changes &changes);
    // records: each name's, in order, where the caller has them already (else looked up here).
    void insertLockRows(const QList<QByteArray> &names, const QList<const LockRecord *> &records = {});
    // Rows waiting for the first snapshot join: all of them (the snapshot is complete), or for about
    // kPendingBudgetMs, the rest on the next turns (a million locks loading: 3,000 to 7,000 rows came due per
    // 100 ms, 11 to 42 ms of the event loop at once).
    void insertPending(bool all);
    void removeLockRows(const QList<QByteArray> &names);
    void dropEnded();
    QVariant display(const LockRecord &r, int column) const;
    QVariant sortValue(const LockRecord &r, int column) const;
    QVariant endedSortValue(const LockRecord &r, int column) const;
    QVariant endedData(const LockRecord &r, int column, int role) const;

    LockMonitor *m_monitor;
    Clock m_clock;
    QPointer<const HolderWatch> m_watch;
    OwnHolds m_own;
    RowIndex m_index;
    // While the first snapshot streams in, new rows wait here and join the table together every 100 ms: a view's
    // proxy does work in proportion to the whole table for each insertion (QSortFilterProxyModel rebuilds its
    // mapping), and a scan of a million locks among ten million keys brings them in ten thousand small batches.
    static constexpr int kPendingIntervalMs = 100; // rows come in batches while the first snapshot loads
    static constexpr int kPendingBudgetMs = 4;
    static constexpr int kPendingChunk = 512;
    QList<QByteArray> m_pending;
    qsizetype m_pendingJoined = 0; // m_pending's names before it are done with
    QSet<QByteArray> m_pendingNames;
    QTimer m_pendingTimer;
    // The rows of gone locks that stay a moment: a copy of the record as it was (the monitor may forget its own),
    // and since when.
    struct Ended
    {
        LockRecord record;
        qint64 sinceMs = 0;
    };
    QHash<QByteArray, std::shared_ptr<Ended>> m_ended;
    int m_endedRetentionMs = 0;
    int m_endedChecks = 0;
    std::function<bool(const QByteArray &)> m_keepEnded;
    QTimer m_endedTimer;
};

} // namespace LockScope
