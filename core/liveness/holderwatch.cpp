#include "liveness/holderwatch.h"

#include "kinds/custom/ownertemplate.h"
#include "monitor/lockmonitor.h"
#include "redis/redisconnection.h"
#include "redis/redisresult.h"
#include "redis/redisrouter.h"
#include "stats/lockstatistics.h"

#include <QDateTime>
#include <QFileInfo>
#include <QSysInfo>

#include <memory>

namespace LockScope {

namespace {
constexpr int kMaxHeartbeats = 2000; // heartbeat keys read per poll: a console shows far fewer holders

// The node a listing comes from, as traces name it: empty on a single server.
QByteArray nodeName(const RedisRouter *router, const RedisConnection *c)
{
    if (router->mode() != RedisRouter::Mode::Cluster)
        return {};
    return c->options().host.toUtf8() + ':' + QByteArray::number(c->options().port);
}

QByteArray runIdOf(const QByteArray &info)
{
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith("run_id:"))
            return line.mid(7).trimmed();
    }
    return {};
}
} // namespace

HolderWatch::HolderWatch(RedisRouter *router, QObject *parent)
    : QObject(parent)
    , m_router(router)
{
    connect(&m_poll, &QTimer::timeout, this, &HolderWatch::poll);
}

void HolderWatch::addTrace(const TraceFindings &findings)
{
    m_blankFacts.reset();
    m_directory.addTrace(findings);
    m_retriers = findings.retriers;
    Q_EMIT changed();
}

void HolderWatch::setPollInterval(int intervalMs)
{
    if (intervalMs <= 0)
        m_poll.stop();
    else
        m_poll.start(intervalMs);
}

void HolderWatch::poll()
{
    // Nothing to check a listing against: no need to read one (CLIENT LIST costs the server a line per connection).
    if (!m_directory.isEmpty())
        readClients();
    if (!m_monitor)
        return;
    QList<LockHolder> beating;
    for (const QByteArray &name : m_monitor->lockNames()) {
        const LockRecord *r = m_monitor->record(name);
        for (const LockHolder &h : r ? r->info.holders : QList<LockHolder>())
            if (!h.heartbeatKey.isEmpty() && beating.size() < kMaxHeartbeats)
                beating << h;
    }
    if (!beating.isEmpty())
        readHeartbeats(beating);
    // The waiters' lists of home-grown locks.
    QList<LockInfo> queued;
    if (!m_patterns.templates().isEmpty())
        for (const QByteArray &name : m_monitor->lockNames())
            if (const LockRecord *r = m_monitor->record(name);
                r && r->info.library == "custom" && queued.size() < kMaxHeartbeats)
                queued << r->info;
    if (!queued.isEmpty())
        readQueues(queued);
}

void HolderWatch::readHeartbeats(const QList<LockHolder> &holders, std::function<void()> done)
{
    QList<QByteArray> keys;
    for (const LockHolder &h : holders)
        if (!h.heartbeatKey.isEmpty() && !keys.contains(h.heartbeatKey))
            keys << h.heartbeatKey;
    if (keys.isEmpty()) {
        if (done)
            QMetaObject::invokeMethod(this, std::move(done), Qt::QueuedConnection);
        return;
    }
    auto left = std::make_shared<int>(int(keys.size()));
    auto finished = std::make_shared<std::function<void()>>(std::move(done));
    for (const QByteArray &key : keys) {
        // Each key to its own node (a cluster routes them); a time is short: 64 bytes of it are enough.
        m_router->connectionForKey(key)->commandBatch({ { "PTTL", key }, { "GETRANGE", key, "0", "63" } },
            [this, key, left, finished](const RedisError &error, const QList<RedisValue> &replies) {
                if (!error.isError() && replies.size() == 2 && !replies.at(0).isError()) {
                    Heartbeat &hb = m_heartbeats[key];
                    hb.pttlMs = replies.at(0).toInteger();
                    hb.value = replies.at(1).isError() ? QByteArray() : replies.at(1).bytes();
                    hb.readAtMs = QDateTime::currentMSecsSinceEpoch();
                }
                if (--*left == 0) {
                    Q_EMIT changed();
                    if (*finished)
                        (*finished)();
                }
            });
    }
}

void HolderWatch::readQueues(const QList<LockInfo> &locks, std::function<void()> done)
{
    QList<QPair<QByteArray, QByteArray>> lists; // lock, its waiters' list
    for (const LockInfo &l : locks)
        if (const std::shared_ptr<const OwnerTemplate> t = m_patterns.templateFor(l.name); t && !t->queue.isEmpty())
            lists.append({ l.name, t->queueKey(l.name) });
    if (lists.isEmpty()) {
        if (done)
            QMetaObject::invokeMethod(this, std::move(done), Qt::QueuedConnection);
        return;
    }
    auto left = std::make_shared<int>(int(lists.size()));
    auto finished = std::make_shared<std::function<void()>>(std::move(done));
    for (const auto &[name, key] : std::as_const(lists)) {
        m_router->connectionForKey(key)->command(
            { "LRANGE", key, "0", "99" }, [this, name = name, left, finished](const RedisResult &r) {
                // Not a list (WRONGTYPE), or denied: no queue is known, and none is made up.
                QList<QByteArray> owners;
                const std::shared_ptr<const OwnerTemplate> t = m_patterns.templateFor(name);
                if (r.ok() && r.value.isArray() && t)
                    for (const RedisValue &member : r.value.elements())
                        if (const QByteArray owner = t->queueMemberOwner(member.bytes()); !owner.isEmpty())
                            owners << owner;
                m_queues.insert(name, owners);
                if (--*left == 0) {
                    Q_EMIT changed();
                    if (*finished)
                        (*finished)();
                }
            });
    }
}

LockInfo HolderWatch::withQueue(const LockInfo &lock) const
{
    const auto it = m_queues.constFind(lock.name);
    if (it == m_queues.cend() || !lock.queue.isEmpty())
        return lock;
    LockInfo queued = lock;
    for (const QByteArray &owner : *it)
        queued.queue.append({ owner, -1 });
    return queued;
}

LivenessInput::Heartbeat HolderWatch::heartbeatOf(
    const LockInfo &lock, const LockHolder &holder, qint64 epochMs, qint64 *ageMs) const
{
    *ageMs = -1;
    if (holder.heartbeatKey.isEmpty())
        return LivenessInput::Heartbeat::None;
    const auto it = m_heartbeats.constFind(holder.heartbeatKey);
    if (it == m_heartbeats.cend())
        return LivenessInput::Heartbeat::None; // not read yet: no signal either way
    if (it->pttlMs == -2)
        return LivenessInput::Heartbeat::Missing;
    // A time in it says how fresh it is; without one, a key its holder keeps alive with a TTL is fresh while it lasts.
    if (const qint64 at = parseLockTime(it->value); at > 0) {
        *ageMs = qMax<qint64>(0, epochMs - at);
        const std::shared_ptr<const OwnerTemplate> t = m_patterns.templateFor(lock.name);
        const qint64 maxAge = t ? t->heartbeatMaxAgeMs : 60000;
        return *ageMs <= maxAge ? LivenessInput::Heartbeat::Fresh : LivenessInput::Heartbeat::Stale;
    }
    return it->pttlMs > 0 ? LivenessInput::Heartbeat::Fresh : LivenessInput::Heartbeat::None;
}

void HolderWatch::readClients(std::function<void()> done)
{
    const QList<RedisConnection *> nodes = m_router->masterConnections();
    if (m_denied || nodes.isEmpty() || m_reading) {
        if (done)
            QMetaObject::invokeMethod(this, std::move(done), Qt::QueuedConnection);
        return;
    }
    m_reading = true;
    struct Gathered
    {
        int waiting = 0;
        QList<ClientEntry> clients;
        QStringList partial;
        QByteArray runId;
        std::function<void()> done;
    };
    auto gathered = std::make_shared<Gathered>();
    gathered->waiting = int(nodes.size());
    gathered->done = std::move(done);
    const auto finishOne = [this, gathered] {
        if (--gathered->waiting > 0)
            return;
        m_reading = false;
        m_partial = gathered->partial;
        m_directory.updateClients(
            gathered->clients, QDateTime::currentMSecsSinceEpoch(), gathered->partial.isEmpty(), gathered->runId);
        Q_EMIT changed();
        if (gathered->done)
            gathered->done();
    };
    for (RedisConnection *c : nodes) {
        const QByteArray node = nodeName(m_router, c);
        const bool first = c == nodes.first();
        c->commandBatch({ { "CLIENT", "LIST" }, { "INFO", "server" } },
            [this, gathered, node, first, finishOne](const RedisError &error, const QList<RedisValue> &replies) {
                if (error.isError() || replies.size() < 2) {
                    gathered->partial << tr("node %1 did not answer CLIENT LIST: %2")
                                             .arg(node.isEmpty() ? tr("the server") : QString::fromUtf8(node),
                                                 error.message());
                } else if (replies.at(0).isError()) {
                    const QByteArray text = replies.at(0).bytes();
                    if (text.startsWith("NOPERM"))
                        m_denied = true; // a user without the right keeps not having it
                    gathered->partial << tr("CLIENT LIST denied: %1 (a holder's connection cannot be checked; "
                                            "the user needs +client|list)")
                                             .arg(QString::fromUtf8(text));
                } else {
                    gathered->clients << parseClientList(replies.at(0).bytes(), node);
                }
                if (first && replies.size() >= 2 && !replies.at(1).isError())
                    gathered->runId = runIdOf(replies.at(1).bytes());
                finishOne();
            });
    }
}

qint64 HolderWatch::failedUnlockMs(
    const LockRecord &record, const LockHolder &holder, qint64 nowMs, qint64 epochMs) const
{
    const qint64 unlockMs = m_directory.lastReleaseMs(holder.owner);
    if (unlockMs <= 0 || record.lastRenewalAtMs < 0)
        return -1;
    // The monitor watched the lock when the traced unlock came, no level of that owner was let go since, and a
    // renewal came after it: the unlock did nothing (it may even have come before the acquire it meant to undo:
    // redisson #7272), and the watchdog goes on. MONITOR's times are the server's clock: two seconds' grace.
    constexpr qint64 graceMs = 2000;
    const qint64 watchedSince = epochMs - (nowMs - record.firstSeenMs);
    const qint64 renewedAt = epochMs - (nowMs - record.lastRenewalAtMs);
    if (watchedSince > unlockMs || renewedAt < unlockMs + graceMs)
        return -1;
    for (const LockEvent &e : record.timeline)
        if (e.owner == holder.owner && e.type == LockEvent::Type::Released && e.timeMs >= unlockMs - graceMs)
            return -1;
    return unlockMs;
}

LivenessInput::Process HolderWatch::localProcess(const LockHolder &holder)
{
    if (holder.pid <= 0 || holder.host.isEmpty())
        return LivenessInput::Process::NotKnown;
    const QByteArray here = QSysInfo::machineHostName().toUtf8();
    if (holder.host.compare(here, Qt::CaseInsensitive) != 0)
        return LivenessInput::Process::NotKnown;
    return QFileInfo::exists(QStringLiteral("/proc/%1").arg(holder.pid)) ? LivenessInput::Process::Running
                                                                         : LivenessInput::Process::Gone;
}

LivenessVerdict HolderWatch::verdict(const LockInfo &lock, const LockHolder &holder) const
{
    LivenessInput in;
    in.lock = lock;
    in.holder = holder;
    in.nowMs = monotonicMs();
    in.epochMs = QDateTime::currentMSecsSinceEpoch();
    if (m_monitor) {
        const LockRecord *record = m_monitor->record(lock.name);
        if (record && record->present)
            in.record = record;
    }
    in.presence = m_directory.presence(holder);
    in.process = localProcess(holder);
    if (in.record)
        in.unlockSeenMs = failedUnlockMs(*in.record, holder, in.nowMs, in.epochMs);
    in.heartbeat = heartbeatOf(lock, holder, in.epochMs, &in.heartbeatAgeMs);
    if (m_statistics) {
        if (const LockStats *stats = m_statistics->lock(lock.name)) {
            in.holdSamples = stats->holds.count();
            in.holdP95Ms = stats->holds.count() > 0 ? stats->holds.quantile(0.95) : -1;
        }
    }
    return judgeLiveness(in);
}

HolderFacts HolderWatch::facts(const LockInfo &lock, const LockHolder &holder) const
{
    // One read with nothing known of anyone (the CLI's list of a big keyspace): every holder gets the same answer,
    // judged once.
    const bool nothingKnown
        = !m_monitor && !m_statistics && m_directory.isEmpty() && holder.pid <= 0 && holder.heartbeatKey.isEmpty();
    if (nothingKnown && m_blankFacts)
        return *m_blankFacts;
    const LivenessVerdict v = verdict(lock, holder);
    HolderFacts f;
    f.lastRenewedMs = v.figures.lastRenewedMs;
    f.renewalPeriodMs = v.figures.periodMs;
    f.missedRenewals = v.figures.missed;
    f.transitions = m_monitor ? v.figures.transitions : -1;
    f.liveness = LivenessVerdict::stateId(v.state);
    f.livenessEvidence = v.evidence;
    const OwnerPresence presence = m_directory.presence(holder);
    if (!presence.connections.isEmpty()) {
        const OwnerConnection &c = presence.connections.first();
        f.connection
            = HolderFacts::Connection { c.addr, c.name, c.lib, c.seenMs, presence.state == OwnerPresence::State::Gone };
    }
    if (nothingKnown)
        m_blankFacts = f;
    return f;
}

HolderFactsSource HolderWatch::factsSource() const
{
    return [this](const LockInfo &lock, const LockHolder &holder) -> std::optional<HolderFacts> {
        return facts(lock, holder);
    };
}

} // namespace LockScope
