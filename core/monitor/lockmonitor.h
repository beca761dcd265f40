#pragma once

#include "base/rediserror.h"
#include "kinds/keyglob.h"
#include "monitor/lockeventfeed.h"
#include "monitor/lockrecord.h"
#include "monitor/lockrecordstore.h"
#include "monitor/locktracker.h"
#include "monitor/ttlwatch.h"
#include "redis/connectionoptions.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <optional>

namespace LockScope {

class LockScanner;
class PassScheduler;
class RedisRouter;
class RefreshQueue;
class ReleaseNamespaceWatch;
class RoutedSubscriber;

// Discovers every lock on one server, or on every master of a cluster, and follows it live: a first full SCAN pass,
// then events (keyspace notifications, or wake-up messages plus re-scans) that each refresh just the keys they name;
// watched locks get their PTTL re-read to see renewals, and a lock is re-read when its deadline passes. Reads only, on
// read-only connections. Results come out in batches: one locksChanged() and one eventsOccurred() per pipeline
// answered. A façade over its parts: the record store, the pass scheduler, the refresh queue, the TTL watch and the
// release-namespace watch each own their state and timers; this class wires them to the connection, the scanners
// and the event feeds, and judges each read with LockTracker.
class LockMonitor : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray pattern = "*";
        // Where plain string locks (SET key token NX PX) are looked for; empty: nowhere. A string outside these is
        // never a lock.
        StringLockPatterns stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
        int scanCount = 1000; // SCAN COUNT
        int rescanIntervalMs = 5000; // without keyspace events: the pause between re-scan passes
        int ttlPollIntervalMs = 1000; // watched locks' PTTL and waiters
        int watchAllLimit = 2000; // with no watch list, every lock is watched up to this many
        bool useKeyspaceEvents = true; // when the server sends them; never switched on by the monitor
        int timelineLength = 100; // events kept per lock
        int goneRetention = 10000; // vanished locks whose timeline is kept
    };
    struct Changes
    {
        QList<QByteArray> updated; // present now: new or changed
        QList<QByteArray> removed; // gone now
    };

    LockMonitor(ConnectionOptions connection, Options options, QObject *parent = nullptr);
    ~LockMonitor() override;

    void start();
    const Options &options() const { return m_options; }
    LockEventFeed::Mode mode() const;
    QString modeReason() const;
    bool isSnapshotComplete() const { return m_initialDone; }
    // Without keyspace events: the pause before the next re-scan (the configured interval, or ten times the last
    // pass's duration when that is longer).
    int rescanPauseMs() const;

    // A lock present now or vanished recently (present == false); nullptr when unknown.
    const LockRecord *record(const QByteArray &name) const;
    QList<QByteArray> lockNames() const; // present ones
    int lockCount() const { return m_store.presentCount(); }

    // The locks whose TTL is re-read every ttlPollIntervalMs (a view's visible rows); empty: all, up to the limit.
    void setWatched(const QList<QByteArray> &names);
    // Re-read these keys now (a user's "refresh", or a lock this console just changed).
    void refresh(const QList<QByteArray> &names);
    // An event this process saw itself (its own hold lost): into the lock's timeline and the event stream.
    void noteEvent(LockEvent event);
    // This process is about to delete name's holders itself (a console's force release): the end the monitor sees
    // next is told as a force release with this detail ("force-released by this console"), not judged from outside
    // (where it may look like its holder's own release). An empty detail takes it back (nothing was deleted). It
    // applies for a minute at most.
    void attributeNextEnd(const QByteArray &name, const QString &detail);
    // Calls done once everything the server did before now has been read, judged and announced (every feed has
    // delivered its events, and the reads they asked for are answered): a final report waits for it.
    void settle(std::function<void()> done);
    RedisRouter *connection() const { return m_connection; }

signals:
    void locksChanged(const LockScope::LockMonitor::Changes &changes);
    void eventsOccurred(const QList<LockScope::LockEvent> &events);
    // The first complete pass; after it, the model holds every lock there was.
    void snapshotFinished(const LockScope::RedisError &error, int keysSeen);
    void modeChanged(LockScope::LockEventFeed::Mode mode);
    void errorOccurred(const LockScope::RedisError &error);

private:
    void onPassStarting();
    void buildFeeds();
    void listenOnShardChannels(const Changes &changes);
    void onFeedModeChanged();
    LockEventFeed::Mode combinedMode() const;
    bool pubSubAvailable() const;
    void onPassFinished(const RedisError &error, int keysSeen);
    void finishPass(const RedisError &error, int keysSeen);
    void onTouched(const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &event, bool auxKey);
    void markDirty(const QByteArray &name);
    void onBatchReady(const QList<QByteArray> &names);
    void onRefreshed(const RedisError &error);
    void onPolled(const TtlReadings &readings);
    // refreshed: a read of named keys (its send time is known); synced: the feeds delivered all they had before it.
    void ingest(const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed = false,
        bool synced = false);
    // A read the events seen so far do not explain yet: judged once every feed has delivered what it had.
    void holdUntilSynced(const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed);
    // A fair queue with no lock hash read for a lock held until now: ends the hold, and shows the queue only if it
    // is still there a moment later (its head takes the lock at once when alive). True: not shown now.
    bool deferOrphanedQueue(const QByteArray &name, bool initial);
    void waitForWakeUp(const QByteArray &name, int ms);
    void onGraceOver();
    void flush();
    void checkSettled();
    // done() once every feed has delivered all the server sent before now (a PING through each).
    void afterFeedsSync(std::function<void()> done);
    bool matchesPattern(const QByteArray &name) const;

    Options m_options;
    RedisRouter *m_connection;
    LockScanner *m_scanner; // full passes
    LockScanner *m_reader; // refreshes of named keys
    QList<LockEventFeed *> m_feeds; // one per master (keyspace events are node-local)
    LockEventFeed::Mode m_mode = LockEventFeed::Mode::Starting;
    // Sharded pub/sub has no pattern form: each known lock's shard channel is subscribed on its slot's master.
    RoutedSubscriber *m_shardEars = nullptr;
    QHash<QByteArray, QByteArray> m_shardChannels; // lock name -> the shard channel subscribed for it
    bool m_started = false;
    bool m_initialDone = false;
    quint64 m_passEpoch = 0; // the slot map a pass started with: keys may have moved past it if it changed

    // The parts, each with its own timers.
    LockRecordStore m_store;
    LockTracker m_tracker;
    PassScheduler *m_passes;
    RefreshQueue *m_refresh;
    TtlWatch *m_ttl;
    ReleaseNamespaceWatch *m_namespaces;

    // What the reads are judged with.
    QHash<QByteArray, LockTracker::Signals> m_pending; // seen since the key's last read
    struct Attribution
    {
        QString detail;
        qint64 untilMs = 0; // monotonic
    };
    QHash<QByteArray, Attribution> m_attributions; // attributeNextEnd()
    void attribute(const QByteArray &name, LockRecord &record, QList<LockEvent> &events, qint64 nowMs);
    QSet<QByteArray> m_notLocks; // hashes read and found to be user data
    QSet<QByteArray> m_graceFinal; // read as gone once already, with no sign of how: this read decides
    QHash<QByteArray, qint64> m_grace; // waiting briefly for a wake-up message that may still be on its way
    QTimer m_graceTimer;
    struct HeldRead
    {
        std::optional<LockInfo> read;
        bool initial = false;
        bool refreshed = false;
        quint64 ticket = 0;
    };
    QHash<QByteArray, HeldRead> m_held; // with keyspace events: reads waiting for the events that explain them
    quint64 m_syncTicket = 0;
    // Which pass met a lock last is stamped on its record (LockRecord::seenInPass): a set of a million names built
    // and emptied each pass was tens of megabytes and a stall at the pass's end.
    quint32 m_passNumber = 0;
    int m_seenPresent = 0; // present records this pass has met
    QSet<QByteArray> m_touchedDuringPass;
    QHash<QByteArray, LockInfo> m_refreshed; // the refresh batch's answers so far

    QList<std::function<void()>> m_settling; // settle() calls whose feeds have synced

    // Announced at the next flush().
    QSet<QByteArray> m_changed;
    QList<LockEvent> m_events;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::LockMonitor::Changes)
