#include "serverstatus.h"

#include "redisconnection.h"

#include <QElapsedTimer>
#include <QPointer>

namespace LockScope {

ServerStatus::ServerStatus(RedisConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    connect(connection, &RedisConnection::ready, this, [this] {
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
    const QString version = m_version.isEmpty() ? tr("Redis") : tr("Redis %1").arg(m_version);
    return m_rttMs < 0 ? version : tr("%1 · RTT %2 ms").arg(version).arg(m_rttMs, 0, 'f', 2);
}

} // namespace LockScope
