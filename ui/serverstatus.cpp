#include "serverstatus.h"

#include "redis/redisrouter.h"

#include <QElapsedTimer>
#include <QPointer>

namespace LockScope {

ServerStatus::ServerStatus(RedisRouter *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    connect(connection, &RedisRouter::topologyChanged, this, [this] { emit changed(text()); });
    connect(connection, &RedisRouter::modeDecided, this, [this] { emit changed(text()); });
    connect(connection, &RedisCommander::ready, this, [this] {
        QPointer<ServerStatus> self(this);
        m_connection->command({ "INFO", "server" }, [self](const RedisResult &r) {
            if (!self || !r.ok())
                return;
            for (const QByteArray &line : r.value.bytes().split('\n'))
                if (line.startsWith("redis_version:"))
                    self->m_version = QString::fromLatin1(line.mid(14).trimmed());
            emit self->changed(self->text());
        });
        ping();
    });
    connect(&m_timer, &QTimer::timeout, this, &ServerStatus::ping);
    m_timer.start(3000);
}

void ServerStatus::ping()
{
    if (m_inFlight || !m_connection->isReady())
        return;
    if (m_connection->isCluster() && m_connection->options().replicaReads) {
        QPointer<ServerStatus> self(this);
        m_connection->readReplicaLag([self](int seconds, const QString &detail) {
            if (!self)
                return;
            self->m_replicaLag = seconds;
            self->m_replicaDetail = detail;
            emit self->changed(self->text());
        });
    }
    m_inFlight = true;
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QPointer<ServerStatus> self(this);
    m_connection->command({ "PING" }, [self, clock](const RedisResult &r) {
        if (!self)
            return;
        self->m_inFlight = false;
        self->m_rttMs = r.ok() ? clock->nsecsElapsed() / 1e6 : -1;
        emit self->changed(self->text());
    });
}

QString ServerStatus::text() const
{
    QString version = m_version.isEmpty() ? tr("Redis") : tr("Redis %1").arg(m_version);
    if (m_connection->mode() != RedisRouter::Mode::Probing)
        version += QStringLiteral(" · ") + m_connection->describe();
    if (m_replicaLag == -1)
        version += QStringLiteral(" · ") + tr("replica reads: a replica lost its master, data may be stale");
    else if (m_replicaLag >= 0)
        version += QStringLiteral(" · ") + tr("replica reads, up to %n s behind", nullptr, m_replicaLag);
    return m_rttMs < 0 ? version : tr("%1 · RTT %2 ms").arg(version).arg(m_rttMs, 0, 'f', 2);
}

QString ServerStatus::details() const
{
    if (!m_connection->isCluster())
        return m_connection->describe();
    QStringList lines { m_connection->describe() };
    for (const SlotMap::Range &r : m_connection->slotMap().ranges()) {
        QStringList replicas;
        for (const ClusterNode &n : r.replicas)
            replicas << QStringLiteral("%1:%2").arg(n.host).arg(n.port);
        lines << tr("slots %1-%2: master %3:%4, replicas: %5")
                     .arg(r.first)
                     .arg(r.last)
                     .arg(r.master.host)
                     .arg(r.master.port)
                     .arg(replicas.isEmpty() ? tr("none") : replicas.join(QStringLiteral(", ")));
    }
    if (!m_replicaDetail.isEmpty())
        lines << tr("replica reads:") << m_replicaDetail;
    return lines.join(QLatin1Char('\n'));
}

} // namespace LockScope
