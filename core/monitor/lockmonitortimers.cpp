#include "monitor/lockmonitor.h"

#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "redis/redisrouter.h"
#include "redis/replyjoin.h"
#include "redis/routedsubscriber.h"

#include <QPointer>

// The monitor's clocks: the one timer armed for the earliest lease deadline, and the PTTL polls of watched locks.
namespace LockScope {

void LockMonitor::pushDeadline(const QByteArray &name, qint64 deadlineMs)
{
    // Stale entries are skipped when they come up; rebuild when they outnumber the live ones.
    if (m_deadlines.size() > size_t(2 * m_records.size() + 1000)) {
        decltype(m_deadlines) fresh;
        for (const auto &[name, record] : m_records)
            if (record.present && record.deadlineMs >= 0)
                fresh.push({ record.deadlineMs, name });
        m_deadlines.swap(fresh);
    }
    m_deadlines.push({ deadlineMs, name });
    armDeadlineTimer();
}

void LockMonitor::armDeadlineTimer()
{
    if (m_deadlines.empty()) {
        m_deadlineTimer.stop();
        return;
    }
    // A few ms after the lease ends, so the server has expired the key when it is read.
    const qint64 wait = qMax<qint64>(0, m_deadlines.top().first + 5 - monotonicMs());
    if (!m_deadlineTimer.isActive() || m_deadlineTimer.remainingTime() > wait)
        m_deadlineTimer.start(int(qMin<qint64>(wait, 24 * 3600 * 1000)));
}

void LockMonitor::onDeadlines()
{
    const qint64 now = monotonicMs();
    while (!m_deadlines.empty() && m_deadlines.top().first + 5 <= now) {
        const Deadline d = m_deadlines.top();
        m_deadlines.pop();
        const auto it = m_records.find(d.second);
        if (it != m_records.cend() && it->second.present && it->second.deadlineMs == d.first)
            markDirty(d.second);
    }
    armDeadlineTimer();
}

void LockMonitor::pollTtl()
{
    if (m_pollInFlight || !m_initialDone || !m_connection->isReady())
        return;
    QList<QByteArray> names;
    if (!m_watched.isEmpty()) {
        for (const QByteArray &name : std::as_const(m_watched)) {
            const LockRecord *r = record(name);
            if (r && r->present)
                names << name;
        }
    } else if (m_presentCount <= m_options.watchAllLimit) {
        names = lockNames();
    }
    if (names.isEmpty())
        return;
    m_pollInFlight = true;
    auto ttls = std::make_shared<QHash<QByteArray, qint64>>();
    auto waiters = std::make_shared<QHash<QByteArray, int>>();
    auto shardWaiters = std::make_shared<QHash<QByteArray, int>>();
    const qint64 sentAt = monotonicMs();
    QPointer<LockMonitor> self(this);
    const bool shard = m_connection->isCluster() || m_connection->options().publishMode == PublishMode::Sharded
        || m_connection->options().publishMode == PublishMode::Both;
    const auto join = ReplyJoin::create([self, ttls, waiters, shardWaiters, sentAt](const RedisError &) {
        if (!self)
            return;
        self->m_pollInFlight = false;
        const qint64 now = monotonicMs();
        for (auto it = ttls->cbegin(); it != ttls->cend(); ++it) {
            const auto found = self->m_records.find(it.key());
            if (found == self->m_records.end() || !found->second.present)
                continue;
            LockRecord *rec = &found->second;
            const qint64 ttl = it.value();
            const qint64 expected = rec->deadlineMs < 0 ? -1 : rec->deadlineMs - sentAt;
            const bool consistent = (ttl == -1 && expected == -1)
                || (ttl >= 0 && expected >= 0 && qAbs(ttl - expected) <= LockTracker::tolerance(rec->leaseMs));
            if (!consistent) {
                // Renewed, re-acquired, gone or persisted: a full read tells which.
                self->markDirty(it.key());
                continue;
            }
            bool changed = self->m_tracker.observeTtl(*rec, ttl, now);
            const int w = waiters->value(it.key(), -1);
            if (w >= 0 && w != rec->info.waiters) {
                rec->info.waiters = w;
                changed = true;
            }
            const int sw = shardWaiters->value(it.key(), -1);
            if (sw >= 0)
                rec->info.shardWaiters = sw;
            if (changed)
                self->m_changed.insert(it.key());
        }
        self->flush();
    });
    m_connection->cork();
    for (const QByteArray &name : names) {
        const LockRecord *r = record(name);
        if (r->info.holders.isEmpty())
            continue; // an orphaned fair queue: no hash to have a TTL; its keys' events or the next pass re-read it
        const QByteArray channel = LockLayouts::forRecord(r->info.kind).releaseChannel(name);
        m_connection->command({ "PTTL", name }, join->track([ttls, name](const RedisResult &res) {
            if (res.ok())
                ttls->insert(name, res.value.toInteger());
        }));
        if (channel.isEmpty())
            continue; // no wake-up channel (a string lock): nobody waits on one
        // Waiters of both namespaces add up: a mixed fleet has some on each.
        const auto count = [waiters, name](const RedisResult &res) {
            if (res.ok() && res.value.size() == 2)
                (*waiters)[name] += int(res.value.at(1).toInteger());
        };
        m_connection->command({ "PUBSUB", "NUMSUB", channel }, join->track(count));
        if (shard) {
            // Our own ear on the shard channel (listenOnShardChannels) is counted by the server, and is no waiter.
            const int own = m_shardEars && m_shardEars->isConfirmed(RedisSubscriptions::Kind::Shard, channel) ? 1 : 0;
            m_connection->command({ "PUBSUB", "SHARDNUMSUB", channel },
                join->track([waiters, shardWaiters, name, own](const RedisResult &res) {
                    if (!res.ok() || res.value.size() != 2)
                        return;
                    const int n = qMax(0, int(res.value.at(1).toInteger()) - own);
                    (*waiters)[name] += n;
                    shardWaiters->insert(name, n);
                }));
        }
    }
    join->seal(this);
    m_connection->uncork();
}

bool LockMonitor::deferOrphanedQueue(const QByteArray &name, bool initial)
{
    // A holderless read is a fair queue whose lock hash is gone. Waiting for its head already: read again then.
    if (m_grace.contains(name) && !m_graceFinal.contains(name))
        return true;
    auto it = m_records.find(name);
    if (it == m_records.end() || !it->second.present || it->second.info.holders.isEmpty())
        return false;
    // Held until now: the hold ended as any vanished lock's does (released, expired or force released).
    ingest(name, std::nullopt, initial);
    it = m_records.find(name);
    if (it == m_records.end() || it->second.present)
        return true; // waiting briefly for the release's wake-up message: the key is read again
    // A live head takes the lock moments after a release: only a queue still without a lock a while later is
    // orphaned, so a hand-over does not warn.
    constexpr int kOrphanGraceMs = 1000;
    m_grace.insert(name, monotonicMs() + kOrphanGraceMs);
    if (!m_graceTimer.isActive())
        m_graceTimer.start(kOrphanGraceMs);
    return true;
}

} // namespace LockScope
