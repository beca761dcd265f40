#pragma once

#include "models/keyedtablemodel.h"
#include "monitor/lockmonitor.h"
#include "stats/statscollector.h"
#include "stats/stuckcheck.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <deque>
#include <map>

namespace LockScope {

// The console's contention views, kept from one monitor: Hot (the locks ranked by contention), Stuck (what keeps a
// lock from being taken, and what fixes it) and Clients (each client id's footprint: its holds now, and its history).
// Statistics come from a StatsCollector; the stuck findings and holds per client are kept up to date from each
// change the monitor announces (and re-judged when time alone can add a finding: a hold passing the threshold), so
// a refresh never walks every lock. The views are rebuilt once a second.
class ContentionViews : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int hotRows = 50;
        int clientRows = 200;
        int refreshMs = 1000;
        // Locks whose holders are indexed (for Clients' holds now) and whose holds are followed to the threshold: about
        // 100 bytes a held lock. Past it both stop, and limited() says so.
        int indexLimit = 100000;
    };
    explicit ContentionViews(LockMonitor *monitor, QObject *parent = nullptr);

    KeyedTableModel *hot() const { return m_hot; }
    // The Hot view's model and rows, for statistics of any source (a recording's window, replayed): the hottest limit
    // locks at epochMs. Any thread.
    static KeyedTableModel *makeHotModel(QObject *parent);
    static QList<KeyedRow> hotRows(const LockStatistics &statistics, qint64 epochMs, int limit);
    KeyedTableModel *stuck() const { return m_stuck; }
    KeyedTableModel *clients() const { return m_clients; }
    StatsCollector *collector() const { return m_collector; }
    const LockStatistics &statistics() const { return m_collector->statistics(); }

    void setOptions(const Options &options);
    void setStuckOptions(const StuckOptions &options);
    // Rebuilds the three views now (the timer does every refreshMs).
    void refresh();
    // The column headers again, in the current language.
    void retranslate();
    // More locks than the index keeps: Clients' "holding now" is not known, and a hold is found too long only when
    // its lock changes.
    bool limited() const { return m_limited; }

signals:
    void refreshed();

private:
    struct ClientNow
    {
        int holding = 0;
        QByteArray host;
    };
    void onLocksChanged(const LockMonitor::Changes &changes);
    // followHold: queue the lock's hold for its threshold if it began at or after holdsFromMs.
    void judge(const QByteArray &name, qint64 nowMs, qint64 epochMs, qint64 holdsFromMs);
    void followAllHolds();
    void setHolders(const QByteArray &name, const LockRecord *record);
    void buildHot(qint64 epochMs);
    void buildStuck(qint64 nowMs);
    void buildClients();

    LockMonitor *m_monitor;
    StatsCollector *m_collector;
    KeyedTableModel *m_hot;
    KeyedTableModel *m_stuck;
    KeyedTableModel *m_clients;
    Options m_options;
    StuckOptions m_stuckOptions;
    QTimer m_timer;

    QHash<QByteArray, QList<StuckFinding>> m_findings; // locks with findings now
    QHash<QByteArray, qint64> m_freeWithWaitersSince; // monotonic ms
    // When time alone may change a lock's findings, besides its hold passing the threshold (a fair queue's head
    // deadline, waiters on a free lock): few locks.
    std::multimap<qint64, QByteArray> m_recheck;
    QHash<QByteArray, qint64> m_recheckAt; // its entry in m_recheck, one per lock
    // Holds in the order they began, each with the moment it passes the threshold: one small entry a hold, pushed
    // when it begins (a hold is new when it began after the previous batch of changes).
    std::deque<std::pair<qint64, QByteArray>> m_holdDue;
    qint64 m_previousChangesMs = 0;
    bool m_limited = false;
    QHash<QByteArray, QByteArray> m_holderOf; // lock -> the client id holding it now, when one does
    QHash<QByteArray, QList<QByteArray>> m_holdersOf; // lock -> the client ids, when several hold it
    QHash<QByteArray, ClientNow> m_holding; // client id -> its holds now
};

} // namespace LockScope
