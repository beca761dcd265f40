#include "redis/sentinelresolver.h"

#include "redis/redisconnection.h"
#include "redis/redissubscriber.h"

#include <QPointer>

namespace LockScope {

namespace {
// A master's address as Sentinel gives it: a host, and a port that is one. Anything else (an empty host, a port of 0,
// or past 65535, which quint16 would silently cut to another port) is no address: following it would connect
// somewhere nobody named.
bool masterAddress(const QByteArray &host, const QByteArray &port, QString *hostOut, quint16 *portOut)
{
    bool ok = false;
    const uint number = port.toUInt(&ok);
    if (host.isEmpty() || !ok || number == 0 || number > 65535)
        return false;
    *hostOut = QString::fromUtf8(host);
    *portOut = quint16(number);
    return true;
}
} // namespace

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
            QString host;
            quint16 port = 0;
            const bool pair = r.ok() && r.value.isArray() && r.value.size() == 2;
            if (pair && masterAddress(r.value.at(0).bytes(), r.value.at(1).bytes(), &host, &port)) {
                self->m_preferred = index;
                done(host, port, {});
                return;
            }
            failures << QStringLiteral("%1:%2 %3")
                            .arg(where.host)
                            .arg(where.port)
                            .arg(!r.ok()   ? r.error.message()
                                    : pair ? tr("answered no usable address")
                                           : tr("does not know it"));
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
        QString host;
        quint16 port = 0;
        if (parts.size() == 5 && parts.at(0) == m_options.sentinelMaster
            && masterAddress(parts.at(3), parts.at(4), &host, &port))
            emit masterSwitched(host, port);
    });
    m_watcher->subscribe(RedisSubscriptions::Kind::Channel, "+switch-master");
}

} // namespace LockScope
