#include "clients/tracestore.h"

#include "redis/bytesformat.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace LockScope::TraceStore {

namespace {

constexpr int formatVersion = 1;
constexpr qint64 maxFileBytes = 256LL * 1024 * 1024; // far beyond 100000 sightings: anything larger is no trace

using Identity = TraceFindings::Sighting::Identity;

QJsonValue text(const QByteArray &bytes)
{
    return escapeBytes(bytes);
}

QByteArray bytes(const QJsonObject &o, const char *key)
{
    return unescapeBytes(o.value(QLatin1String(key)).toString());
}

qint64 integer(const QJsonObject &o, const char *key, qint64 fallback = -1)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toInteger(fallback) : fallback;
}

QJsonArray textList(const QList<QByteArray> &list)
{
    QJsonArray a;
    for (const QByteArray &b : list)
        a << text(b);
    return a;
}

QList<QByteArray> bytesList(const QJsonValue &v)
{
    QList<QByteArray> out;
    for (const QJsonValue &item : v.toArray())
        out << unescapeBytes(item.toString());
    return out;
}

const char *kindName(Identity kind)
{
    switch (kind) {
    case Identity::Owner:
        return "owner";
    case Identity::Client:
        return "client";
    case Identity::Token:
        return "token";
    }
    return "token";
}

std::optional<Identity> kindOf(const QString &name)
{
    if (name == QLatin1String("owner"))
        return Identity::Owner;
    if (name == QLatin1String("client"))
        return Identity::Client;
    if (name == QLatin1String("token"))
        return Identity::Token;
    return std::nullopt;
}

QJsonObject clientJson(const ClientEntry &c)
{
    return QJsonObject { { QStringLiteral("id"), c.id }, { QStringLiteral("addr"), text(c.addr) },
        { QStringLiteral("laddr"), text(c.laddr) }, { QStringLiteral("name"), text(c.name) },
        { QStringLiteral("lib_name"), text(c.libName) }, { QStringLiteral("lib_ver"), text(c.libVer) },
        { QStringLiteral("user"), text(c.user) }, { QStringLiteral("age_s"), c.ageS },
        { QStringLiteral("idle_s"), c.idleS }, { QStringLiteral("db"), c.db },
        { QStringLiteral("flags"), text(c.flags) }, { QStringLiteral("cmd"), text(c.cmd) },
        { QStringLiteral("sub"), c.sub }, { QStringLiteral("psub"), c.psub }, { QStringLiteral("ssub"), c.ssub },
        { QStringLiteral("node"), text(c.node) } };
}

ClientEntry clientFrom(const QJsonObject &o)
{
    ClientEntry c;
    c.id = integer(o, "id");
    c.addr = bytes(o, "addr");
    c.laddr = bytes(o, "laddr");
    c.name = bytes(o, "name");
    c.libName = bytes(o, "lib_name");
    c.libVer = bytes(o, "lib_ver");
    c.user = bytes(o, "user");
    c.ageS = integer(o, "age_s");
    c.idleS = integer(o, "idle_s");
    c.db = int(integer(o, "db"));
    c.flags = bytes(o, "flags");
    c.cmd = bytes(o, "cmd");
    c.sub = int(integer(o, "sub"));
    c.psub = int(integer(o, "psub"));
    c.ssub = int(integer(o, "ssub"));
    c.node = bytes(o, "node");
    return c;
}

} // namespace

QString path(const ConnectionOptions &options)
{
    const QByteArray hash
        = QCryptographicHash::hash(options.auditTarget().toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/lockscope/traces/")
        + QString::fromLatin1(hash) + QStringLiteral(".json");
}

QByteArray toJson(const TraceFindings &f, const QString &target)
{
    QJsonArray sightings;
    for (const TraceFindings::Sighting &s : f.sightings) {
        sightings << QJsonObject { { QStringLiteral("kind"), QLatin1String(kindName(s.kind)) },
            { QStringLiteral("identity"), text(s.identity) }, { QStringLiteral("addr"), text(s.addr) },
            { QStringLiteral("node"), text(s.node) }, { QStringLiteral("keys"), textList(s.keys) },
            { QStringLiteral("commands"), s.commands }, { QStringLiteral("first_ms"), s.firstMs },
            { QStringLiteral("last_ms"), s.lastMs }, { QStringLiteral("last_release_ms"), s.lastReleaseMs } };
    }
    QJsonArray retriers;
    for (const TraceFindings::Retrier &r : f.retriers) {
        retriers << QJsonObject { { QStringLiteral("addr"), text(r.addr) }, { QStringLiteral("node"), text(r.node) },
            { QStringLiteral("key"), text(r.key) }, { QStringLiteral("identity"), text(r.identity) },
            { QStringLiteral("attempts"), r.attempts }, { QStringLiteral("first_ms"), r.firstMs },
            { QStringLiteral("last_ms"), r.lastMs } };
    }
    QJsonArray clients;
    for (const ClientEntry &c : f.clients)
        clients << clientJson(c);
    const QJsonObject cost { { QStringLiteral("lines"), f.cost.lines }, { QStringLiteral("bytes"), f.cost.bytes },
        { QStringLiteral("server_cpu_ms"), f.cost.serverCpuMs }, { QStringLiteral("wall_ms"), f.cost.wallMs } };
    const QJsonObject root { { QStringLiteral("lockscope_trace"), formatVersion }, { QStringLiteral("target"), target },
        { QStringLiteral("started_ms"), f.startedMs }, { QStringLiteral("ended_ms"), f.endedMs },
        { QStringLiteral("run_id"), text(f.runId) }, { QStringLiteral("nodes"), textList(f.nodes) },
        { QStringLiteral("sightings"), sightings }, { QStringLiteral("retriers"), retriers },
        { QStringLiteral("clients"), clients }, { QStringLiteral("listed_nodes"), textList(f.listedNodes) },
        { QStringLiteral("cost"), cost }, { QStringLiteral("partial"), QJsonArray::fromStringList(f.partial) } };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

std::optional<TraceFindings> fromJson(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject root = doc.object();
    if (integer(root, "lockscope_trace") != formatVersion)
        return std::nullopt;
    TraceFindings f;
    f.startedMs = integer(root, "started_ms", 0);
    f.endedMs = integer(root, "ended_ms", 0);
    f.runId = bytes(root, "run_id");
    f.nodes = bytesList(root.value(QStringLiteral("nodes")));
    for (const QJsonValue &v : root.value(QStringLiteral("sightings")).toArray()) {
        const QJsonObject o = v.toObject();
        const std::optional<Identity> kind = kindOf(o.value(QStringLiteral("kind")).toString());
        if (!kind)
            return std::nullopt; // a kind this version does not know: not a trace it can read
        TraceFindings::Sighting s;
        s.kind = *kind;
        s.identity = bytes(o, "identity");
        s.addr = bytes(o, "addr");
        s.node = bytes(o, "node");
        s.keys = bytesList(o.value(QStringLiteral("keys")));
        s.commands = integer(o, "commands", 0);
        s.firstMs = integer(o, "first_ms", 0);
        s.lastMs = integer(o, "last_ms", 0);
        s.lastReleaseMs = integer(o, "last_release_ms", 0);
        f.sightings << s;
    }
    for (const QJsonValue &v : root.value(QStringLiteral("retriers")).toArray()) {
        const QJsonObject o = v.toObject();
        TraceFindings::Retrier r;
        r.addr = bytes(o, "addr");
        r.node = bytes(o, "node");
        r.key = bytes(o, "key");
        r.identity = bytes(o, "identity");
        r.attempts = integer(o, "attempts", 0);
        r.firstMs = integer(o, "first_ms", 0);
        r.lastMs = integer(o, "last_ms", 0);
        f.retriers << r;
    }
    for (const QJsonValue &v : root.value(QStringLiteral("clients")).toArray())
        f.clients << clientFrom(v.toObject());
    f.listedNodes = bytesList(root.value(QStringLiteral("listed_nodes")));
    const QJsonObject cost = root.value(QStringLiteral("cost")).toObject();
    f.cost.lines = integer(cost, "lines", 0);
    f.cost.bytes = integer(cost, "bytes", 0);
    f.cost.serverCpuMs = integer(cost, "server_cpu_ms");
    f.cost.wallMs = integer(cost, "wall_ms", 0);
    for (const QJsonValue &v : root.value(QStringLiteral("partial")).toArray())
        f.partial << v.toString();
    return f;
}

bool save(const ConnectionOptions &options, const TraceFindings &findings, QString *error)
{
    const QString file = path(options);
    const QString dir = QFileInfo(file).absolutePath();
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QCoreApplication::translate("LockScope::TraceStore", "cannot make the folder %1").arg(dir);
        return false;
    }
    // Addresses and names of a server's clients: the owner's business only.
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)) {
        if (error)
            *error = out.errorString();
        return false;
    }
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    out.write(toJson(findings, options.auditTarget()));
    if (!out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

std::optional<TraceFindings> load(const ConnectionOptions &options, qint64 maxAgeMs)
{
    QFile file(path(options));
    if (!file.open(QIODevice::ReadOnly) || file.size() > maxFileBytes)
        return std::nullopt;
    std::optional<TraceFindings> findings = fromJson(file.readAll());
    if (!findings)
        return std::nullopt;
    const qint64 age = QDateTime::currentMSecsSinceEpoch() - findings->endedMs;
    if (findings->endedMs <= 0 || age > maxAgeMs)
        return std::nullopt;
    return findings;
}

} // namespace LockScope::TraceStore
