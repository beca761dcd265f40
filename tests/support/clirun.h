#pragma once

// Running lockscope-cli from a test: the same environment for every test (testutil.h's cliEnvironment), exit code
// and both outputs. Include only from test executables, which define LOCKSCOPE_CLI_PATH.
#include "testutil.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace LockScope::Test {

struct CliRun
{
    int exitCode = -1; // -1: it did not finish within 30 s
    QByteArray out;
    QByteArray err;
};

inline void startCli(QProcess &p, const QStringList &args, const QTemporaryDir &dir)
{
    p.setProcessEnvironment(cliEnvironment(dir));
    p.start(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    QVERIFY(p.waitForStarted());
}

inline CliRun runCli(const QStringList &args, const QTemporaryDir &dir, const QByteArray &input = {})
{
    QProcess p;
    startCli(p, args, dir);
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    CliRun r;
    if (!p.waitForFinished(30000))
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The locks `lockscope-cli --json list --pattern glob` shows on the server at url, by name; empty, with a warning,
// when list failed.
inline QHash<QString, QJsonObject> listedLocks(
    const QString &url, const QTemporaryDir &dir, const QString &glob, const QStringList &extra = {})
{
    const CliRun r = runCli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                                glob, QStringLiteral("--url"), url }
            + extra,
        dir);
    QHash<QString, QJsonObject> out;
    if (r.exitCode != 0) {
        qWarning("list failed (%d): %s", r.exitCode, r.err.constData());
        return out;
    }
    for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array())
        out.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
    return out;
}

} // namespace LockScope::Test
