// A canary password must never show up where people or other programs can read it: the CLI's output and errors,
// the audit log, its command line (what ps shows), display URLs, typed errors, saved settings, or the log of a
// server child started with it. Each check greps for the canary in what a user would actually see.
#include "clirun.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/connectionoptions.h"
#include "redisserver.h"
#include "testutil.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kCanary = "Canary-7f3e91-pw";
}

class TestSecrets : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions { {}, false, false, QString::fromLatin1(kCanary) } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    void start(QProcess &p, const QStringList &args, const QByteArray &password)
    {
        QProcessEnvironment e = cliEnvironment(m_dir); // the audit log at auditPath()
        e.insert(QStringLiteral("LOCKSCOPE_TEST_PW"), QString::fromLatin1(password));
        startCli(p,
            args
                + QStringList { QStringLiteral("--url"), m_server.url(), QStringLiteral("--password-env"),
                    QStringLiteral("LOCKSCOPE_TEST_PW") },
            e);
    }

    // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves *exitCode -1.
    QByteArray run(const QStringList &args, const QByteArray &password, int *exitCode = nullptr)
    {
        QProcess p;
        start(p, args, password);
        p.closeWriteChannel();
        const CliRun r = finishCli(p);
        if (exitCode)
            *exitCode = r.exitCode;
        return r.out + r.err;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void cliOutputAndAuditLogNeverHoldIt()
    {
        const QByteArray name = uniqueKey("secret");
        RawRedis raw(m_server.port(), {}, kCanary);
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        int code = -1;
        QByteArray seen = run({ QStringLiteral("list"), QStringLiteral("--json") }, kCanary, &code);
        QCOMPARE(code, 0);
        QVERIFY(seen.contains(name));
        seen += run({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                        QStringLiteral("--json") },
            kCanary, &code);
        QCOMPARE(code, 0);
        QCOMPARE(raw.type(name), "none");
        QFile audit(auditPath());
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray auditLines = audit.readAll();
        QVERIFY(auditLines.contains(name)); // the audit line is there, naming the server without the password
        QVERIFY(!auditLines.contains(kCanary));
        QVERIFY(!seen.contains(kCanary));
    }

    void wrongPasswordErrorDoesNotEchoIt()
    {
        // The password sent is the canary's neighbour; neither it nor the real one may be printed back.
        const QByteArray wrong = kCanary + "-wrong";
        int code = -1;
        const QByteArray seen = run({ QStringLiteral("list") }, wrong, &code);
        QCOMPARE(code, 3);
        QVERIFY(!seen.contains(kCanary));
    }

    void commandLineNeverHoldsIt()
    {
        // What ps shows: /proc/<pid>/cmdline of a running CLI (watch runs until stopped).
        QProcess watch;
        start(watch, { QStringLiteral("watch"), QStringLiteral("--json") }, kCanary);
        QByteArray cmdline;
        QTRY_VERIFY((cmdline =
                         [&] {
                             QFile f(QStringLiteral("/proc/%1/cmdline").arg(watch.processId()));
                             return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                         }())
                        .contains("watch"));
        QVERIFY(!cmdline.contains(kCanary));
        // Nor does the server child's: the password is in its config file, not in its arguments or its log.
        QFile serverCmdline(QStringLiteral("/proc/%1/cmdline").arg(m_server.pid()));
        QVERIFY(serverCmdline.open(QIODevice::ReadOnly));
        const QByteArray serverArgs = serverCmdline.readAll();
        QVERIFY(serverArgs.contains("redis-server"));
        QVERIFY(!serverArgs.contains(kCanary));
        QFile serverLog(m_server.dir() + QStringLiteral("/redis-server.log"));
        QVERIFY(serverLog.open(QIODevice::ReadOnly));
        const QByteArray log = serverLog.readAll();
        QVERIFY(log.contains("=== lockscope:"));
        QVERIFY(!log.contains(kCanary));
        // Stopped once it watches (its SIGTERM handler is in place by then; before, SIGTERM just killed it).
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT((status += watch.readAllStandardError()).contains("watching"), 20000);
        watch.terminate();
        const CliRun stopped = finishCli(watch, 10000, CliWait::Blocking, status);
        CLI_EXIT(stopped, CliExit::Done);
        QVERIFY(!(stopped.out + stopped.err).contains(kCanary));
    }

    void displayUrlsAndErrorsNeverHoldIt()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(
            QStringLiteral("redis://user:%1@127.0.0.1:%2/0").arg(QString::fromLatin1(kCanary)).arg(m_server.port()));
        QCOMPARE(o.password, kCanary);
        QVERIFY(!o.toDisplayUrl().contains(QString::fromLatin1(kCanary)));
        // A failed login names what failed, not what was sent.
        o.user.clear();
        o.password = kCanary + "-wrong";
        o.autoReconnect = false;
        LockClient client(o);
        AcquireRequest r;
        r.name = uniqueKey("x");
        r.leaseMs = 1000;
        const AcquireResult a = acquire(client, r);
        QCOMPARE(a.error.kind(), RedisError::Kind::Auth);
        QVERIFY(!a.error.toString().contains(QString::fromLatin1(kCanary)));
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
