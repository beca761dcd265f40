#pragma once

// Running lockscope-cli from a test: the same environment for every test (testutil.h's cliEnvironment), exit code
// and both outputs. Include only from test executables, which define LOCKSCOPE_CLI_PATH.
#include "testutil.h"

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

} // namespace LockScope::Test
