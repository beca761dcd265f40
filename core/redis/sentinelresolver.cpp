#include "redis/sentinelresolver.h"

#include "redis/redisconnection.h"
#include "redis/redissubscriber.h"

#include <QPointer>

namespace LockScope {

SentinelResolver::SentinelResolver(ConnectionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{ }

ConnectionOptions SentinelResolver::sentinelOptions(int index) const
{
    const SentinelAddress &a = m_options.sentinels.at(index % m_options.sentinels.size());
    ConnectionOptions o = m_options.forNode(a.host, a.port);
    // Sentinels have credentials of their own (often none), no databases, and are only asked, never written to.
    o.user = m_options.sentinelUser;
    o.password = m_options.sentinelPassword;
    o.db = 0;
    o.readOnly = false;
    o.autoReconnect = false;
    o.connectTimeoutMs = qMin(m_options.connectTimeoutMs > 0 ? m_options.connectTimeoutMs : 2000, 2000);
    o.commandTimeoutMs = o.connectTimeoutMs;
    return o;
}

void SentinelResolver::resolve(Resolved done)
{
    ask(0, std::move(done), {});
}

void SentinelResolver::ask(int attempt, Resolved done, QStringList failures)
{
    if (attempt >= m_options.sentinels.size()) {
        done({}, 0,
            RedisError(RedisError::Kind::Io,
                tr("no Sentinel knows a master named \"%1\" (%2)")
                    .arg(QString::fromUtf8(m_options.sentinelMaster), failures.join(QStringLiteral("; ")))));
        return;
    }
    const int index = (m_preferred + attempt) % int(m_options.sentinels.size());
    if (m_asking)
        m_asking->deleteLater();
    m_asking = new RedisConnection(sentinelOptions(index), this);
    QPointer<SentinelResolver> self(this);
    const SentinelAddress where = m_options.sentinels.at(index);
    m_asking->command({ "SENTINEL", "GET-MASTER-ADDR-BY-NAME", m_options.sentinelMaster },
        [self, attempt, index, where, done, failures](const RedisResult &r) mutable {
            if (!self)
                return;
            if (r.ok() && r.value.isArray() && r.value.size() == 2) {
                self->m_preferred = index;
                done(QString::fromUtf8(r.value.at(0).bytes()), quint16(r.value.at(1).bytes().toUInt()), {});
                return;
            }
            failures << QStringLiteral("%1:%2 %3")
                            .arg(where.host)
                            .arg(where.port)
                            .arg(r.ok() ? tr("does not know it") : r.error.message());
            self->ask(attempt + 1, done, failures);
        });
}

void SentinelResolver::watch()
{
    if (m_watcher)
        return;
    ConnectionOptions o = sentinelOptions(m_preferred);
    o.autoReconnect = true;
    m_watcher = new RedisSubscriber(o, this);
    connect(m_watcher, &RedisSubscriber::message, this, [this](const QByteArray &, const QByteArray &payload) {
        // "<name> <old-ip> <old-port> <new-ip> <new-port>"
        const QList<QByteArray> parts = payload.split(' ');
        if (parts.size() == 5 && parts.at(0) == m_options.sentinelMaster)
            emit masterSwitched(QString::fromUtf8(parts.at(3)), quint16(parts.at(4).toUInt()));
    });
    m_watcher->subscribe(RedisSubscriptions::Kind::Channel, "+switch-master");
}

} // namespace LockScope
