#pragma once

#include "base/rediserror.h"
#include "kinds/keyglob.h"
#include "monitor/keyreader.h"
#include "monitor/lockeventfeed.h"
#include "monitor/lockrecord.h"
#include "monitor/lockrecordstore.h"
#include "monitor/passtally.h"
#include "monitor/readjudge.h"
#include "monitor/shardlisteners.h"
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
class ReleaseNamespaceWatch;

// Discovers every lock on one server, or on every master of a cluster, and follows it live: a first full SCAN pass,
// then events (keyspace notifications, or wake-up messages plus re-scans) that each refresh just the keys they name;
// watched locks get their PTTL re-read to see renewals, and a lock is re-read when its deadline passes. Reads only, on
// read-only connections. Results come out in batches: one locksChanged() and one eventsOccurred() per pipeline
// answered. A façade over its parts: the record store, the read judge, the shard listeners, the pass scheduler and
// tally, the key reader, the TTL watch and the release-namespace watch each own their state and timers; this class
// wires them to the connection and the pass scanner, and does what the read judge decides.
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
        int configRecheckMs = 10000; // notify-keyspace-events read again this often: a change switches the mode
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
    LockEventFeed::Mode mode() const { return m_listeners->mode(); }
    QString modeReason() const { return m_listeners->reason(); }
    // The monitor's own subscribers on a channel (its ears on shard channels): counted by the server, no waiters.
    int ownListeners(const QByteArray &channel) const { return m_listeners->ownShardListeners(channel); }
    bool isSnapshotComplete() const { return m_initialDone; }
    // Without keyspace events: the pause before the next re-scan (the configured interval, or ten times the last
    // pass's duration when that is longer).
    int rescanPauseMs() const;

    // A lock present now or vanished recently (present == false); nullptr when unknown.
    const LockRecord *record(const QByteArray &name) const { return m_store.find(name); }
    QList<QByteArray> lockNames() const { return m_store.presentNames(); } // present ones
    int lockCount() const { return m_store.presentCount(); }
    // The present locks per kind and library, kept as records change (a metrics scrape's gauges).
    const KindTally &kindTally() const { return m_store.kinds(); }

    // The locks whose TTL is re-read every ttlPollIntervalMs (a view's visible rows); empty: all, up to the limit.
    void setWatched(const QList<QByteArray> &names) { m_ttl->setWatched(names); }
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
    // The constructor's parts: each wires one side of the monitor.
    void connectConnection();
    void connectScanners();
    void connectParts();
    void onModeDecided(bool cluster);
    void onPassStarting();
    void onPassFinished(const RedisError &error, int keysSeen);
    void finishPass(const RedisError &error, int keysSeen);
    void onTouched(const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &event, bool auxKey);
    void onFeedModeChanged(LockEventFeed::Mode mode);
    void markDirty(const QByteArray &name);
    void onAnswered(const QList<KeyReader::Answer> &answers, const QList<QByteArray> &rejected);
    void onPolled(const TtlReadings &readings);
    // refreshed: a read of named keys (its send time is known); synced: the feeds delivered all they had before it.
    void ingest(const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed = false,
        bool synced = false);
    // A read the events seen so far do not explain yet: judged once every feed has delivered what it had.
    void holdUntilSynced(const QByteArray &name, quint64 ticket);
    // A fair queue with no lock hash read for a lock held until now: ends the hold, and shows the queue only if it
    // is still there a moment later (its head takes the lock at once when alive). True: not shown now.
    bool deferOrphanedQueue(const QByteArray &name, bool initial);
    void waitForWakeUp(const QByteArray &name, int ms);
    void onGraceOver();
    void flush();
    void checkSettled();

    Options m_options;
    RedisRouter *m_connection;
    LockScanner *m_scanner; // full passes
    bool m_started = false;
    bool m_initialDone = false;

    // The parts, each with its own state and timers.
    LockRecordStore m_store;
    ReadJudge m_judge; // what each read means, and when a key is read
    ShardListeners *m_listeners; // the event feeds per master, and the shard channels
    PassScheduler *m_passes;
    KeyReader *m_reads; // reads of named keys
    TtlWatch *m_ttl;
    ReleaseNamespaceWatch *m_namespaces;
    QTimer m_graceTimer; // the end of the earliest ReadJudge wait for a wake-up message

    PassTally m_tally; // what the pass under way met

    QList<std::function<void()>> m_settling; // settle() calls whose feeds have synced

    // Announced at the next flush().
    QSet<QByteArray> m_changed;
    QList<LockEvent> m_events;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::LockMonitor::Changes)
