#include "clientloops.h"

#include "benchcommon.h"
#include "lock/lockclient.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

namespace LockScope::Bench {

ClientLoops::ClientLoops(LockClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{ }

void ClientLoops::pingUntil(qint64 deadlineNs, Done done)
{
    m_deadlineNs = deadlineNs;
    m_done = std::move(done);
    m_count = 0;
    m_startNs = nowNs();
    nextPing();
}

void ClientLoops::nextPing()
{
    m_client->connection()->command({ "PING" }, [this](const RedisResult &reply) {
        if (!reply.ok())
            fatal(QStringLiteral("PING through RedisConnection: %1").arg(reply.error.toString()));
        ++m_count;
        if (nowNs() < m_deadlineNs)
            nextPing();
        else
            finish();
    });
}

void ClientLoops::lockCyclesUntil(const LockCycle &cycle, qint64 deadlineNs, Done done)
{
    m_cycle = cycle;
    // The owner's token part, so our client and the raw loop put the very same field on the wire.
    m_token = cycle.owner.mid(cycle.owner.indexOf(':') + 1);
    m_deadlineNs = deadlineNs;
    m_done = std::move(done);
    m_count = 0;
    m_startNs = nowNs();
    nextCycle();
}

void ClientLoops::nextCycle()
{
    AcquireRequest request;
    request.name = m_cycle.name;
    request.token = m_token;
    request.leaseMs = m_cycle.leaseMs;
    request.waitMs = 0;
    m_client->acquire(request, [this](const AcquireResult &acquired) {
        if (acquired.error.isError() || !acquired.acquired)
            fatal(QStringLiteral("uncontended acquire failed: %1 (ttl %2 ms)")
                      .arg(acquired.error.toString())
                      .arg(acquired.ttlMs));
        m_client->release(
            m_cycle.name, acquired.owner,
            [this](const ReleaseResult &released) {
                if (released.error.isError() || released.outcome != ReleaseResult::Outcome::Released)
                    fatal(QStringLiteral("uncontended release failed: %1 %2")
                              .arg(released.error.toString(), released.message));
                ++m_count;
                if (nowNs() < m_deadlineNs)
                    nextCycle();
                else
                    finish();
            },
            LockMode::Reentrant);
    });
}

void ClientLoops::finish()
{
    Rate rate;
    rate.count = m_count;
    rate.elapsedNs = nowNs() - m_startNs;
    // Called from inside a reply callback: let the connection finish its bookkeeping before the next phase.
    QMetaObject::invokeMethod(
        this, [done = std::move(m_done), rate] { done(rate); }, Qt::QueuedConnection);
}

} // namespace LockScope::Bench
