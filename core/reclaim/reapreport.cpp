#include "reclaim/reapreport.h"

#include "base/durationtext.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::ReapReport", text);
}

// JSON holds text: a name that is not UTF-8 is written escaped (jsonText) and read back through its escapes.
QByteArray bytesOf(const QJsonValue &value)
{
    const QString text = value.toString();
    return text.contains(QLatin1Char('\\')) ? unescapeBytes(text) : text.toUtf8();
}

QJsonObject holdJson(const ReapItem &item)
{
    return { { QStringLiteral("name"), jsonText(item.name) },
        { QStringLiteral("kind"), QString::fromLatin1(item.kind) },
        { QStringLiteral("library"), QString::fromLatin1(item.library) },
        { QStringLiteral("owner"), jsonText(item.owner) }, { QStringLiteral("count"), item.count },
        { QStringLiteral("rule"), item.rule } };
}
} // namespace

QByteArray ReapItem::actionId(Action action)
{
    switch (action) {
    case Action::Release:
        return "release";
    case Action::OverQuota:
        return "over-quota";
    case Action::Protected:
        return "protected";
    }
    return {};
}

bool ReapItem::sameHold(const ReapItem &other) const
{
    return name == other.name && kind == other.kind && library == other.library && owner == other.owner
        && count == other.count && rule == other.rule;
}

QJsonObject ReapItem::toJson() const
{
    QJsonObject o = holdJson(*this);
    o.insert(QStringLiteral("ttl_ms"), ttlMs);
    o.insert(QStringLiteral("action"), QString::fromLatin1(actionId(action)));
    o.insert(QStringLiteral("age_ms"), ageMs < 0 ? QJsonValue() : QJsonValue(ageMs));
    o.insert(QStringLiteral("age_at_least"), ageAtLeast);
    o.insert(QStringLiteral("liveness"), liveness);
    o.insert(QStringLiteral("evidence"), QJsonArray::fromStringList(evidence));
    if (outcome)
        o.insert(QStringLiteral("outcome"), AuditRecord::outcomeName(*outcome));
    if (error.isError())
        o.insert(QStringLiteral("error"), error.toString());
    if (!leftAlone.isEmpty())
        o.insert(QStringLiteral("left_alone"), leftAlone);
    if (!verified.isEmpty())
        o.insert(QStringLiteral("verified"), QString::fromLatin1(verified));
    return o;
}

std::optional<ReapItem> ReapItem::fromJson(const QJsonObject &o)
{
    if (!o.value(QStringLiteral("name")).isString() || !o.value(QStringLiteral("owner")).isString()
        || !o.value(QStringLiteral("count")).isDouble() || !o.value(QStringLiteral("action")).isString())
        return std::nullopt;
    ReapItem item;
    item.name = bytesOf(o.value(QStringLiteral("name")));
    item.kind = o.value(QStringLiteral("kind")).toString().toLatin1();
    item.library = o.value(QStringLiteral("library")).toString().toLatin1();
    item.owner = bytesOf(o.value(QStringLiteral("owner")));
    item.count = o.value(QStringLiteral("count")).toInteger();
    item.rule = o.value(QStringLiteral("rule")).toString();
    item.ttlMs = o.value(QStringLiteral("ttl_ms")).toInteger(-2);
    const QByteArray action = o.value(QStringLiteral("action")).toString().toLatin1();
    if (action == actionId(Action::Release))
        item.action = Action::Release;
    else if (action == actionId(Action::OverQuota))
        item.action = Action::OverQuota;
    else if (action == actionId(Action::Protected))
        item.action = Action::Protected;
    else
        return std::nullopt;
    return item;
}

QList<ReapItem> ReapReport::toRelease() const
{
    QList<ReapItem> out;
    for (const ReapItem &item : items)
        if (item.action == ReapItem::Action::Release)
            out << item;
    return out;
}

QByteArray ReapReport::sha256() const
{
    // QJsonObject keeps its keys sorted, so each line is the same bytes for the same hold.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QJsonDocument(QJsonObject { { QStringLiteral("policy_sha256"), QString::fromLatin1(policySha256) },
                                   { QStringLiteral("server"), server } })
                     .toJson(QJsonDocument::Compact));
    for (const ReapItem &item : toRelease()) {
        hash.addData("\n");
        hash.addData(QJsonDocument(holdJson(item)).toJson(QJsonDocument::Compact));
    }
    return hash.result().toHex();
}

QJsonObject ReapReport::summaryJson(bool dryRun) const
{
    int overQuota = 0, protectedItems = 0;
    for (const ReapItem &item : items) {
        overQuota += item.action == ReapItem::Action::OverQuota ? 1 : 0;
        protectedItems += item.action == ReapItem::Action::Protected ? 1 : 0;
    }
    QJsonObject o { { QStringLiteral("report_sha256"), QString::fromLatin1(sha256()) },
        { QStringLiteral("policy"), policy }, { QStringLiteral("policy_sha256"), QString::fromLatin1(policySha256) },
        { QStringLiteral("server"), server }, { QStringLiteral("to_release"), int(toRelease().size()) },
        { QStringLiteral("over_quota"), overQuota }, { QStringLiteral("protected"), protectedItems },
        { QStringLiteral("observed_ms"), observedMs }, { QStringLiteral("dry_run"), dryRun } };
    if (!partial.isEmpty()) {
        o.insert(QStringLiteral("partial"), true);
        o.insert(QStringLiteral("why"), QJsonArray::fromStringList(partial));
    }
    return o;
}

QString ReapReport::text() const
{
    QStringList lines;
    const int release = int(toRelease().size());
    lines << QCoreApplication::translate(
        "LockScope::ReapReport", "policy %1 on %2: %n lock hold(s) to release", nullptr, release)
                 .arg(policy, server);
    for (const ReapItem &item : items) {
        QString action = item.action == ReapItem::Action::Release ? tr("release")
            : item.action == ReapItem::Action::OverQuota          ? tr("over quota, left for a later run")
                                                                  : tr("protected, left alone");
        const QString held = item.ageMs < 0 ? tr("held for an unknown time")
            : item.ageAtLeast               ? tr("held at least %1").arg(durationText(item.ageMs))
                                            : tr("held %1").arg(durationText(item.ageMs));
        QString line
            = tr("  %1  %2  %3  count %4  %5  rule %6  → %7")
                  .arg(escapeBytes(item.name, 200), QString::fromLatin1(item.kind), escapeBytes(item.owner, 200))
                  .arg(item.count)
                  .arg(held, item.rule, action);
        for (const QString &e : item.evidence)
            line += QStringLiteral("\n      ") + e;
        if (!item.leftAlone.isEmpty())
            line += QStringLiteral("\n      ") + tr("left alone: %1").arg(item.leftAlone);
        else if (item.outcome)
            line += QStringLiteral("\n      ")
                + tr("%1%2").arg(item.error.isError() ? item.error.message() : AuditRecord::outcomeName(*item.outcome),
                    item.verified.isEmpty() ? QString() : tr(", verified: %1").arg(QString::fromLatin1(item.verified)));
        lines << line;
    }
    for (const QString &why : partial)
        lines << tr("partial: %1").arg(why);
    lines << tr("report sha256 %1").arg(QString::fromLatin1(sha256()));
    return lines.join(QLatin1Char('\n'));
}

std::optional<ReapApproval> ReapApproval::read(const QString &value, QString *error)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-fA-F]{64}$"));
    ReapApproval approval;
    if (hex.match(value.trimmed()).hasMatch()) {
        approval.sha256 = value.trimmed().toLower().toLatin1();
        return approval;
    }
    QFile file(value);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("LockScope::ReapApproval",
            "--approve takes the report's sha256 (64 hex digits) or the file a dry run wrote; %1: %2")
                     .arg(value, file.errorString());
        return std::nullopt;
    }
    return fromReport(file.read(64 << 20), value, error);
}

std::optional<ReapApproval> ReapApproval::fromReport(const QByteArray &bytes, const QString &value, QString *error)
{
    ReapApproval approval;
    ReapReport report;
    QJsonObject summary;
    const QList<QByteArray> lines = bytes.split('\n');
    for (const QByteArray &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (!doc.isObject()) {
            *error = QCoreApplication::translate(
                "LockScope::ReapApproval", "%1 is not a dry run's report: a line is not a JSON object (%2)")
                         .arg(value, parseError.errorString());
            return std::nullopt;
        }
        const QJsonObject o = doc.object();
        if (o.contains(QStringLiteral("report_sha256"))) {
            summary = o;
            continue;
        }
        const std::optional<ReapItem> item = ReapItem::fromJson(o);
        if (!item) {
            *error = QCoreApplication::translate("LockScope::ReapApproval",
                "%1 is not a dry run's report: an item lacks its name, owner, count or action")
                         .arg(value);
            return std::nullopt;
        }
        report.items << *item;
    }
    if (summary.isEmpty()) {
        *error = QCoreApplication::translate(
            "LockScope::ReapApproval", "%1 is not a dry run's report: no line carries report_sha256")
                     .arg(value);
        return std::nullopt;
    }
    report.policy = summary.value(QStringLiteral("policy")).toString();
    report.policySha256 = summary.value(QStringLiteral("policy_sha256")).toString().toLatin1();
    report.server = summary.value(QStringLiteral("server")).toString();
    approval.sha256 = summary.value(QStringLiteral("report_sha256")).toString().toLower().toLatin1();
    // What the file lists must be what its hash was made of: an item added, removed or changed after the dry run
    // wrote it is not what anyone approved.
    if (report.sha256() != approval.sha256) {
        *error = QCoreApplication::translate("LockScope::ReapApproval",
            "%1 was changed after its dry run: its items hash to %2, it says %3; nothing was released")
                     .arg(value, QString::fromLatin1(report.sha256()), QString::fromLatin1(approval.sha256));
        return std::nullopt;
    }
    approval.report = report;
    return approval;
}

} // namespace LockScope
