#include "profiles/profileimport.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// Another Redis Desktop Manager: its export, connections.ano, is the base64 of compact JSON. Since 1.7.2 that JSON is
// {"connections": [...], "groups": [{"id", "name"}]}; before, the bare array of connections. A connection carries
// host, port (a number, or a string when typed in its form), auth, username, name, cluster, connectionReadOnly,
// groupId, and when used the objects sshOptions (host, port, username, password, privatekey: a file path,
// passphrase), sslOptions (key, cert, ca: paths; servername; its presence means TLS) and sentinelOptions (masterName,
// nodePassword: the master's password, auth then being the sentinels').

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

int number(const QJsonValue &v, int fallback)
{
    if (v.isDouble())
        return v.toInt();
    bool ok = false;
    const int n = v.toString().trimmed().toInt(&ok);
    return ok ? n : fallback;
}

void readConnection(const QJsonObject &c, const QHash<QString, QString> &groups, ProfileImport *import)
{
    ImportedProfile p;
    ConnectionProfile &profile = p.profile;
    const QString group = groups.value(c.value(QStringLiteral("groupId")).toString());
    const QString name = c.value(QStringLiteral("name")).toString();
    const QString host = c.value(QStringLiteral("host")).toString();
    const int port = number(c.value(QStringLiteral("port")), 6379);
    profile.name = group.isEmpty() ? name : group + QLatin1Char('/') + name;
    if (profile.name.isEmpty())
        profile.name = QStringLiteral("%1:%2").arg(host.isEmpty() ? QStringLiteral("127.0.0.1") : host).arg(port);
    const QJsonObject ssl = c.value(QStringLiteral("sslOptions")).toObject();
    const bool tls = c.contains(QStringLiteral("sslOptions"));
    profile.url = ImportDetail::url(host, port, tls, c.value(QStringLiteral("username")).toString());
    p.password = c.value(QStringLiteral("auth")).toString().toUtf8();
    if (tls) {
        profile.tlsKeyFile = ssl.value(QStringLiteral("key")).toString();
        profile.tlsCertFile = ssl.value(QStringLiteral("cert")).toString();
        profile.tlsCaFile = ssl.value(QStringLiteral("ca")).toString();
        profile.tlsServerName = ssl.value(QStringLiteral("servername")).toString();
    }
    profile.readOnly = c.value(QStringLiteral("connectionReadOnly")).toBool();
    if (c.value(QStringLiteral("cluster")).toBool())
        profile.topology = QStringLiteral("cluster");
    const QJsonObject sentinel = c.value(QStringLiteral("sentinelOptions")).toObject();
    if (!sentinel.value(QStringLiteral("masterName")).toString().isEmpty()) {
        // The address is the sentinel's; the master's password is nodePassword, auth the sentinels' own.
        profile.topology = QStringLiteral("sentinel");
        profile.sentinels = QStringLiteral("%1:%2").arg(host.isEmpty() ? QStringLiteral("127.0.0.1") : host).arg(port);
        profile.sentinelMaster = sentinel.value(QStringLiteral("masterName")).toString();
        if (!p.password.isEmpty())
            p.notes << tr("the sentinels' own password is not kept: LockScope asks sentinels without one");
        p.password = sentinel.value(QStringLiteral("nodePassword")).toString().toUtf8();
    }
    const QJsonObject ssh = c.value(QStringLiteral("sshOptions")).toObject();
    if (!ssh.value(QStringLiteral("host")).toString().isEmpty()) {
        SshOptions target;
        target.host = ssh.value(QStringLiteral("host")).toString().trimmed();
        target.user = ssh.value(QStringLiteral("username")).toString();
        target.port = quint16(qBound(1, number(ssh.value(QStringLiteral("port")), 22), 65535));
        profile.ssh = target.display();
        profile.sshKeyFile = ssh.value(QStringLiteral("privatekey")).toString();
        p.sshPassword = ssh.value(QStringLiteral("password")).toString().toUtf8();
        if (!ssh.value(QStringLiteral("passphrase")).toString().isEmpty())
            p.notes << tr("the SSH key's passphrase is not kept: load the key into the SSH agent");
    }
    import->profiles << p;
}
} // namespace

ProfileImport importAnotherRdm(const QByteArray &data)
{
    ProfileImport import;
    import.format = QStringLiteral("Another Redis Desktop Manager");
    const QByteArray trimmed = data.trimmed();
    // The export is base64; the JSON it holds is taken as it is too.
    const QByteArray json = trimmed.startsWith('{') || trimmed.startsWith('[')
        ? trimmed
        : QByteArray::fromBase64(trimmed, QByteArray::AbortOnBase64DecodingErrors);
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || (!doc.isArray() && !doc.isObject())) {
        import.error = tr("not an Another Redis Desktop Manager export (base64 of JSON)");
        return import;
    }
    QHash<QString, QString> groups;
    QJsonArray connections = doc.array();
    if (doc.isObject()) {
        for (const QJsonValue &g : doc.object().value(QStringLiteral("groups")).toArray())
            groups.insert(g.toObject().value(QStringLiteral("id")).toString(),
                g.toObject().value(QStringLiteral("name")).toString());
        connections = doc.object().value(QStringLiteral("connections")).toArray();
    }
    for (const QJsonValue &c : connections) {
        if (!c.isObject()) {
            import.skipped << tr("an entry that is not a connection");
            continue;
        }
        readConnection(c.toObject(), groups, &import);
    }
    ImportDetail::finish(&import);
    return import;
}

} // namespace LockScope
