#include "profiles/profileimport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// RESP.app (Redis Desktop Manager): connections.json, a JSON array written by QJsonDocument. Each element is a
// connection (its settings' keys as qredisclient's ConnectionConfig names them) or a group {"type": "group", "name",
// "connections": [...]}. There is no TLS or SSH switch: "ssl" says TLS, and a tunnel is used when ssh_host, ssh_port
// and ssh_user are set. Cluster and Sentinel are not stored (the app finds a cluster when it connects, as LockScope
// does).

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

void readConnection(const QJsonObject &c, const QString &group, ProfileImport *import)
{
    const QString name = c.value(QStringLiteral("name")).toString();
    const QString host = c.value(QStringLiteral("host")).toString();
    const int port = c.value(QStringLiteral("port")).toInt();
    if (host.isEmpty() || port <= 0) {
        // RESP.app itself skips these (ConnectionConfig::isNull).
        import->skipped << tr("%1: no host or port").arg(name.isEmpty() ? tr("(unnamed)") : name);
        return;
    }
    ImportedProfile p;
    ConnectionProfile &profile = p.profile;
    profile.name = group.isEmpty() ? name : group + QLatin1Char('/') + name;
    const bool tls = c.value(QStringLiteral("ssl")).toBool();
    profile.url = ImportDetail::url(host, port, tls, c.value(QStringLiteral("username")).toString());
    p.password = c.value(QStringLiteral("auth")).toString().toUtf8();
    if (tls) {
        profile.tlsCaFile = c.value(QStringLiteral("ssl_ca_cert_path")).toString();
        profile.tlsCertFile = c.value(QStringLiteral("ssl_local_cert_path")).toString();
        profile.tlsKeyFile = c.value(QStringLiteral("ssl_private_key_path")).toString();
        if (c.value(QStringLiteral("ssl_ignore_all_errors")).toBool())
            p.notes << tr("TLS certificate errors were ignored there; LockScope checks the certificate");
    }
    const QString sshHost = c.value(QStringLiteral("ssh_host")).toString();
    const QString sshUser = c.value(QStringLiteral("ssh_user")).toString();
    if (!sshHost.isEmpty() && !sshUser.isEmpty()) {
        SshOptions ssh;
        ssh.host = sshHost;
        ssh.user = sshUser;
        ssh.port = quint16(qBound(1, c.value(QStringLiteral("ssh_port")).toInt(22), 65535));
        profile.ssh = ssh.display();
        profile.sshKeyFile = c.value(QStringLiteral("ssh_private_key_path")).toString();
        p.sshPassword = c.value(QStringLiteral("ssh_password")).toString().toUtf8();
        if (c.value(QStringLiteral("ask_ssh_password")).toBool())
            p.notes << tr("the SSH password was asked for each time there: enter it in the connection dialog");
    }
    const QString pattern = c.value(QStringLiteral("keys_pattern")).toString();
    if (!pattern.isEmpty())
        profile.pattern = pattern;
    import->profiles << p;
}
} // namespace

ProfileImport importRespApp(const QByteArray &json)
{
    ProfileImport import;
    import.format = QStringLiteral("RESP.app");
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isArray()) {
        import.error = tr("not RESP.app's connections.json (a JSON array): %1").arg(parse.errorString());
        return import;
    }
    for (const QJsonValue &item : doc.array()) {
        const QJsonObject o = item.toObject();
        if (o.value(QStringLiteral("type")).toString().toLower() == QLatin1String("group")) {
            const QString group = o.value(QStringLiteral("name")).toString();
            for (const QJsonValue &inner : o.value(QStringLiteral("connections")).toArray())
                readConnection(inner.toObject(), group, &import);
        } else {
            readConnection(o, {}, &import);
        }
    }
    ImportDetail::finish(&import);
    return import;
}

} // namespace LockScope
