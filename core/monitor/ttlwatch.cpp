#include "monitor/ttlwatch.h"

#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "monitor/lockrecordstore.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisrouter.h"
#include "redis/replyjoin.h"

#include <QPointer>

#include <climits>

#include <memory>

namespace LockScope {

namespace {
// A NUMSUB count as a number of waiters: never below 0, and two of them (plain and sharded) add up within an int.
// A negative or huge count, read as it came, made a negative number of waiters (found by fuzz_replies).
int listeners(const RedisValue &count)
{
    return int(qBound(qint64(0), count.toInteger(), qint64(INT_MAX / 2)));
}
} // namespace

TtlWatch::TtlWatch(Sources sources, QObject *parent)
    : QObject(parent)
    , m_sources(std::move(sources))
{
    connect(&m_pollTimer, &QTimer::timeout, this, &TtlWatch::poll);
    m_deadlineTimer.setSingleShot(true);
    m_deadlineTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &TtlWatch::onDeadlines);
}

void TtlWatch::startPolling(int intervalMs)
{
    if (intervalMs > 0)
        m_pollTimer.start(intervalMs);
}

void TtlWatch::pushDeadline(const QByteArray &name, qint64 deadlineMs)
{
    // Stale entries are skipped when they come up; rebuild when they outnumber the live ones.
    if (m_deadlines.size() > m_sources.records->size() * 2 + 1000) {
        decltype(m_deadlines) fresh;
        m_sources.records->forEach([&fresh](const QByteArray &name, const LockRecord &record) {
            if (record.present && record.deadlineMs >= 0)
                fresh.push({ record.deadlineMs, name });
        });
        m_deadlines.swap(fresh);
    }
    m_deadlines.push({ deadlineMs, name });
    armDeadlineTimer();
}

void TtlWatch::armDeadlineTimer()
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

void TtlWatch::onDeadlines()
{
    const qint64 now = monotonicMs();
    while (!m_deadlines.empty() && m_deadlines.top().first + 5 <= now) {
        const Deadline d = m_deadlines.top();
        m_deadlines.pop();
        const LockRecord *r = m_sources.records->find(d.second);
        if (r && r->present && r->deadlineMs == d.first)
            emit deadlinePassed(d.second);
    }
    armDeadlineTimer();
}

void TtlWatch::poll()
{
    RedisRouter *connection = m_sources.connection;
    if (m_pollInFlight || !m_sources.ready() || !connection->isReady())
        return;
    QList<QByteArray> names;
    if (!m_watched.isEmpty()) {
        for (const QByteArray &name : std::as_const(m_watched))
            if (m_sources.records->isPresent(name))
                names << name;
    } else if (m_sources.records->presentCount() <= m_sources.watchAllLimit) {
        names = m_sources.records->presentNames();
    }
    if (names.isEmpty())
        return;
    m_pollInFlight = true;
    auto readings = std::make_shared<TtlReadings>();
    readings->sentAtMs = monotonicMs();
    QPointer<TtlWatch> self(this);
    const bool shard = PublishModeResolver::listenerKinds(connection->options().publishMode, connection->isCluster())
                           .contains(RedisSubscriptions::Kind::Shard);
    const auto join = ReplyJoin::create([self, readings](const RedisError &) {
        if (!self)
            return;
        self->m_pollInFlight = false;
        emit self->polled(*readings);
    });
    connection->cork();
    for (const QByteArray &name : names) {
        const LockRecord *r = m_sources.records->find(name);
        if (r->info.holders.isEmpty())
            continue; // an orphaned fair queue: no hash to have a TTL; its keys' events or the next pass re-read it
        const QByteArray channel = LockLayouts::forRecord(r->info.kind).recogniser().releaseChannel(name);
        connection->command({ "PTTL", name }, join->track([readings, name](const RedisResult &res) {
            if (res.ok())
                readings->ttls.insert(name, res.value.toInteger());
        }));
        if (channel.isEmpty())
            continue; // no wake-up channel (a string lock): nobody waits on one
        // Waiters of both namespaces add up: a mixed fleet has some on each.
        const auto count = [readings, name](const RedisResult &res) {
            if (res.ok() && res.value.size() == 2)
                readings->waiters[name] += listeners(res.value.at(1));
        };
        connection->command({ "PUBSUB", "NUMSUB", channel }, join->track(count));
        if (shard) {
            const int own = m_sources.ownShardListeners(channel);
            connection->command(
                { "PUBSUB", "SHARDNUMSUB", channel }, join->track([readings, name, own](const RedisResult &res) {
                    if (!res.ok() || res.value.size() != 2)
                        return;
                    const int n = qMax(0, listeners(res.value.at(1)) - own);
                    readings->waiters[name] += n;
                    readings->shardWaiters.insert(name, n);
                }));
        }
    }
    join->seal(this);
    connection->uncork();
}

} // namespace LockScope
