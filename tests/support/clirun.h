#pragma once

// Running lockscope-cli from a test: the same environment for every test (testutil.h's cliEnvironment), exit code
// and both outputs. Include only from test executables, which define LOCKSCOPE_CLI_PATH.
//
// A run that did not end by itself with an exit code (a crash, a signal, a sanitizer's report, a time-out) fails the
// test where it happened, with the CLI's standard error: otherwise a crash or a hang would pass every "nothing was
// listed" and "it was refused" check. QFAIL only leaves the helper, so the results carry the failure on: an abnormal
// run's exitCode is -1 (no exit code the CLI uses), a failed list returns no listing, and the CLI_EXIT / CLI_REFUSED
// macros end the test function at the call site.
#include "testutil.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <csignal>
#include <optional>

namespace LockScope::Test {

// The exit codes of docs/cli.md and the shared conventions.md.
namespace CliExit {
constexpr int Done = 0;
constexpr int NotDone = 1; // not acquired, not held by that owner, a guard failed, cancelled, not a lock
constexpr int Usage = 2;
constexpr int Connect = 3; // cannot connect or authenticate
constexpr int Refused = 4; // read-only mode, or the server denied the command (ACL)
} // namespace CliExit

struct CliRun
{
    QStringList args;
    int exitCode = -1; // -1: it crashed, was killed or did not finish in time; the test has failed already
    QByteArray out;
    QByteArray err;

    bool normal() const { return exitCode >= 0; }
    // For failure messages: the command, how it ended and what it said.
    QByteArray describe() const
    {
        return QStringLiteral("lockscope-cli %1: exit %2\n--- stdout:\n%3\n--- stderr:\n%4")
            .arg(args.join(QLatin1Char(' ')))
            .arg(exitCode)
            .arg(QString::fromUtf8(out.left(4000)), QString::fromUtf8(err.left(4000)))
            .toUtf8();
    }
};

// A sanitizer's report: ASan and LSan exit with code 1 by default, which is also the CLI's "did not happen".
inline bool sanitizerReported(const QByteArray &err)
{
    return err.contains("ERROR: AddressSanitizer") || err.contains("ERROR: LeakSanitizer")
        || err.contains("WARNING: ThreadSanitizer") || err.contains("runtime error: ")
        || err.contains("SUMMARY: UndefinedBehaviorSanitizer");
}

// The guided demo's process clients (lockscope-cli guide-actor) as the player starts them, but with their standard
// error appended to errorsFile (exec keeps the pid the player signals the CLI's own): an actor killed on purpose
// cannot report a sanitizer's finding through its exit, so the test reads the file (sanitizerReportedInFile).
inline QStringList actorArgumentsWritingErrorsTo(const QString &errorsFile)
{
    return { QStringLiteral("-c"), QStringLiteral("exec \"$0\" guide-actor 2>>\"$1\""),
        QStringLiteral(LOCKSCOPE_CLI_PATH), errorsFile };
}

// What child processes wrote to the file their standard error went to, shown and removed: whether a sanitizer
// reported in it. No file: nothing ran, nothing reported.
inline bool sanitizerReportedInFile(const QString &path, const char *who)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray err = file.readAll();
    file.close();
    file.remove();
    if (!err.isEmpty())
        qInfo("%s said on standard error:\n%s", who, err.constData());
    return sanitizerReported(err);
}

// Starts the CLI in env: cliEnvironment(dir), with what the test adds to it (a password variable, a locale).
inline void startCli(QProcess &p, const QStringList &args, const QProcessEnvironment &env)
{
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
}

inline void startCli(QProcess &p, const QStringList &args, const QTemporaryDir &dir)
{
    startCli(p, args, cliEnvironment(dir));
}

// How finishCli waits: blocked, or serving this thread's events (a fault proxy or monitor living on the test's
// thread that the CLI talks to).
enum class CliWait { Blocking, ServeEvents };

// Waits for a CLI started with startCli (any input already written) and takes its outputs. Fails the test, with
// the CLI's standard error, when it did not exit normally within timeoutMs: then exitCode is -1.
inline CliRun finishCli(
    QProcess &p, int timeoutMs = 30000, CliWait wait = CliWait::Blocking, const QByteArray &alreadyRead = {})
{
    CliRun r;
    r.args = p.arguments();
    r.err = alreadyRead;
    if (p.error() == QProcess::FailedToStart) {
        QTest::qFail(
            ("did not start: " + p.errorString().toUtf8() + "; " + r.describe()).constData(), __FILE__, __LINE__);
        return r;
    }
    bool finished = false;
    if (wait == CliWait::Blocking) {
        finished = p.state() == QProcess::NotRunning || p.waitForFinished(timeoutMs);
    } else {
        const QDeadlineTimer deadline(timeoutMs);
        while (!(finished = p.state() == QProcess::NotRunning) && !deadline.hasExpired()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            p.waitForFinished(10);
        }
    }
    if (!finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.out = p.readAllStandardOutput();
    r.err += p.readAllStandardError();
    if (!finished) {
        QTest::qFail(QStringLiteral("did not finish within %1 ms (killed); %2")
                         .arg(timeoutMs)
                         .arg(QString::fromUtf8(r.describe()))
                         .toUtf8()
                         .constData(),
            __FILE__, __LINE__);
        return r;
    }
    if (p.exitStatus() != QProcess::NormalExit) {
        QTest::qFail(QStringLiteral("crashed (signal %1); %2")
                         .arg(p.exitCode())
                         .arg(QString::fromUtf8(r.describe()))
                         .toUtf8()
                         .constData(),
            __FILE__, __LINE__);
        return r;
    }
    if (sanitizerReported(r.err)) {
        r.exitCode = p.exitCode();
        QTest::qFail(("a sanitizer reported an error; " + r.describe()).constData(), __FILE__, __LINE__);
        r.exitCode = -1;
        return r;
    }
    r.exitCode = p.exitCode();
    return r;
}

inline CliRun runCli(const QStringList &args, const QProcessEnvironment &env, const QByteArray &input = {},
    CliWait wait = CliWait::Blocking, int timeoutMs = 30000)
{
    QProcess p;
    startCli(p, args, env);
    if (p.error() == QProcess::FailedToStart) {
        CliRun r;
        r.args = args;
        return r; // startCli failed the test
    }
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    return finishCli(p, timeoutMs, wait);
}

inline CliRun runCli(
    const QStringList &args, const QTemporaryDir &dir, const QByteArray &input = {}, CliWait wait = CliWait::Blocking)
{
    return runCli(args, cliEnvironment(dir), input, wait);
}

// The CLI at a terminal: script(1) gives it one, and what it prints there, standard error included, comes on
// script's standard output. Type answers into p; finishCliAtTerminal waits.
inline void startCliAtTerminal(QProcess &p, const QStringList &args, const QProcessEnvironment &env)
{
    QStringList words { QStringLiteral(LOCKSCOPE_CLI_PATH) };
    words += args;
    for (QString &w : words)
        w = QLatin1Char('\'') + w + QLatin1Char('\'');
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("script"),
        { QStringLiteral("-qefc"), words.join(QLatin1Char(' ')), QStringLiteral("/dev/null") });
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
}

// Waits for a CLI started with startCliAtTerminal; out is all the terminal showed (alreadySeen first), err is
// empty. As finishCli, it fails the test (exitCode -1) on a hang, a crash or a sanitizer's report: script -e exits
// with the CLI's own code, or with 128 + the signal that ended it.
inline CliRun finishCliAtTerminal(QProcess &p, int timeoutMs = 30000, const QByteArray &alreadySeen = {})
{
    CliRun r;
    r.args = QStringList { QStringLiteral("at a terminal (script -c):"), p.arguments().value(1) };
    r.out = alreadySeen;
    const bool finished = p.state() == QProcess::NotRunning || p.waitForFinished(timeoutMs);
    if (!finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.out += p.readAllStandardOutput();
    const auto fail = [&r](const QByteArray &why) {
        QTest::qFail((why + "; " + r.describe()).constData(), __FILE__, __LINE__);
        return r;
    };
    if (!finished)
        return fail(QByteArrayLiteral("did not finish within ") + QByteArray::number(timeoutMs) + " ms (killed)");
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() >= 128) {
        r.exitCode = p.exitCode();
        fail(QByteArrayLiteral("crashed (script(1) or the CLI in it)"));
        r.exitCode = -1;
        return r;
    }
    if (sanitizerReported(r.out)) {
        r.exitCode = p.exitCode();
        fail(QByteArrayLiteral("a sanitizer reported an error"));
        r.exitCode = -1;
        return r;
    }
    r.exitCode = p.exitCode();
    return r;
}

// What a program of ours (the CLI, lockscope-test-worker) said when the test killed it on purpose.
struct KilledRun
{
    bool ok = false; // false: the test has failed already, saying why
    QByteArray out, err;
};

// Ends a program of ours that the test started with SIGKILL, on purpose (a crash, as the test means it), and takes
// what it said. Nothing at the kill itself can report, but a report printed before it can: TSan and UBSan report
// and go on, and a report that ended the program early is what a crash of it looks like. So the test fails when
// standard error holds a sanitizer's report, or when the program had already ended by itself other than with exit 0
// (a crash, a sanitizer's exit code). Use through CHILD_KILLED unless the outputs are needed.
inline KilledRun killChild(QProcess &p, const char *file, int line)
{
    KilledRun k;
    if (p.error() == QProcess::FailedToStart) {
        QTest::qFail(("did not start: " + p.errorString().toUtf8()).constData(), file, line);
        return k;
    }
    const bool endedBefore = p.state() == QProcess::NotRunning;
    if (!endedBefore) {
        p.kill();
        if (!p.waitForFinished(20000)) {
            QTest::qFail("did not end within 20 s of SIGKILL", file, line);
            return k;
        }
    }
    k.out = p.readAllStandardOutput();
    k.err = p.readAllStandardError();
    const auto describe = [&p, &k](const char *what) {
        return QStringLiteral("%1 %2: %3 (%4 %5)\n--- stderr:\n%6")
            .arg(p.program(), p.arguments().join(QLatin1Char(' ')), QString::fromUtf8(what))
            .arg(p.exitStatus() == QProcess::NormalExit ? QStringLiteral("exit") : QStringLiteral("signal"))
            .arg(p.exitCode())
            .arg(QString::fromUtf8(k.err.left(8000)))
            .toUtf8();
    };
    // Ended, by the kill or by itself (before it, or in the moment before it landed).
    const bool killed = p.exitStatus() == QProcess::CrashExit && p.exitCode() == SIGKILL;
    const bool exitedZero = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!killed && !exitedZero) {
        QTest::qFail(
            describe(endedBefore ? "ended by itself before the kill" : "ended otherwise than by the kill").constData(),
            file, line);
        return k;
    }
    if (sanitizerReported(k.err)) {
        QTest::qFail(describe("a sanitizer reported an error").constData(), file, line);
        return k;
    }
    k.ok = true;
    return k;
}

// True if the run ended normally with exactly `code` and, when given, said `text` on standard error or output (a
// refusal's reason); else fails the test at file:line with the CLI's outputs. Use through CLI_EXIT / CLI_REFUSED.
inline bool cliExited(const CliRun &r, int code, const QByteArray &text, const char *file, int line)
{
    if (!r.normal())
        return false; // finishCli failed the test already, saying why
    if (r.exitCode != code) {
        QTest::qFail(
            QStringLiteral("expected exit %1; %2").arg(code).arg(QString::fromUtf8(r.describe())).toUtf8().constData(),
            file, line);
        return false;
    }
    if (!text.isEmpty() && !r.err.contains(text) && !r.out.contains(text)) {
        QTest::qFail(QStringLiteral("expected \"%1\" in its output; %2")
                         .arg(QString::fromUtf8(text), QString::fromUtf8(r.describe()))
                         .toUtf8()
                         .constData(),
            file, line);
        return false;
    }
    return true;
}

// The locks `lockscope-cli --json list --pattern glob` shows on the server at url, by name. Nothing (and the test
// has failed, with list's standard error) when list did not exit 0 with a JSON array: an empty listing is proof
// that nothing matched only when list itself worked.
inline std::optional<QHash<QString, QJsonObject>> listedLocks(
    const QString &url, const QTemporaryDir &dir, const QString &glob, const QStringList &extra = {})
{
    const CliRun r = runCli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                                glob, QStringLiteral("--url"), url }
            + extra,
        dir);
    if (!cliExited(r, CliExit::Done, {}, __FILE__, __LINE__))
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray()) {
        QTest::qFail(("list did not print a JSON array; " + r.describe()).constData(), __FILE__, __LINE__);
        return std::nullopt;
    }
    QHash<QString, QJsonObject> out;
    for (const QJsonValue &v : doc.array())
        out.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
    return out;
}

} // namespace LockScope::Test

// The CLI run ended normally with exactly this exit code; else the test fails here, with the CLI's outputs.
#define CLI_EXIT(run, code)                                                                                            \
    do {                                                                                                               \
        if (!LockScope::Test::cliExited(run, code, {}, __FILE__, __LINE__))                                            \
            return;                                                                                                    \
    } while (false)

// ... and it said `text` (the reason for a refusal) on standard error or output.
#define CLI_REFUSED(run, code, text)                                                                                   \
    do {                                                                                                               \
        if (!LockScope::Test::cliExited(run, code, text, __FILE__, __LINE__))                                          \
            return;                                                                                                    \
    } while (false)

// A program of ours killed on purpose (killChild) said no sanitizer report and had not crashed; else the test fails
// here, with its standard error.
#define CHILD_KILLED(process)                                                                                          \
    do {                                                                                                               \
        if (!LockScope::Test::killChild(process, __FILE__, __LINE__).ok)                                               \
            return;                                                                                                    \
    } while (false)
