#include "monitor/lockmonitor.h"

#include "kinds/lockscanner.h"
#include "monitor/keyreader.h"
#include "monitor/passscheduler.h"
#include "monitor/releasenamespacewatch.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/routedsubscriber.h"

#include <QDateTime>
#include <QPointer>

namespace LockScope {

LockMonitor::LockMonitor(ConnectionOptions connection, Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_store(m_options.timelineLength, m_options.goneRetention)
    , m_judge(m_options.pattern, m_options.timelineLength)
{
    qRegisterMetaType<LockScope::LockMonitor::Changes>();
    qRegisterMetaType<QList<LockScope::LockEvent>>();
    connection.readOnly = true; // a monitor never writes, whatever the caller's options say
    m_connection = new RedisRouter(connection, this);
    connectScanners();
    connectParts();
    connectConnection();
}

void LockMonitor::connectScanners()
{
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
    m_reads = new KeyReader(new LockScanner(m_connection, scan, this), qMax(100, m_options.ttlPollIntervalMs), this);
    connect(m_reads, &KeyReader::sending, this, [this](const QList<QByteArray> &names) {
        for (const QByteArray &name : names)
            m_judge.readSent(name);
    });
    connect(m_reads, &KeyReader::answered, this, &LockMonitor::onAnswered);
    connect(m_reads, &KeyReader::failed, this, &LockMonitor::errorOccurred);
    connect(m_scanner, &LockScanner::locksFound, this, [this](const QList<LockInfo> &locks) {
        for (const LockInfo &lock : locks) {
            ingest(lock.name, lock, !m_initialDone);
            if (LockRecord *record = m_store.find(lock.name))
                m_tally.met(*record);
        }
        flush();
    });
    connect(m_scanner, &LockScanner::finished, this, &LockMonitor::onPassFinished);
}

void LockMonitor::connectParts()
{
    m_listeners
        = new ShardListeners(m_connection, &m_store, m_options.useKeyspaceEvents, m_options.watchAllLimit, this);
    m_listeners->setConfigRecheckInterval(m_options.configRecheckMs);
    connect(m_listeners, &ShardListeners::touched, this, &LockMonitor::onTouched);
    connect(m_listeners, &ShardListeners::modeChanged, this, &LockMonitor::onFeedModeChanged);
    m_passes = new PassScheduler(
        m_options.rescanIntervalMs, [this] { return m_connection->mode() != RedisRouter::Mode::Probing; }, this);
    connect(m_passes, &PassScheduler::passStarting, this, &LockMonitor::onPassStarting);
    connect(m_listeners, &ShardListeners::eventsMayBeLost, m_passes, &PassScheduler::passAgain);
    TtlWatch::Sources sources;
    sources.connection = m_connection;
    sources.records = &m_store;
    sources.ready = [this] { return m_initialDone; };
    sources.ownShardListeners = [this](const QByteArray &channel) { return m_listeners->ownShardListeners(channel); };
    sources.watchAllLimit = m_options.watchAllLimit;
    m_ttl = new TtlWatch(sources, this);
    connect(m_ttl, &TtlWatch::deadlinePassed, this, &LockMonitor::markDirty);
    connect(m_ttl, &TtlWatch::polled, this, &LockMonitor::onPolled);
    m_namespaces = new ReleaseNamespaceWatch(&m_store, this);
    connect(m_namespaces, &ReleaseNamespaceWatch::wakeUpMissed, this, &LockMonitor::noteEvent);
    connect(m_listeners, &ShardListeners::releaseHeard, m_namespaces, &ReleaseNamespaceWatch::note);
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, &LockMonitor::onGraceOver);
}

void LockMonitor::connectConnection()
{
    connect(m_connection, &RedisRouter::modeDecided, this,
        [this](RedisRouter::Mode mode) { onModeDecided(mode == RedisRouter::Mode::Cluster); });
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
        m_listeners->rebuild(m_initialDone);
        // Keys may have moved between nodes the pass had and had not scanned yet.
        m_passes->againIfRunning();
    });
}

void LockMonitor::onModeDecided(bool cluster)
{
    // Sharded fleets' waiters are visible only to SHARDNUMSUB.
    const bool shard = PublishModeResolver::listenerKinds(m_connection->options().publishMode, cluster)
                           .contains(RedisSubscriptions::Kind::Shard);
    m_scanner->setShardWaiters(shard);
    m_reads->scanner()->setShardWaiters(shard);
    if (shard && !m_listeners->shardEars()) {
        m_listeners->listenOnShards();
        m_scanner->setOwnSubscriptions(m_listeners->shardEars());
        m_reads->scanner()->setOwnSubscriptions(m_listeners->shardEars());
        m_listeners->followChannels(lockNames(), {});
    }
    if (m_started)
        m_listeners->rebuild(m_initialDone);
    m_passes->nodesKnown();
}

LockMonitor::~LockMonitor() = default;

void LockMonitor::start()
{
    m_started = true;
    m_connection->open();
    m_listeners->rebuild(m_initialDone);
    m_passes->armFirstPass();
    m_ttl->startPolling(m_options.ttlPollIntervalMs);
}

int LockMonitor::rescanPauseMs() const
{
    return m_passes->pauseMs();
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

void LockMonitor::attributeNextEnd(const QByteArray &name, const QString &detail)
{
    m_judge.attributeNextEnd(name, detail, monotonicMs() + 60000);
}

void LockMonitor::onPassStarting()
{
    m_tally.begin(m_connection->topologyEpoch());
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
    const bool again = m_passes->finish(m_connection->topologyEpoch() != m_tally.epoch());
    if (error.isError()) {
        emit errorOccurred(error);
    } else {
        // A lock the pass did not meet may be gone: its own read decides, with the signals seen meanwhile.
        for (const QByteArray &name : m_tally.unmet(m_store))
            markDirty(name);
    }
    for (const QByteArray &name : m_tally.takeTouched())
        if (m_store.isPresent(name))
            markDirty(name);
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
    if (mode() != LockEventFeed::Mode::KeyspaceEvents || error.isError())
        m_passes->scheduleRescan();
}

void LockMonitor::onTouched(
    const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &event, bool auxKey)
{
    for (const QByteArray &name : names) {
        // A pass may still deliver what it read before this event: read the key again once the pass is over.
        if (m_passes->isRunning())
            m_tally.touched(name);
        if (m_judge.noteTouch(name, m_store.find(name), touch, event, auxKey))
            markDirty(name);
    }
}

void LockMonitor::onFeedModeChanged(LockEventFeed::Mode mode)
{
    m_passes->feedsLive(mode == LockEventFeed::Mode::KeyspaceEvents, m_initialDone);
    emit modeChanged(mode);
}

void LockMonitor::markDirty(const QByteArray &name)
{
    m_reads->mark(name);
}

void LockMonitor::onAnswered(const QList<KeyReader::Answer> &answers, const QList<QByteArray> &rejected)
{
    m_judge.noteNotLocks(rejected);
    for (const KeyReader::Answer &answer : answers)
        ingest(answer.name, answer.read, false, true);
    flush();
}

void LockMonitor::ingest(
    const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed, bool synced)
{
    if (read && read->holders.isEmpty() && deferOrphanedQueue(name, initial))
        return;
    if (!read && !m_store.find(name)) {
        m_judge.forget(name);
        return;
    }
    LockRecord &record = m_store.obtain(name);
    const bool wasPresent = record.present;
    const KindTally::Share share = KindTally::shareOf(record);
    ReadJudge::Feeds feeds;
    feeds.keyspaceEvents = mode() == LockEventFeed::Mode::KeyspaceEvents;
    feeds.pubSubAvailable = m_listeners->pubSubAvailable();
    const ReadJudge::Verdict verdict = m_judge.judge(
        name, record, { read, initial, refreshed, synced }, feeds, monotonicMs(), QDateTime::currentMSecsSinceEpoch());
    // At once, whatever the verdict: a scrape may come on the next turn of the event loop, and the record may be
    // forgotten below.
    m_store.recount(share, record);
    switch (verdict.outcome) {
    case ReadJudge::Outcome::HoldForFeeds:
        holdUntilSynced(name, verdict.ticket);
        return;
    case ReadJudge::Outcome::WaitForWakeUp:
        if (!m_graceTimer.isActive())
            m_graceTimer.start(ReadJudge::kWakeUpGraceMs);
        return;
    case ReadJudge::Outcome::Waiting:
        return;
    case ReadJudge::Outcome::Judged:
        break;
    }
    m_events << verdict.events;
    const bool present = record.present;
    const qint64 deadline = record.deadlineMs;
    m_store.notePresence(name, wasPresent, present);
    if (present != wasPresent)
        m_tally.presenceChanged(record, present);
    if (verdict.changed || present != wasPresent)
        m_changed.insert(name);
    if (present && deadline >= 0)
        m_ttl->pushDeadline(name, deadline);
    if (!present)
        m_store.forgetGone(m_changed); // never the record just changed: it is announced first
}

void LockMonitor::holdUntilSynced(const QByteArray &name, quint64 ticket)
{
    // The read came back before the events that led to it (they travel on the feed's connection): once a PING sent
    // now is answered there, everything the server did before this read has been delivered, and the read is judged
    // with it.
    m_listeners->sync([this, name, ticket] {
        const std::optional<ReadJudge::Read> held = m_judge.takeHeld(name, ticket);
        if (!held)
            return; // a later read was judged, or is held in its place
        ingest(name, held->info, held->initial, held->refreshed, true);
        flush();
    });
}

bool LockMonitor::deferOrphanedQueue(const QByteArray &name, bool initial)
{
    switch (m_judge.orphanedQueue(name, m_store.find(name))) {
    case ReadJudge::Orphan::Judge:
        return false;
    case ReadJudge::Orphan::Defer:
        return true;
    case ReadJudge::Orphan::EndHold:
        break;
    }
    ingest(name, std::nullopt, initial);
    const LockRecord *r = m_store.find(name);
    if (!r || r->present)
        return true; // waiting briefly for the release's wake-up message: the key is read again
    // A live head takes the lock moments after a release: only a queue still without a lock a while later is
    // orphaned, so a hand-over does not warn.
    waitForWakeUp(name, ReadJudge::kOrphanGraceMs);
    return true;
}

void LockMonitor::onPolled(const TtlReadings &readings)
{
    const ReadJudge::Polls judged = m_judge.judgePolls(m_store, readings, monotonicMs());
    for (const QByteArray &name : judged.reread)
        markDirty(name);
    for (const QByteArray &name : judged.changed)
        m_changed.insert(name);
    flush();
}

void LockMonitor::waitForWakeUp(const QByteArray &name, int ms)
{
    m_judge.waitForWakeUp(name, monotonicMs() + ms);
    if (!m_graceTimer.isActive())
        m_graceTimer.start(ms);
}

void LockMonitor::onGraceOver()
{
    const qint64 now = monotonicMs();
    qint64 next = -1;
    for (const QByteArray &name : m_judge.graceOver(now, &next))
        markDirty(name);
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
        m_listeners->followChannels(changes.updated, changes.removed);
        emit locksChanged(changes);
    }
    if (!m_events.isEmpty())
        emit eventsOccurred(std::exchange(m_events, {}));
    m_store.forgetGone(m_changed);
    checkSettled();
}

void LockMonitor::settle(std::function<void()> done)
{
    m_listeners->sync([this, done] {
        m_settling << done;
        checkSettled();
    });
}

void LockMonitor::checkSettled()
{
    // The keys the events named are read and judged: nothing queued or in flight, no read held for its events, no
    // vanished lock waiting for its wake-up message.
    if (m_settling.isEmpty() || !m_reads->isIdle() || m_judge.isWaiting() || !m_changed.isEmpty()
        || !m_events.isEmpty())
        return;
    for (const auto &done : std::exchange(m_settling, {}))
        done();
}

} // namespace LockScope
