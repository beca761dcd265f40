#include "monitor/lockmonitor.h"

#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "kinds/lockscanner.h"
#include "monitor/passscheduler.h"
#include "monitor/refreshqueue.h"
#include "monitor/releasenamespacewatch.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/routedsubscriber.h"

#include <QDateTime>
#include <QPointer>

namespace LockScope {

namespace {
constexpr int kGraceMs = 250; // how long a vanished key waits for its wake-up message
constexpr int kNotLocksLimit = 100000;

bool mayCreateLock(const QByteArray &event)
{
    // Redisson creates a lock hash with HINCRBY or HSET, and a foreign writer may set the TTL afterwards.
    return event.startsWith('h') || event == "expire" || event == "persist" || event == "rename_to"
        || event == "restore" || event == "copy_to";
}
} // namespace

LockMonitor::LockMonitor(ConnectionOptions connection, Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_store(m_options.timelineLength, m_options.goneRetention)
    , m_tracker(m_options.timelineLength)
{
    qRegisterMetaType<LockScope::LockMonitor::Changes>();
    qRegisterMetaType<QList<LockScope::LockEvent>>();
    connection.readOnly = true; // a monitor never writes, whatever the caller's options say
    m_connection = new RedisRouter(connection, this);
    LockScanner::Options scan;
    scan.pattern = m_options.pattern;
    scan.count = m_options.scanCount;
    scan.stringPatterns = m_options.stringPatterns;
    m_scanner = new LockScanner(m_connection, scan, this);
    m_scanner->setScanNodes([this] {
        QList<RedisCommander *> nodes;
        for (RedisConnection *c : m_connection->scanConnections())
            nodes << c;
        return nodes;
    });
    m_reader = new LockScanner(m_connection, scan, this);
    m_passes = new PassScheduler(
        m_options.rescanIntervalMs, [this] { return m_connection->mode() != RedisRouter::Mode::Probing; }, this);
    connect(m_passes, &PassScheduler::passStarting, this, &LockMonitor::onPassStarting);
    m_refresh = new RefreshQueue([this] { return !m_reader->isRunning(); }, this);
    connect(m_refresh, &RefreshQueue::batchReady, this, &LockMonitor::onBatchReady);
    TtlWatch::Sources sources;
    sources.connection = m_connection;
    sources.records = &m_store;
    sources.ready = [this] { return m_initialDone; };
    // Our own ear on the shard channel (listenOnShardChannels) is counted by the server, and is no waiter.
    sources.ownShardListeners = [this](const QByteArray &channel) {
        return m_shardEars && m_shardEars->isConfirmed(RedisSubscriptions::Kind::Shard, channel) ? 1 : 0;
    };
    sources.watchAllLimit = m_options.watchAllLimit;
    m_ttl = new TtlWatch(sources, this);
    connect(m_ttl, &TtlWatch::deadlinePassed, this, &LockMonitor::markDirty);
    connect(m_ttl, &TtlWatch::polled, this, &LockMonitor::onPolled);
    m_namespaces = new ReleaseNamespaceWatch(&m_store, this);
    connect(m_namespaces, &ReleaseNamespaceWatch::wakeUpMissed, this, &LockMonitor::noteEvent);
    connect(m_connection, &RedisRouter::modeDecided, this, [this](RedisRouter::Mode mode) {
        // Sharded fleets' waiters are visible only to SHARDNUMSUB.
        const PublishMode publish = m_connection->options().publishMode;
        const bool shard
            = mode == RedisRouter::Mode::Cluster || publish == PublishMode::Sharded || publish == PublishMode::Both;
        m_scanner->setShardWaiters(shard);
        m_reader->setShardWaiters(shard);
        if (shard && !m_shardEars) {
            m_shardEars = new RoutedSubscriber(m_connection, this);
            m_scanner->setOwnSubscriptions(m_shardEars);
            m_reader->setOwnSubscriptions(m_shardEars);
            connect(m_shardEars, &RedisSubscriptions::shardMessage, this, [this](const QByteArray &channel) {
                const QList<QByteArray> names = LockNameMap::fromChannel(channel);
                if (names.isEmpty())
                    return;
                m_namespaces->note(names, true);
                onTouched(names, LockEventFeed::Touch::ReleaseMessage, {}, false);
            });
            Changes all;
            all.updated = lockNames();
            listenOnShardChannels(all);
        }
        if (m_started)
            buildFeeds();
        m_passes->nodesKnown();
    });
    // Not even the kind of server is known (unreachable, or the slot map denied): say why, and try again later.
    connect(m_connection, &RedisCommander::disconnected, this, [this](const RedisError &error) {
        if (m_connection->mode() != RedisRouter::Mode::Probing)
            return;
        emit errorOccurred(error);
        QTimer::singleShot(qMax(1000, m_options.rescanIntervalMs), this, [this] {
            if (m_connection->mode() == RedisRouter::Mode::Probing)
                m_connection->open();
        });
    });
    connect(m_connection, &RedisRouter::topologyChanged, this, [this] {
        if (!m_started)
            return;
        buildFeeds();
        // Keys may have moved between nodes the pass had and had not scanned yet.
        m_passes->againIfRunning();
    });

    connect(m_scanner, &LockScanner::locksFound, this, [this](const QList<LockInfo> &locks) {
        for (const LockInfo &lock : locks) {
            ingest(lock.name, lock, !m_initialDone);
            LockRecord *record = m_store.find(lock.name);
            if (record && record->seenInPass != m_passNumber) {
                record->seenInPass = m_passNumber;
                if (record->present)
                    ++m_seenPresent;
            }
        }
        flush();
    });
    connect(m_scanner, &LockScanner::finished, this, &LockMonitor::onPassFinished);
    connect(m_reader, &LockScanner::locksFound, this, [this](const QList<LockInfo> &locks) {
        for (const LockInfo &lock : locks)
            m_refreshed.insert(lock.name, lock);
    });
    connect(m_reader, &LockScanner::finished, this, [this](const RedisError &error) { onRefreshed(error); });
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, &LockMonitor::onGraceOver);
}

LockMonitor::~LockMonitor() = default;

void LockMonitor::start()
{
    m_started = true;
    m_connection->open();
    buildFeeds();
    m_passes->armFirstPass();
    m_ttl->startPolling(m_options.ttlPollIntervalMs);
}

int LockMonitor::rescanPauseMs() const
{
    return m_passes->pauseMs();
}

LockEventFeed::Mode LockMonitor::mode() const
{
    return m_mode;
}

QString LockMonitor::modeReason() const
{
    for (const LockEventFeed *feed : m_feeds)
        if (!feed->reason().isEmpty())
            return feed->reason();
    return {};
}

const LockRecord *LockMonitor::record(const QByteArray &name) const
{
    return m_store.find(name);
}

QList<QByteArray> LockMonitor::lockNames() const
{
    return m_store.presentNames();
}

void LockMonitor::setWatched(const QList<QByteArray> &names)
{
    m_ttl->setWatched(names);
}

void LockMonitor::refresh(const QList<QByteArray> &names)
{
    for (const QByteArray &name : names)
        markDirty(name);
}

void LockMonitor::noteEvent(LockEvent event)
{
    m_store.appendToTimeline(event);
    m_events << event;
    flush();
    markDirty(event.name);
}

void LockMonitor::attribute(const QByteArray &name, LockRecord &record, QList<LockEvent> &events, qint64 nowMs)
{
    const auto it = m_attributions.find(name);
    if (it == m_attributions.end())
        return;
    if (it->untilMs < nowMs) {
        m_attributions.erase(it);
        return;
    }
    // The ends of holds this read judged: the tracker appended them to the timeline in the same order.
    bool used = false;
    const qsizetype first = record.timeline.size() - events.size();
    for (qsizetype i = 0; i < events.size(); ++i) {
        LockEvent &e = events[i];
        const bool end = e.type == LockEvent::Type::ForceReleased || e.type == LockEvent::Type::Expired
            || (e.type == LockEvent::Type::Released && e.count == 0);
        if (!end)
            continue;
        e.type = LockEvent::Type::ForceReleased;
        e.detail = it->detail;
        if (first >= 0 && first + i < record.timeline.size())
            record.timeline[first + i] = e;
        used = true;
    }
    if (used)
        m_attributions.erase(it);
}

void LockMonitor::attributeNextEnd(const QByteArray &name, const QString &detail)
{
    if (detail.isEmpty())
        m_attributions.remove(name);
    else
        m_attributions.insert(name, { detail, monotonicMs() + 60000 });
}

bool LockMonitor::matchesPattern(const QByteArray &name) const
{
    // The server's own glob rules, on the bytes: a key an event names is in when a SCAN MATCH would have found it.
    return m_options.pattern == "*" || globMatch(m_options.pattern, name);
}

void LockMonitor::onPassStarting()
{
    ++m_passNumber;
    m_seenPresent = 0;
    m_passEpoch = m_connection->topologyEpoch();
    m_scanner->start();
}

void LockMonitor::onPassFinished(const RedisError &error, int keysSeen)
{
    // A slot that moved during the pass may have carried keys from a node not scanned yet to one already scanned:
    // the map read after the pass says whether anything moved.
    if (m_connection->isCluster() && !error.isError()) {
        QPointer<LockMonitor> self(this);
        m_connection->refreshTopology([self, error, keysSeen] {
            if (self)
                self->finishPass(error, keysSeen);
        });
        return;
    }
    finishPass(error, keysSeen);
}

void LockMonitor::finishPass(const RedisError &error, int keysSeen)
{
    // A slot moved during the pass: a key may have gone from an unscanned node to a scanned one.
    const bool again = m_passes->finish(m_connection->topologyEpoch() != m_passEpoch);
    if (error.isError()) {
        emit errorOccurred(error);
    } else {
        // A lock the pass did not meet may be gone: its own read decides, with the signals seen meanwhile. Counted
        // as the pass went, so a pass that met every lock (the first, and most re-scans) does not walk a million
        // records to find none (170 ms with the window frozen).
        QList<QByteArray> unseen;
        if (m_seenPresent != m_store.presentCount()) {
            m_store.forEach([&](const QByteArray &name, const LockRecord &record) {
                if (record.present && record.seenInPass != m_passNumber)
                    unseen << name;
            });
        }
        for (const QByteArray &name : std::as_const(unseen))
            markDirty(name);
    }
    for (const QByteArray &name : std::as_const(m_touchedDuringPass))
        if (m_store.isPresent(name))
            markDirty(name);
    m_touchedDuringPass.clear();
    if (again && !error.isError()) {
        if (!m_initialDone) {
            m_initialDone = true;
            emit snapshotFinished(error, keysSeen);
        }
        m_passes->startPass();
        return;
    }
    if (!m_initialDone) {
        m_initialDone = !error.isError();
        emit snapshotFinished(error, keysSeen);
    }
    // With keyspace events every change arrives by itself; otherwise (or after a failure) scan again later.
    if (m_mode != LockEventFeed::Mode::KeyspaceEvents || error.isError())
        m_passes->scheduleRescan();
}

void LockMonitor::onTouched(
    const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &event, bool auxKey)
{
    for (const QByteArray &name : names) {
        // A pass may still deliver what it read before this event: read the key again once the pass is over.
        if (m_passes->isRunning())
            m_touchedDuringPass.insert(name);
        const LockRecord *r = m_store.find(name);
        const bool known = r && r->present;
        if (!known) {
            if (!matchesPattern(name))
                continue;
            if (touch == LockEventFeed::Touch::Changed && !auxKey) {
                if (!mayCreateLock(event))
                    continue;
                if (event.startsWith('h') && m_notLocks.contains(name))
                    continue; // a user hash being written to: read once, not on every write
            }
            if (touch != LockEventFeed::Touch::Changed || !event.startsWith('h'))
                m_notLocks.remove(name);
            if (touch == LockEventFeed::Touch::Expired || touch == LockEventFeed::Touch::Deleted) {
                if (!r)
                    continue; // gone, and never a lock we knew
            }
        }
        if (touch == LockEventFeed::Touch::ReleaseMessage)
            m_pending[name].releaseMessage = true;
        else if (!auxKey) // the order of the key's own events is evidence; an aux key's only says "read it again"
            m_pending[name].note(LockTracker::Signals::eventOf(event));
        markDirty(name);
    }
}

void LockMonitor::markDirty(const QByteArray &name)
{
    m_refresh->mark(name);
}

void LockMonitor::onBatchReady(const QList<QByteArray> &names)
{
    for (const QByteArray &name : names) {
        // Events that arrived before the read was sent happened before the server ran it.
        const auto seen = m_pending.find(name);
        if (seen != m_pending.end())
            seen->sentSeq = seen->lastSeq;
        // A read held for its events is superseded by this one: judged later, with this read's send point, the
        // older picture would be placed after events it never saw (a reader seen leaving and coming back).
        m_held.remove(name);
    }
    m_refreshed.clear();
    m_reader->readKeys(names);
}

void LockMonitor::onRefreshed(const RedisError &error)
{
    const QList<QByteArray> requested = m_refresh->takeAnswered();
    if (error.isError()) {
        emit errorOccurred(error);
        // Read them again once the connection is back; pending signals stay with them.
        for (const QByteArray &name : requested)
            markDirty(name);
        m_refresh->retryLater(qMax(100, m_options.ttlPollIntervalMs));
        return;
    }
    const QList<QByteArray> rejected = m_reader->rejected();
    if (m_notLocks.size() + rejected.size() > kNotLocksLimit)
        m_notLocks.clear();
    for (const QByteArray &name : rejected)
        m_notLocks.insert(name);
    for (const QByteArray &name : requested) {
        const auto it = m_refreshed.constFind(name);
        if (it != m_refreshed.cend())
            ingest(name, *it, false, true);
        else
            ingest(name, std::nullopt, false, true);
    }
    m_refreshed.clear();
    flush();
    m_refresh->continueNow();
}

void LockMonitor::ingest(
    const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed, bool synced)
{
    if (read && read->holders.isEmpty() && deferOrphanedQueue(name, initial))
        return;
    if (!read && !m_store.find(name)) {
        m_pending.remove(name);
        return;
    }
    LockRecord &record = m_store.obtain(name);
    const qint64 now = monotonicMs();
    LockTracker::Signals seen = m_pending.value(name);
    const quint32 sentSeq = seen.sentSeq;
    if (!refreshed)
        seen.sentSeq = 0; // a pass's read: when it was sent is not known
    seen.initial = initial;
    seen.pubSubAvailable = pubSubAvailable();
    seen.keyspaceEvents = m_mode == LockEventFeed::Mode::KeyspaceEvents;
    if (!synced && !m_graceFinal.contains(name) && m_tracker.awaitsEvidence(record, read, seen, now)) {
        if (seen.keyspaceEvents) {
            holdUntilSynced(name, read, initial, refreshed);
        } else if (!m_grace.contains(name)) {
            waitForWakeUp(name, kGraceMs);
        }
        return;
    }
    m_held.remove(name);
    m_graceFinal.remove(name);
    m_grace.remove(name);
    const bool wasPresent = record.present;
    bool changed = false;
    // Renewals seen during this hold vouch for a lock its shape alone made low confidence (classify knows one read).
    std::optional<LockInfo> input = read;
    const auto owners = [](const LockInfo &info) {
        QList<QByteArray> list;
        for (const LockHolder &h : info.holders)
            list << h.owner;
        return list;
    };
    if (input && record.present && record.renewals > 0 && owners(*input) == owners(record.info))
        corroborateByRenewals(*input);
    QList<LockEvent> events = m_tracker.apply(record, input, seen, now, QDateTime::currentMSecsSinceEpoch(), &changed);
    if (!m_attributions.isEmpty())
        attribute(name, record, events, now);
    if (record.present && record.renewals > 0 && record.info.confidence == LockInfo::Confidence::Low) {
        corroborateByRenewals(record.info);
        changed = true;
    }
    // What came after the read waits for the next one (already asked for: those events marked the key dirty).
    if (seen.keyEvents.isEmpty() && !seen.releaseMessage) {
        m_pending.remove(name);
    } else {
        seen.sentSeq = sentSeq;
        m_pending.insert(name, seen);
    }
    m_events << events;
    const bool present = record.present;
    const qint64 deadline = record.deadlineMs;
    m_store.notePresence(name, wasPresent, present);
    if (present != wasPresent && record.seenInPass == m_passNumber)
        m_seenPresent += present ? 1 : -1;
    if (changed || present != wasPresent)
        m_changed.insert(name);
    if (present && deadline >= 0)
        m_ttl->pushDeadline(name, deadline);
    if (!present)
        m_store.forgetGone(m_changed); // never the record just changed: it is announced first
}

void LockMonitor::waitForWakeUp(const QByteArray &name, int ms)
{
    m_grace.insert(name, monotonicMs() + ms);
    if (!m_graceTimer.isActive())
        m_graceTimer.start(ms);
}

void LockMonitor::onGraceOver()
{
    const qint64 now = monotonicMs();
    qint64 next = -1;
    for (auto it = m_grace.begin(); it != m_grace.end();) {
        if (it.value() <= now) {
            m_graceFinal.insert(it.key());
            markDirty(it.key());
            it = m_grace.erase(it);
        } else {
            next = next < 0 ? it.value() : qMin(next, it.value());
            ++it;
        }
    }
    if (next >= 0)
        m_graceTimer.start(int(qMax<qint64>(1, next - now)));
}

void LockMonitor::flush()
{
    if (!m_changed.isEmpty()) {
        Changes changes;
        for (const QByteArray &name : std::as_const(m_changed)) {
            const LockRecord *r = record(name);
            if (r && r->present)
                changes.updated << name;
            else
                changes.removed << name;
        }
        m_changed.clear();
        listenOnShardChannels(changes);
        emit locksChanged(changes);
    }
    if (!m_events.isEmpty())
        emit eventsOccurred(std::exchange(m_events, {}));
    m_store.forgetGone(m_changed);
    checkSettled();
}

void LockMonitor::settle(std::function<void()> done)
{
    afterFeedsSync([this, done] {
        m_settling << done;
        checkSettled();
    });
}

void LockMonitor::checkSettled()
{
    // The keys the events named are read and judged: nothing queued or in flight, no read held for its events, no
    // vanished lock waiting for its wake-up message.
    if (m_settling.isEmpty() || !m_refresh->isIdle() || !m_held.isEmpty() || !m_grace.isEmpty() || !m_changed.isEmpty()
        || !m_events.isEmpty())
        return;
    for (const auto &done : std::exchange(m_settling, {}))
        done();
}

} // namespace LockScope
