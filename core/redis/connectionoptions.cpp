#include "redis/connectionoptions.h"

#include <QCoreApplication>
#include <QUrl>

namespace LockScope {

namespace {
// The context lupdate gives the tr() calls below (it takes this for the usual tr()): keep them equal, or the
// translations never match.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::ConnectionOptions", text);
}
} // namespace

ConnectionOptions ConnectionOptions::fromUrl(const QString &text, RedisError *error)
{
    ConnectionOptions options;
    const auto fail = [&](const QString &message) {
        if (error)
            *error = RedisError(RedisError::Kind::InvalidArgument, message);
        return ConnectionOptions {};
    };
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return fail(tr("not a valid Redis URL (expected redis://[user[:password]@]host[:port][/db])"));
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("redis") && scheme != QLatin1String("rediss"))
        return fail(tr("unsupported URL scheme \"%1\" (use redis:// or rediss://)").arg(url.scheme()));
    options.tls = scheme == QLatin1String("rediss");
    options.host = url.host();
    const int port = url.port(6379);
    if (port <= 0 || port > 65535)
        return fail(tr("port out of range"));
    options.port = quint16(port);
    options.user = url.userName(QUrl::FullyDecoded).toUtf8();
    options.password = url.password(QUrl::FullyDecoded).toUtf8();
    QString path = url.path();
    if (path.startsWith(QLatin1Char('/')))
        path.remove(0, 1);
    if (!path.isEmpty()) {
        bool ok = false;
        options.db = path.toInt(&ok);
        if (!ok || options.db < 0)
            return fail(tr("database \"%1\" is not a non-negative number").arg(path));
    }
    if (error)
        *error = {};
    return options;
}

ConnectionOptions ConnectionOptions::forNode(const QString &nodeHost, quint16 nodePort) const
{
    ConnectionOptions o = *this;
    o.host = nodeHost;
    o.port = nodePort;
    o.sentinels.clear();
    o.sentinelMaster.clear();
    o.topology = Topology::Standalone;
    o.replicaConnection = false;
    return o;
}

QList<SentinelAddress> ConnectionOptions::parseSentinels(const QString &text, RedisError *error)
{
    QList<SentinelAddress> list;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        SentinelAddress a;
        const QString item = part.trimmed();
        const int colon = item.lastIndexOf(QLatin1Char(':'));
        a.host = colon > 0 ? item.left(colon) : item;
        if (colon > 0) {
            bool ok = false;
            const int port = item.mid(colon + 1).toInt(&ok);
            if (!ok || port <= 0 || port > 65535) {
                if (error)
                    *error = RedisError(RedisError::Kind::InvalidArgument,
                        tr("\"%1\" is not HOST:PORT (a Sentinel address)").arg(item));
                return {};
            }
            a.port = quint16(port);
        }
        list << a;
    }
    if (list.isEmpty() && error)
        *error = RedisError(RedisError::Kind::InvalidArgument, tr("no Sentinel address given"));
    return list;
}

QByteArray ConnectionOptions::publishModeName(PublishMode mode)
{
    switch (mode) {
    case PublishMode::Auto:
        return "auto";
    case PublishMode::Plain:
        return "plain";
    case PublishMode::Sharded:
        return "sharded";
    case PublishMode::Both:
        return "both";
    }
    return "auto";
}

bool ConnectionOptions::parsePublishMode(const QString &text, PublishMode *mode)
{
    for (PublishMode m : { PublishMode::Auto, PublishMode::Plain, PublishMode::Sharded, PublishMode::Both })
        if (text == QLatin1String(publishModeName(m))) {
            *mode = m;
            return true;
        }
    return false;
}

QString ConnectionOptions::toDisplayUrl() const
{
    QUrl url;
    url.setScheme(tls ? QStringLiteral("rediss") : QStringLiteral("redis"));
    url.setHost(host);
    url.setPort(port);
    if (!user.isEmpty())
        url.setUserName(QString::fromUtf8(user));
    url.setPath(QStringLiteral("/") + QString::number(db));
    // Saved profiles keep this URL and parse it again, strictly: the pretty form would show a space in a user name
    // as it is, and "redis:// d@h" does not parse.
    return url.toString(QUrl::EncodeSpaces);
}

QString ConnectionOptions::routeDescription() const
{
    QString route = ssh.isSet() ? tr("through SSH %1").arg(ssh.display()) : tr("direct");
    if (tls)
        route += tr(", TLS");
    return route;
}

QString ConnectionOptions::toDisplayTarget() const
{
    return ssh.isSet() ? tr("%1 through SSH %2").arg(toDisplayUrl(), ssh.display()) : toDisplayUrl();
}

QString ConnectionOptions::auditTarget() const
{
    return ssh.isSet() ? QStringLiteral("%1 through SSH %2").arg(toDisplayUrl(), ssh.display()) : toDisplayUrl();
}

} // namespace LockScope
