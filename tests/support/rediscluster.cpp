#include "rediscluster.h"

#include "rawredis.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QThread>

namespace LockScope::Test {

RedisCluster::RedisCluster(int masters, int replicasPerMaster)
    : m_masters(masters)
    , m_replicas(replicasPerMaster)
{
    RedisServerOptions options;
    options.cluster = true;
    for (int i = 0; i < masters * (1 + replicasPerMaster); ++i)
        m_nodes.push_back(std::make_unique<RedisServer>(options));
}

RedisCluster::~RedisCluster() = default;

QList<quint16> RedisCluster::ports() const
{
    QList<quint16> ports;
    for (const auto &node : m_nodes)
        ports << node->port();
    return ports;
}

QString RedisCluster::url() const
{
    return m_nodes.empty() ? QString() : m_nodes.front()->url();
}

bool RedisCluster::start(QString *error)
{
    for (auto &node : m_nodes)
        if (!node->start(error))
            return false;
    QStringList args { QStringLiteral("--cluster"), QStringLiteral("create") };
    for (quint16 port : ports())
        args << QStringLiteral("127.0.0.1:%1").arg(port);
    args << QStringLiteral("--cluster-replicas") << QString::number(m_replicas) << QStringLiteral("--cluster-yes");
    QProcess cli;
    cli.start(QStringLiteral("redis-cli"), args);
    if (!cli.waitForFinished(30000) || cli.exitCode() != 0) {
        if (error)
            *error = QStringLiteral("redis-cli --cluster create failed: %1%2")
                         .arg(QString::fromLocal8Bit(cli.readAllStandardOutput()),
                             QString::fromLocal8Bit(cli.readAllStandardError()));
        return false;
    }
    // Every node must agree that all slots are served, and every replica must be attached, before tests start.
    const QDeadlineTimer deadline(30000);
    for (const quint16 port : ports()) {
        RawRedis raw(port);
        while (true) {
            const QByteArray info = raw.command({ "CLUSTER", "INFO" }).bytes();
            if (info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384"))
                break;
            if (deadline.hasExpired()) {
                if (error)
                    *error = QStringLiteral("cluster not ready on %1: %2").arg(port).arg(QString::fromLatin1(info));
                return false;
            }
            QThread::msleep(50); // a fixture's readiness poll against a deadline, not a test's synchronisation
        }
    }
    // Every replica attached to its master (INFO replication on the masters), before tests start.
    while (true) {
        int attached = 0;
        for (const quint16 port : ports()) {
            const QByteArray info = RawRedis(port).command({ "INFO", "replication" }).bytes();
            const int at = info.indexOf("connected_slaves:");
            if (info.contains("role:master") && at >= 0)
                attached += info.mid(at + 17, info.indexOf('\r', at) - at - 17).toInt();
        }
        // ... and every node's own view of the roles caught up through gossip.
        bool agreed = attached == m_masters * m_replicas;
        for (const quint16 port : ports()) {
            if (!agreed)
                break;
            const QByteArray nodes = RawRedis(port).command({ "CLUSTER", "NODES" }).bytes();
            agreed = nodes.count(" master ") + nodes.count(",master ") == m_masters
                && nodes.count(" slave ") + nodes.count(",slave ") == m_masters * m_replicas;
        }
        if (agreed)
            return true;
        if (deadline.hasExpired()) {
            if (error)
                *error = QStringLiteral("cluster replicas not attached after 30 s (%1)").arg(attached);
            return false;
        }
        QThread::msleep(50);
    }
}

} // namespace LockScope::Test
