#include "reclaim/reappolicy.h"

#include "base/quantities.h"
#include "kinds/keyglob.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locklibraries.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <yaml-cpp/yaml.h>

namespace LockScope {

namespace {
// The texts of the walk below, in the context lupdate files them under: that of the namespace they live in. The
// policy's own functions name their class's context.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

// The policy's mistakes are thrown from deep in the walk and caught once, with where they are.
struct PolicyError
{
    QString message;
};

[[noreturn]] void fail(const QString &where, const QString &what)
{
    throw PolicyError { where.isEmpty() ? what : where + QStringLiteral(": ") + what };
}

QString scalar(const YAML::Node &node, const QString &where)
{
    if (!node.IsScalar())
        fail(where, tr("expected a single value"));
    return QString::fromStdString(node.Scalar());
}

QList<QByteArray> scalars(const YAML::Node &node, const QString &where)
{
    QList<QByteArray> out;
    if (node.IsScalar()) {
        out << scalar(node, where).toUtf8();
    } else if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            out << scalar(node[i], where).toUtf8();
    } else {
        fail(where, tr("expected a value or a list of values"));
    }
    for (const QByteArray &v : out)
        if (v.isEmpty())
            fail(where, tr("an empty value"));
    return out;
}

bool boolean(const YAML::Node &node, const QString &where)
{
    const QString v = scalar(node, where).toLower();
    if (v == QLatin1String("true") || v == QLatin1String("yes"))
        return true;
    if (v == QLatin1String("false") || v == QLatin1String("no"))
        return false;
    fail(where, tr("expected true or false, not %1").arg(v));
}

qint64 duration(const YAML::Node &node, const QString &where)
{
    const QString v = scalar(node, where);
    const qint64 ms = parseDurationMs(v);
    if (ms < 0)
        fail(where, tr("%1 is not a duration (90s, 5m, 2h, 1d, 250ms)").arg(v));
    return ms;
}

int quota(const YAML::Node &node, const QString &where)
{
    bool ok = false;
    const int n = scalar(node, where).toInt(&ok);
    if (!ok || n < 0 || n > 100000)
        fail(where, tr("expected a number of locks (0 to 100000)"));
    return n;
}

void checkKeys(const YAML::Node &map, const QStringList &known, const QString &where)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QString key = QString::fromStdString(it->first.as<std::string>());
        if (!known.contains(key))
            fail(where, tr("unknown key %1 (known: %2)").arg(key, known.join(QStringLiteral(", "))));
    }
}

QList<QByteArray> kindIds()
{
    QList<QByteArray> ids;
    for (const LockLayout *layout : LockLayouts::all())
        if (const QByteArray id = LockInfo::kindName(layout->kind()); !ids.contains(id))
            ids << id;
    if (!ids.contains("unknown"))
        ids << "unknown";
    return ids;
}

QString joined(const QList<QByteArray> &ids)
{
    return QString::fromUtf8(ids.join(", "));
}

ReapRule readRule(const YAML::Node &node, int index)
{
    const QString where = tr("rule %1").arg(index + 1);
    if (!node.IsMap())
        fail(where, tr("a rule is a map of keys (pattern, kind, min_age, …)"));
    checkKeys(node,
        { QStringLiteral("name"), QStringLiteral("pattern"), QStringLiteral("library"), QStringLiteral("kind"),
            QStringLiteral("ttl"), QStringLiteral("min_age"), QStringLiteral("verdict_for"),
            QStringLiteral("connection_gone"), QStringLiteral("max_per_run") },
        where);
    ReapRule rule;
    rule.name = node["name"] ? scalar(node["name"], where) : QStringLiteral("rule-%1").arg(index + 1);
    const QString at = tr("rule %1").arg(rule.name);
    if (node["pattern"])
        rule.pattern = scalar(node["pattern"], at).toUtf8();
    if (rule.pattern.isEmpty())
        fail(at, tr("an empty pattern"));
    if (node["library"]) {
        rule.libraries = scalars(node["library"], at);
        for (const QByteArray &id : std::as_const(rule.libraries))
            if (!LockLibraries::isKnown(id))
                fail(at, tr("unknown library %1 (known: %2)").arg(QString::fromUtf8(id), joined(LockLibraries::ids())));
    }
    if (node["kind"]) {
        rule.kinds = scalars(node["kind"], at);
        const QList<QByteArray> known = kindIds();
        for (const QByteArray &id : std::as_const(rule.kinds))
            if (!known.contains(id))
                fail(at, tr("unknown kind %1 (known: %2)").arg(QString::fromUtf8(id), joined(known)));
    }
    if (node["ttl"]) {
        const QString ttl = scalar(node["ttl"], at);
        if (ttl == QLatin1String("none"))
            rule.ttlLess = true;
        else if (ttl != QLatin1String("any"))
            fail(at, tr("ttl is none (only locks that never expire) or any, not %1").arg(ttl));
    }
    if (node["min_age"])
        rule.minAgeMs = duration(node["min_age"], at);
    if (node["verdict_for"])
        rule.verdictForMs = duration(node["verdict_for"], at);
    if (node["connection_gone"])
        rule.connectionGone = boolean(node["connection_gone"], at);
    if (node["max_per_run"])
        rule.maxPerRun = quota(node["max_per_run"], at);
    if (rule.signalCount() < 2)
        fail(at,
            tr("names %1 signal(s) that its holder is gone; a rule needs two of min_age, verdict_for and "
               "connection_gone, since one alone cannot tell a slow or paused holder from a dead one")
                .arg(rule.signalCount()));
    return rule;
}
} // namespace

int ReapRule::signalCount() const
{
    return (minAgeMs >= 0 ? 1 : 0) + (verdictForMs >= 0 ? 1 : 0) + (connectionGone ? 1 : 0);
}

bool ReapRule::covers(const LockInfo &lock) const
{
    if (!globMatch(pattern, lock.name))
        return false;
    if (!libraries.isEmpty() && !libraries.contains(lock.library))
        return false;
    if (!kinds.isEmpty() && !kinds.contains(LockInfo::kindName(lock.kind)))
        return false;
    return !ttlLess || lock.ttlMs == -1;
}

bool ReapPolicy::isProtected(const QByteArray &name) const
{
    for (const QByteArray &glob : protect)
        if (globMatch(glob, name))
            return true;
    return false;
}

const ReapRule *ReapPolicy::ruleFor(const LockInfo &lock) const
{
    for (const ReapRule &rule : rules)
        if (rule.covers(lock))
            return &rule;
    return nullptr;
}

qint64 ReapPolicy::observeMs() const
{
    qint64 longest = 0;
    for (const ReapRule &rule : rules)
        longest = qMax(longest, rule.verdictForMs);
    return longest;
}

QByteArray ReapPolicy::scanPattern() const
{
    if (rules.isEmpty())
        return "*";
    const QByteArray first = rules.first().pattern;
    for (const ReapRule &rule : rules)
        if (rule.pattern != first)
            return "*";
    return first;
}

std::optional<ReapPolicy> ReapPolicy::parse(const QByteArray &yaml, const QString &fallbackName, QString *error)
{
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        if (!root.IsMap())
            fail({}, QCoreApplication::translate("LockScope::ReapPolicy", "a policy is a map with a rules list"));
        checkKeys(root,
            { QStringLiteral("name"), QStringLiteral("rules"), QStringLiteral("protect"), QStringLiteral("max_per_run"),
                QStringLiteral("unattended"), QStringLiteral("every") },
            {});
        ReapPolicy policy;
        policy.name = root["name"] ? scalar(root["name"], QStringLiteral("name")) : fallbackName;
        if (policy.name.isEmpty())
            fail(QStringLiteral("name"), QCoreApplication::translate("LockScope::ReapPolicy", "an empty name"));
        if (root["protect"])
            policy.protect = scalars(root["protect"], QStringLiteral("protect"));
        if (root["max_per_run"])
            policy.maxPerRun = quota(root["max_per_run"], QStringLiteral("max_per_run"));
        if (root["unattended"])
            policy.unattended = boolean(root["unattended"], QStringLiteral("unattended"));
        if (root["every"]) {
            policy.everyMs = duration(root["every"], QStringLiteral("every"));
            if (policy.everyMs < 1000)
                fail(QStringLiteral("every"),
                    QCoreApplication::translate(
                        "LockScope::ReapPolicy", "at least 1s: a report is a pass over every lock"));
        }
        const YAML::Node rules = root["rules"];
        if (!rules || !rules.IsSequence() || rules.size() == 0)
            fail(QStringLiteral("rules"),
                QCoreApplication::translate("LockScope::ReapPolicy", "a policy needs a list of at least one rule"));
        for (std::size_t i = 0; i < rules.size(); ++i) {
            ReapRule rule = readRule(rules[i], int(i));
            for (const ReapRule &other : std::as_const(policy.rules))
                if (other.name == rule.name)
                    fail(QCoreApplication::translate("LockScope::ReapPolicy", "rule %1").arg(rule.name),
                        QCoreApplication::translate("LockScope::ReapPolicy", "two rules have this name"));
            policy.rules << rule;
        }
        policy.sha256 = QCryptographicHash::hash(yaml, QCryptographicHash::Sha256).toHex();
        return policy;
    } catch (const PolicyError &e) {
        *error = e.message;
    } catch (const YAML::Exception &e) {
        *error = QCoreApplication::translate("LockScope::ReapPolicy", "not YAML: %1")
                     .arg(QString::fromStdString(e.what()));
    }
    return std::nullopt;
}

std::optional<ReapPolicy> ReapPolicy::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error
            = QCoreApplication::translate("LockScope::ReapPolicy", "cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    // A policy is a page of rules; anything much larger is not one.
    const QByteArray bytes = file.read(1 << 20);
    std::optional<ReapPolicy> policy = parse(bytes, QFileInfo(path).completeBaseName(), error);
    if (!policy)
        *error = QCoreApplication::translate("LockScope::ReapPolicy", "%1: %2").arg(path, *error);
    return policy;
}

} // namespace LockScope
