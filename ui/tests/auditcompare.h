// Audit records as the console's tests compare them: the lines written after a point, and one record held against
// another field by field (docs/cli.md#files; the user guide's section 9).
#pragma once

#include "consolefixture.h"
#include "ops/auditrecord.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace LockScope::Test {

// A console test's process writes its audit records, and the CLIs it starts theirs (cliEnvironment), to the test's
// own audit log, with its settings in the test's directory: nothing of the developer's own.
inline QString useOwnAuditLog(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("audit.log"));
    qputenv("LOCKSCOPE_AUDIT_LOG", path.toUtf8());
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
    return path;
}

// The lines appended to the audit log at path after its first `from` lines.
inline QList<QJsonObject> auditLinesFrom(const QString &path, qsizetype from)
{
    const QList<QJsonObject> lines = auditLines(path);
    return from >= lines.size() ? QList<QJsonObject>() : lines.mid(from);
}

inline QString jsonOf(const QString &key, const QJsonValue &value)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject { { key, value } }).toJson(QJsonDocument::Compact));
}

// Every field equal but those that say when, where and as whom each ran (ts, pid, client_id: one process each), and
// "result", which keeps each writer's own words for the same outcome: those are checked against AuditRecord's table,
// and an error's text (outcome "failed") must be the same from both. Both must have the same set of fields.
inline void compareAuditRecords(const QJsonObject &cli, const QJsonObject &console)
{
    static const QStringList own { QStringLiteral("ts"), QStringLiteral("pid"), QStringLiteral("client_id"),
        QStringLiteral("result") };
    QCOMPARE(cli.keys(), console.keys());
    for (const QString &key : cli.keys()) {
        if (own.contains(key))
            continue;
        QVERIFY2(cli.value(key) == console.value(key),
            qPrintable(QStringLiteral("%1: lockscope-cli %2, console %3")
                           .arg(key, jsonOf(key, cli.value(key)), jsonOf(key, console.value(key)))));
    }
    // Each run has a client id of its own, but both have one, a UUID.
    static const QRegularExpression uuid(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
    QVERIFY2(uuid.match(cli.value(QStringLiteral("client_id")).toString()).hasMatch(),
        qPrintable(jsonOf(QStringLiteral("client_id"), cli.value(QStringLiteral("client_id")))));
    QVERIFY2(uuid.match(console.value(QStringLiteral("client_id")).toString()).hasMatch(),
        qPrintable(jsonOf(QStringLiteral("client_id"), console.value(QStringLiteral("client_id")))));
    // The time as docs/cli.md shows it: UTC, milliseconds, "Z" (QDateTime's ISO form with milliseconds).
    static const QRegularExpression utc(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"));
    for (const QJsonObject *r : { &cli, &console })
        QVERIFY2(utc.match(r->value(QStringLiteral("ts")).toString()).hasMatch(),
            qPrintable(jsonOf(QStringLiteral("ts"), r->value(QStringLiteral("ts")))));
    const QString outcome = cli.value(QStringLiteral("outcome")).toString();
    if (outcome == AuditRecord::outcomeName(AuditRecord::Outcome::Failed)) {
        QCOMPARE(console.value(QStringLiteral("result")).toString(), cli.value(QStringLiteral("result")).toString());
        return;
    }
    for (int o = 0; o <= int(AuditRecord::Outcome::Failed); ++o) {
        const auto known = AuditRecord::Outcome(o);
        if (AuditRecord::outcomeName(known) != outcome)
            continue;
        QCOMPARE(
            cli.value(QStringLiteral("result")).toString(), AuditRecord::resultWord(AuditRecord::Writer::Cli, known));
        QCOMPARE(console.value(QStringLiteral("result")).toString(),
            AuditRecord::resultWord(AuditRecord::Writer::Console, known));
        return;
    }
    QFAIL(qPrintable(QStringLiteral("unknown outcome %1").arg(outcome)));
}

} // namespace LockScope::Test
