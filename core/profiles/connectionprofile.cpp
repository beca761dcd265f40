#include "profiles/connectionprofile.h"

#include "kinds/custom/ownertemplate.h"

#include "kinds/keyglob.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QUrl>

namespace LockScope {

ConnectionOptions ConnectionProfile::options(
    const QByteArray &password, RedisError *error, const QByteArray &sshPassword) const
{
    ConnectionOptions o = ConnectionOptions::fromUrl(url, error);
    if (!password.isEmpty())
        o.password = password;
    o.tlsCaFile = tlsCaFile;
    o.tlsCertFile = tlsCertFile;
    o.tlsKeyFile = tlsKeyFile;
    o.tlsServerName = tlsServerName;
    o.readOnly = readOnly;
    if (topology == QLatin1String("cluster"))
        o.topology = ConnectionOptions::Topology::Cluster;
    if (topology == QLatin1String("sentinel")) {
        RedisError parse;
        o.sentinels = ConnectionOptions::parseSentinels(sentinels, &parse);
        o.sentinelMaster = sentinelMaster.trimmed().toUtf8();
        if (!parse.isError() && o.sentinelMaster.isEmpty())
            parse = RedisError(RedisError::Kind::InvalidArgument,
                QCoreApplication::translate("LockScope::ConnectionProfile", "Sentinel needs the master's name"));
        if (parse.isError() && error && !error->isError())
            *error = parse;
    }
    ConnectionOptions::parsePublishMode(publishMode, &o.publishMode);
    o.replicaReads = replicaReads;
    o.replicaSyncTimeoutMs = qMax(0, replicaSyncTimeoutMs);
    o.checkSyncedReplicas = checkSyncedReplicas;
    if (!ssh.trimmed().isEmpty()) {
        RedisError parse;
        o.ssh = SshOptions::parseTarget(ssh, &parse);
        o.ssh.keyFile = sshKeyFile.trimmed();
        o.ssh.knownHostsFile = sshKnownHostsFile.trimmed();
        o.ssh.password = sshPassword;
        if (parse.isError() && error && !error->isError())
            *error = parse;
    }
    return o;
}

QString ConnectionProfile::defaultStringPatterns()
{
    QStringList globs;
    for (const QByteArray &glob : StringLockPatterns::defaults())
        globs << QString::fromUtf8(glob);
    return globs.join(QLatin1Char(' '));
}

QList<QByteArray> ConnectionProfile::stringPatternList() const
{
    QList<QByteArray> globs;
    static const QRegularExpression whitespace(QStringLiteral("\\s+"));
    for (const QString &glob : stringPatterns.split(whitespace, Qt::SkipEmptyParts))
        globs << glob.toUtf8();
    return globs;
}

ConnectionProfile ConnectionProfile::fromUrl(const QString &url, QByteArray *password, RedisError *error)
{
    ConnectionProfile p;
    const ConnectionOptions o = ConnectionOptions::fromUrl(url.trimmed(), error);
    if (error && error->isError())
        return p;
    if (password)
        *password = o.password;
    p.url = o.toDisplayUrl(); // the URL with the password removed
    p.name = QStringLiteral("%1:%2").arg(o.host).arg(o.port);
    return p;
}

QString ConnectionProfile::colourName(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"));
    const QString t = text.trimmed();
    if (!hex.match(t).hasMatch())
        return {};
    if (t.size() == 4) // #RGB is #RRGGBB with each digit doubled
        return QStringLiteral("#%1%1%2%2%3%3").arg(t.at(1), t.at(2), t.at(3)).toLower();
    return t.toLower();
}

QList<ConnectionProfile> ConnectionProfile::load()
{
    QSettings settings;
    return load(settings);
}

QList<ConnectionProfile> ConnectionProfile::loadConsoleProfiles()
{
    // The console (app/main.cpp) names itself lockscope/lockscope; ~/.config/lockscope/lockscope.conf on Linux.
    QSettings settings(QStringLiteral("lockscope"), QStringLiteral("lockscope"));
    return load(settings);
}

QList<ConnectionProfile> ConnectionProfile::load(QSettings &settings)
{
    QList<ConnectionProfile> profiles;
    const int n = settings.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        ConnectionProfile p;
        p.name = settings.value(QStringLiteral("name")).toString();
        p.url = settings.value(QStringLiteral("url")).toString();
        p.tlsCaFile = settings.value(QStringLiteral("tlsCa")).toString();
        p.tlsCertFile = settings.value(QStringLiteral("tlsCert")).toString();
        p.tlsKeyFile = settings.value(QStringLiteral("tlsKey")).toString();
        p.tlsServerName = settings.value(QStringLiteral("tlsServerName")).toString();
        p.readOnly = settings.value(QStringLiteral("readOnly")).toBool();
        p.pattern = settings.value(QStringLiteral("pattern"), QStringLiteral("*")).toString();
        p.colour = colourName(settings.value(QStringLiteral("colour")).toString());
        p.topology = settings.value(QStringLiteral("topology"), QStringLiteral("auto")).toString();
        p.sentinels = settings.value(QStringLiteral("sentinels")).toString();
        p.sentinelMaster = settings.value(QStringLiteral("sentinelMaster")).toString();
        p.publishMode = settings.value(QStringLiteral("publishMode"), QStringLiteral("auto")).toString();
        p.replicaReads = settings.value(QStringLiteral("replicaReads")).toBool();
        p.replicaSyncTimeoutMs = settings.value(QStringLiteral("replicaSyncTimeoutMs"), 1000).toInt();
        p.checkSyncedReplicas = settings.value(QStringLiteral("checkSyncedReplicas"), true).toBool();
        // Profiles saved before string locks existed look where a new one does; one saved empty looks nowhere.
        p.stringPatterns = settings.value(QStringLiteral("stringPatterns"), defaultStringPatterns()).toString();
        p.ownerTemplates = settings.value(QStringLiteral("ownerTemplates")).toStringList();
        p.notify = settings.value(QStringLiteral("notify")).toStringList();
        p.production = settings.value(QStringLiteral("production"), false).toBool();
        p.ssh = settings.value(QStringLiteral("ssh")).toString();
        p.sshKeyFile = settings.value(QStringLiteral("sshKey")).toString();
        p.sshKnownHostsFile = settings.value(QStringLiteral("sshKnownHosts")).toString();
        profiles << p;
    }
    settings.endArray();
    return profiles;
}

StringLockPatterns ConnectionProfile::stringLockPatterns() const
{
    StringLockPatterns patterns = StringLockPatterns::fromEntries(stringPatternList());
    for (const QString &entry : ownerTemplates) {
        QString error;
        if (const std::optional<OwnerTemplate> t = OwnerTemplate::parse(entry.toUtf8(), &error))
            patterns.addTemplate(*t);
    }
    return patterns;
}

void ConnectionProfile::save(const QList<ConnectionProfile> &profiles)
{
    QSettings settings;
    save(profiles, settings);
}

void ConnectionProfile::save(const QList<ConnectionProfile> &profiles, QSettings &settings)
{
    settings.remove(QStringLiteral("profiles"));
    settings.beginWriteArray(QStringLiteral("profiles"), int(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        const ConnectionProfile &p = profiles.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), p.name);
        // Defence in depth: whatever the caller put in the URL, no password reaches the settings file.
        settings.setValue(QStringLiteral("url"), ConnectionOptions::fromUrl(p.url).toDisplayUrl());
        settings.setValue(QStringLiteral("tlsCa"), p.tlsCaFile);
        settings.setValue(QStringLiteral("tlsCert"), p.tlsCertFile);
        settings.setValue(QStringLiteral("tlsKey"), p.tlsKeyFile);
        settings.setValue(QStringLiteral("tlsServerName"), p.tlsServerName);
        settings.setValue(QStringLiteral("readOnly"), p.readOnly);
        settings.setValue(QStringLiteral("pattern"), p.pattern);
        settings.setValue(QStringLiteral("colour"), colourName(p.colour));
        settings.setValue(QStringLiteral("topology"), p.topology);
        settings.setValue(QStringLiteral("sentinels"), p.sentinels);
        settings.setValue(QStringLiteral("sentinelMaster"), p.sentinelMaster);
        settings.setValue(QStringLiteral("publishMode"), p.publishMode);
        settings.setValue(QStringLiteral("replicaReads"), p.replicaReads);
        settings.setValue(QStringLiteral("replicaSyncTimeoutMs"), p.replicaSyncTimeoutMs);
        settings.setValue(QStringLiteral("checkSyncedReplicas"), p.checkSyncedReplicas);
        settings.setValue(QStringLiteral("stringPatterns"), p.stringPatterns.simplified());
        settings.setValue(QStringLiteral("ownerTemplates"), p.ownerTemplates);
        settings.setValue(QStringLiteral("notify"), p.notify);
        settings.setValue(QStringLiteral("production"), p.production);
        settings.setValue(QStringLiteral("ssh"), p.ssh.trimmed());
        settings.setValue(QStringLiteral("sshKey"), p.sshKeyFile);
        settings.setValue(QStringLiteral("sshKnownHosts"), p.sshKnownHostsFile);
    }
    settings.endArray();
}

QStringList ConnectionProfile::recent()
{
    return QSettings().value(QStringLiteral("recentConnections")).toStringList();
}

void ConnectionProfile::addRecent(const QString &displayUrl)
{
    QStringList list = recent();
    list.removeAll(displayUrl);
    list.prepend(displayUrl);
    while (list.size() > 8)
        list.removeLast();
    QSettings().setValue(QStringLiteral("recentConnections"), list);
}

} // namespace LockScope
