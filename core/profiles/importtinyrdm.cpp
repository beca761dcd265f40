#include "profiles/profileimport.h"

#include <QCoreApplication>

#include <yaml-cpp/yaml.h>

// Tiny RDM: connections.yaml (in ~/.config/TinyRDM, and the one entry of the zip its export writes), a YAML sequence
// of connections and of groups ({type: group, name, connections: [...]}, one level deep). Its keys are snake_case:
// addr, port, username, password, default_filter, network (tcp, or unix with sock), mark_color, and the maps ssl
// (enable, keyfile, certfile, cafile, allow_insecure, sni; before 1.1.9 keyFile, certFile, caFile, allowInsecure),
// ssh (enable, addr, port, login_type: pwd, pkfile or agent, username, password, pk_file, passphrase), sentinel
// (enable, master, username, password: the sentinels' own; addr and port are then a sentinel's) and cluster (enable).

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

QString text(const YAML::Node &node, const char *key)
{
    const YAML::Node value = node[key];
    return value && value.IsScalar() ? QString::fromStdString(value.as<std::string>()) : QString();
}

int number(const YAML::Node &node, const char *key, int fallback)
{
    bool ok = false;
    const int n = text(node, key).toInt(&ok);
    return ok ? n : fallback;
}

bool flag(const YAML::Node &node, const char *key)
{
    const QString value = text(node, key).toLower();
    return value == QLatin1String("true") || value == QLatin1String("yes") || value == QLatin1String("on");
}

// Before Tiny RDM 1.1.9 the SSL keys were camelCase.
QString either(const YAML::Node &node, const char *key, const char *oldKey)
{
    const QString value = text(node, key);
    return value.isEmpty() ? text(node, oldKey) : value;
}

void readConnection(const YAML::Node &c, const QString &group, ProfileImport *import)
{
    const QString name = text(c, "name");
    if (text(c, "network") == QLatin1String("unix")) {
        import->skipped << tr("%1: a Unix socket (%2) cannot be reached from here").arg(name, text(c, "sock"));
        return;
    }
    ImportedProfile p;
    ConnectionProfile &profile = p.profile;
    profile.name = group.isEmpty() ? name : group + QLatin1Char('/') + name;
    const YAML::Node ssl = c["ssl"];
    const bool tls = ssl && flag(ssl, "enable");
    const QString host = text(c, "addr");
    const int port = number(c, "port", 6379);
    profile.url = ImportDetail::url(host, port, tls, text(c, "username"));
    p.password = text(c, "password").toUtf8();
    if (tls) {
        profile.tlsKeyFile = either(ssl, "keyfile", "keyFile");
        profile.tlsCertFile = either(ssl, "certfile", "certFile");
        profile.tlsCaFile = either(ssl, "cafile", "caFile");
        profile.tlsServerName = text(ssl, "sni");
        if (flag(ssl, "allow_insecure") || flag(ssl, "allowInsecure"))
            p.notes << tr("TLS certificate errors were allowed there; LockScope checks the certificate");
    }
    if (!text(c, "default_filter").isEmpty())
        profile.pattern = text(c, "default_filter");
    const QString colour = text(c, "mark_color");
    if (!colour.isEmpty())
        profile.colour = ConnectionProfile::colourName(colour);
    if (const YAML::Node cluster = c["cluster"]; cluster && flag(cluster, "enable"))
        profile.topology = QStringLiteral("cluster");
    if (const YAML::Node sentinel = c["sentinel"]; sentinel && flag(sentinel, "enable")) {
        profile.topology = QStringLiteral("sentinel");
        profile.sentinels = QStringLiteral("%1:%2").arg(host.isEmpty() ? QStringLiteral("127.0.0.1") : host).arg(port);
        profile.sentinelMaster = text(sentinel, "master");
        if (!text(sentinel, "password").isEmpty())
            p.notes << tr("the sentinels' own password is not kept: LockScope asks sentinels without one");
    }
    if (const YAML::Node ssh = c["ssh"]; ssh && flag(ssh, "enable")) {
        SshOptions target;
        target.host = text(ssh, "addr").trimmed();
        target.user = text(ssh, "username");
        target.port = quint16(qBound(1, number(ssh, "port", 22), 65535));
        profile.ssh = target.display();
        const QString login = text(ssh, "login_type");
        if (login == QLatin1String("pkfile"))
            profile.sshKeyFile = text(ssh, "pk_file");
        else if (login == QLatin1String("pwd"))
            p.sshPassword = text(ssh, "password").toUtf8();
        if (!text(ssh, "passphrase").isEmpty())
            p.notes << tr("the SSH key's passphrase is not kept: load the key into the SSH agent");
    }
    import->profiles << p;
}
} // namespace

ProfileImport importTinyRdm(const QByteArray &yaml)
{
    ProfileImport import;
    import.format = QStringLiteral("Tiny RDM");
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
        if (!root.IsSequence()) {
            import.error = tr("not Tiny RDM's connections.yaml (a YAML list of connections)");
            return import;
        }
        for (const YAML::Node &item : root) {
            if (!item.IsMap()) {
                import.skipped << tr("an entry that is not a connection");
                continue;
            }
            if (text(item, "type") == QLatin1String("group")) {
                const QString group = text(item, "name");
                if (const YAML::Node inner = item["connections"]; inner && inner.IsSequence()) {
                    for (const YAML::Node &c : inner)
                        if (c.IsMap())
                            readConnection(c, group, &import);
                }
                continue;
            }
            readConnection(item, {}, &import);
        }
    } catch (const YAML::Exception &e) {
        import.profiles.clear();
        import.error = tr("not readable YAML: %1").arg(QString::fromStdString(e.what()));
        return import;
    }
    ImportDetail::finish(&import);
    return import;
}

} // namespace LockScope
