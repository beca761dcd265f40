#include "redissentinel.h"

#include "rawredis.h"

#include <QDeadlineTimer>
#include <QThread>

namespace LockScope::Test {

namespace {
bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (done())
            return true;
        QThread::msleep(50); // a fixture's own start-up, before any test runs: nothing else to drive
    }
    return done();
}
} // namespace

RedisSentinelSet::RedisSentinelSet()
{
    m_master = std::make_unique<RedisServer>();
}

RedisSentinelSet::~RedisSentinelSet() = default;

bool RedisSentinelSet::start(QString *error)
{
    if (!m_master->start(error))
        return false;
    RedisServerOptions replicaOptions;
    replicaOptions.extraArgs = QStringList { QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
        QString::number(m_master->port()), QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0") };
    m_replica = std::make_unique<RedisServer>(replicaOptions);
    if (!m_replica->start(error))
        return false;
    RawRedis replica(m_replica->port());
    if (!waitUntil(
            [&] {
                return replica.command({ "INFO", "replication" }).bytes().contains("master_link_status:up");
            },
            10000)) {
        *error = QStringLiteral("the replica did not sync with the master");
        return false;
    }
    const QByteArray config = "sentinel monitor " + masterName() + " 127.0.0.1 " + QByteArray::number(m_master->port())
        + " 2\nsentinel down-after-milliseconds " + masterName() + " 1000\nsentinel failover-timeout " + masterName()
        + " 5000\n";
    for (int i = 0; i < 3; ++i) {
        RedisServerOptions options;
        options.configText = config;
        options.extraArgs = QStringList { QStringLiteral("--sentinel") };
        m_sentinels.push_back(std::make_unique<RedisServer>(options));
        if (!m_sentinels.back()->start(error))
            return false;
    }
    // A failover needs the sentinels to know the replica and each other (hello messages every 2 s).
    for (auto &s : m_sentinels) {
        RawRedis raw(s->port());
        const bool ready = waitUntil(
            [&] {
                return raw.command({ "SENTINEL", "REPLICAS", masterName() }).size() == 1
                    && raw.command({ "SENTINEL", "SENTINELS", masterName() }).size() == 2;
            },
            15000);
        if (!ready) {
            *error = QStringLiteral("the sentinels did not find the replica and each other");
            return false;
        }
    }
    return true;
}

QString RedisSentinelSet::sentinelList() const
{
    QStringList list;
    for (const auto &s : m_sentinels)
        list << QStringLiteral("127.0.0.1:%1").arg(s->port());
    return list.join(QLatin1Char(','));
}

quint16 RedisSentinelSet::currentMasterPort()
{
    for (const auto &s : m_sentinels) {
        if (!s->isRunning())
            continue;
        RawRedis raw(s->port());
        const RedisValue v = raw.command({ "SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName() });
        if (v.size() == 2)
            return quint16(v.at(1).bytes().toUInt());
    }
    return 0;
}

} // namespace LockScope::Test
