// lockscope-cli as support staff use it: exit codes, JSON events, clean release on exit, guarded force release.
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kJavaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";

using Run = CliRun;
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    void startCli(QProcess &p, const QStringList &args) const { Test::startCli(p, args, m_dir); }
    Run cli(const QStringList &args, const QByteArray &input = {}) { return runCli(args, m_dir, input); }

    QStringList url() const { return { QStringLiteral("--url"), m_server.url() }; }

    static QJsonObject json(const QByteArray &line) { return QJsonDocument::fromJson(line).object(); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void lockHoldsThenReleasesWithJsonEvents()
    {
        RawRedis raw(m_server.port());
        RawRedis ears(m_server.port());
        const QString name = uniqueName("cli-lock");
        ears.append({ "SUBSCRIBE", LockNames::lockChannel(name.toUtf8()) });
        ears.readReply(5000);
        QProcess p;
        startCli(p,
            QStringList { QStringLiteral("--json"), QStringLiteral("lock"), name, QStringLiteral("--hold"),
                QStringLiteral("60000") }
                + url());
        QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 10000);
        const QJsonObject acquired = json(p.readLine());
        QCOMPARE(acquired.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        QCOMPARE(acquired.value(QStringLiteral("name")).toString(), name);
        QCOMPARE(acquired.value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(acquired.value(QStringLiteral("ttl_ms")).toInt(), 30000);
        QVERIFY(acquired.value(QStringLiteral("ts")).toString().endsWith(QLatin1Char('Z')));
        const QByteArray owner = acquired.value(QStringLiteral("owner")).toString().toUtf8();
        QCOMPARE(raw.hgetall(name.toUtf8()), (QMap<QByteArray, QByteArray> { { owner, "1" } }));

        // A second holder is refused with exit code 1 and told who holds it.
        const Run busy = cli(QStringList { QStringLiteral("lock"), name } + url());
        CLI_REFUSED(busy, CliExit::NotDone, owner);

        // SIGTERM: a clean release that wakes waiters, not a lock left to expire.
        p.terminate();
        const Run ended = finishCli(p, 10000);
        CLI_EXIT(ended, CliExit::Done);
        const QJsonObject released = json(ended.out.trimmed().split('\n').last());
        QCOMPARE(released.value(QStringLiteral("event")).toString(), QStringLiteral("released"));
        QCOMPARE(raw.type(name.toUtf8()), "none");
        // The unlock latch is deleted before the process goes, not left to expire.
        QTRY_COMPARE(raw.command({ "KEYS", "redisson_unlock_latch:{" + name.toUtf8() + "}:*" }).size(), 0);
        const RedisValue message = ears.readReply(5000);
        QCOMPARE(message.at(2).bytes(), "0");
    }

    void watchPrintsLiveEvents()
    {
        RawRedis raw(m_server.port());
        const QString prefix = uniqueName("cli-watch");
        const QByteArray name = (prefix + QStringLiteral(":a")).toUtf8();
        QProcess watch;
        startCli(watch,
            QStringList { QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--pattern"),
                prefix + QLatin1Char('*'), QStringLiteral("--interval"), QStringLiteral("100") }
                + url());
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT((status += watch.readAllStandardError()).contains("watching 0 lock"), 10000);
        QVERIFY2(status.contains("wake-up messages"), status.constData()); // this server sends no keyspace events

        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "30000" });
        QTRY_VERIFY_WITH_TIMEOUT(watch.canReadLine(), 10000);
        const QJsonObject acquired = json(watch.readLine());
        QCOMPARE(acquired.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        QCOMPARE(acquired.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(acquired.value(QStringLiteral("owner")).toString(), QString::fromLatin1(kJavaOwner));
        QCOMPARE(acquired.value(QStringLiteral("count")).toInt(), 1);
        QVERIFY(acquired.value(QStringLiteral("ttl_ms")).toInt() > 20000);
        QVERIFY(acquired.value(QStringLiteral("ts")).toString().endsWith(QLatin1Char('Z')));

        // Released the way Redisson releases: deleted, and the waiters told.
        raw.command({ "DEL", name });
        raw.command({ "PUBLISH", LockNames::lockChannel(name), "0" });
        QTRY_VERIFY_WITH_TIMEOUT(watch.canReadLine(), 10000);
        const QJsonObject released = json(watch.readLine());
        QCOMPARE(released.value(QStringLiteral("event")).toString(), QStringLiteral("released"));
        QCOMPARE(released.value(QStringLiteral("owner")).toString(), QString::fromLatin1(kJavaOwner));

        watch.terminate();
        CLI_EXIT(finishCli(watch, 10000), CliExit::Done);
        CLI_EXIT(cli(QStringList { QStringLiteral("watch"), QStringLiteral("x") } + url()), CliExit::Usage);
    }

    void lockReleasesAtEndOfInput()
    {
        RawRedis raw(m_server.port());
        const QString name = uniqueName("cli-eof");
        QProcess p;
        startCli(p,
            QStringList { QStringLiteral("lock"), name, QStringLiteral("--lease"), QStringLiteral("60000") } + url());
        QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 10000);
        QVERIFY(p.readLine().startsWith("acquired"));
        QVERIFY(raw.pttl(name.toUtf8()) > 30000);
        p.closeWriteChannel();
        CLI_EXIT(finishCli(p, 10000), CliExit::Done);
        QCOMPARE(raw.type(name.toUtf8()), "none");
    }

    void interruptWhileWaitingLeavesNothingBehind()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-interrupt");
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QProcess p;
        startCli(p,
            QStringList {
                QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--wait"), QStringLiteral("60000") }
                + url());
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 1);
        ::kill(pid_t(p.processId()), SIGINT);
        CLI_REFUSED(finishCli(p, 10000), CliExit::NotDone, "interrupted (SIGINT)");
        // The Java holder still holds it, alone, and the waiter's subscription is gone with it.
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kJavaOwner, "1" } }));
        QCOMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 0);
    }

    void waitingLockGetsItWhenReleased()
    {
        const QString name = uniqueName("cli-wait");
        QProcess first, second;
        startCli(first,
            QStringList { QStringLiteral("lock"), name, QStringLiteral("--lease"), QStringLiteral("60000") } + url());
        QTRY_VERIFY_WITH_TIMEOUT(first.canReadLine(), 10000);
        startCli(second,
            QStringList { QStringLiteral("--json"), QStringLiteral("lock"), name, QStringLiteral("--wait"),
                QStringLiteral("60000"), QStringLiteral("--hold"), QStringLiteral("0") }
                + url());
        RawRedis raw(m_server.port());
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name.toUtf8()) }).at(1).toInteger(), 1);
        first.closeWriteChannel();
        CLI_EXIT(finishCli(first, 10000), CliExit::Done);
        // The 60 s lease of the first holder is far away: only the wake-up can make this finish before it.
        const Run waited = finishCli(second, 50000);
        CLI_EXIT(waited, CliExit::Done);
        const QList<QByteArray> lines = waited.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(json(lines.at(0)).value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        QCOMPARE(json(lines.at(1)).value(QStringLiteral("event")).toString(), QStringLiteral("released"));
    }

    void releaseOnBehalfOfAnOwner()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-release");
        raw.command({ "HSET", name, kJavaOwner, "2" });
        raw.command({ "PEXPIRE", name, "60000" });
        Run r = cli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                        QString::fromUtf8(kJavaOwner) }
            + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY(r.out.contains("still held (count 1)"));
        QCOMPARE(raw.hgetall(name).value(kJavaOwner), "1");
        // Releasing for someone else leaves the TTL as it was.
        QVERIFY(raw.pttl(name) > 50000);
        raw.command({ "HINCRBY", name, kJavaOwner, "1" });
        r = cli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                    QString::fromUtf8(kJavaOwner), QStringLiteral("--json") }
            + url());
        CLI_EXIT(r, CliExit::Done);
        // A hold that goes on reports its count and its remaining lease, not -2 (gone).
        const QJsonObject partly = json(r.out.trimmed());
        QCOMPARE(partly.value(QStringLiteral("count")).toInteger(), 1);
        QVERIFY2(partly.value(QStringLiteral("ttl_ms")).toInteger() > 50000, r.out.constData());
        r = cli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                    QString::fromUtf8(kJavaOwner), QStringLiteral("--json") }
            + url());
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(json(r.out.trimmed()).value(QStringLiteral("event")).toString(), QStringLiteral("released"));
        QCOMPARE(raw.type(name), "none");
        r = cli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                    QString::fromUtf8(kJavaOwner) }
            + url());
        CLI_REFUSED(r, CliExit::NotDone,
            "attempt to unlock lock, not locked by current thread by node id: "
            "6e3d30b7-83b1-433a-9335-5e8b9916d3ac thread-id: 731");
    }

    // Issue 15 points 8-11 in list, show, watch, release and force-release, with keys laid out as Redisson leaves
    // them: a stuck lock with no TTL, a look-alike user hash, a counter under a string lock pattern, a
    // transactional write lock and an orphaned fair queue.
    void forceReleaseIsGuardedAndAudited()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-force");
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        const QStringList base = QStringList { QStringLiteral("force-release"), QString::fromUtf8(name) } + url();

        // Not a terminal and no --yes: refused, nothing changed.
        Run r = cli(base);
        CLI_REFUSED(r, CliExit::Usage, "force-release needs --yes when standard input is not a terminal");
        QCOMPARE(raw.hgetall(name).value(kJavaOwner), "1");

        // Expected owner is someone else: refused with exit 1, nothing changed.
        r = cli(base
            + QStringList { QStringLiteral("--yes"), QStringLiteral("--expect-owner"),
                QStringLiteral("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1") });
        CLI_REFUSED(
            r, CliExit::NotDone, "is not held by 6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1 (held by " + kJavaOwner);
        QCOMPARE(raw.hgetall(name).value(kJavaOwner), "1");

        RawRedis ears(m_server.port());
        ears.append({ "SUBSCRIBE", LockNames::lockChannel(name) });
        ears.readReply(5000);
        r = cli(base
            + QStringList { QStringLiteral("--yes"), QStringLiteral("--expect-owner"), QString::fromUtf8(kJavaOwner),
                QStringLiteral("--json") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(json(r.out.trimmed()).value(QStringLiteral("event")).toString(), QStringLiteral("force-released"));
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.readReply(5000).at(2).bytes(), "0");

        QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QList<QByteArray> records = audit.readAll().trimmed().split('\n');
        const QJsonObject last = json(records.last());
        QCOMPARE(last.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(last.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(last.value(QStringLiteral("result")).toString(), QStringLiteral("deleted"));
        QVERIFY(QJsonDocument(last.value(QStringLiteral("holders_before")).toArray()).toJson().contains(kJavaOwner));
        QCOMPARE(json(records.at(records.size() - 2)).value(QStringLiteral("result")).toString(),
            QStringLiteral("unchanged"));
        QCOMPARE(json(records.at(records.size() - 2)).value(QStringLiteral("outcome")).toString(),
            QStringLiteral("guard-failed"));
        QCOMPARE(last.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));

        // Without --expect-owner, the holder that was shown is the guard, and the audit says so.
        raw.command({ "HSET", name, kJavaOwner, "1" });
        r = cli(base + QStringList { QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        audit.seek(0);
        const QJsonObject shown = json(audit.readAll().trimmed().split('\n').last());
        QCOMPARE(shown.value(QStringLiteral("guard")).toString(), QStringLiteral("shown-holders"));
        QCOMPARE(shown.value(QStringLiteral("expect_holders")).toArray(), QJsonArray { QString::fromUtf8(kJavaOwner) });
    }

    void forceReleaseOfAReadWriteLockNamesTheWriter()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-force-rw");
        const QByteArray writer = kJavaOwner + ":write";
        raw.command({ "HSET", name, "mode", "write", writer, "2" });
        raw.command({ "PEXPIRE", name, "60000" });
        const Run r = cli(QStringList { QStringLiteral("force-release"), QString::fromUtf8(name),
                              QStringLiteral("--yes"), QStringLiteral("--json") }
            + url());
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        // The event and the audit name the writer, never the hash's mode field.
        QCOMPARE(json(r.out.trimmed()).value(QStringLiteral("owner")).toString(), QString::fromUtf8(writer));
        QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QJsonObject last = json(audit.readAll().trimmed().split('\n').last());
        QCOMPARE(last.value(QStringLiteral("holders_before")).toArray(),
            (QJsonArray { QJsonObject {
                { QStringLiteral("owner"), QString::fromUtf8(writer) }, { QStringLiteral("count"), 2 } } }));
    }

    void readOnlyRefusesWithExitCode4()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-ro");
        Run r = cli(
            QStringList { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--read-only") } + url());
        CLI_REFUSED(r, CliExit::Refused, "read-only");
        QCOMPARE(raw.type(name), "none");
        raw.command({ "HSET", name, kJavaOwner, "1" });
        r = cli(QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                    QStringLiteral("--read-only") }
            + url());
        CLI_REFUSED(r, CliExit::Refused, "force-release refused: read-only mode");
        QCOMPARE(raw.hgetall(name).value(kJavaOwner), "1");
    }

    void connectionAndUsageErrors()
    {
        RedisServer gone;
        QVERIFY(gone.start());
        const QString deadUrl = gone.url();
        gone.stop();
        CLI_REFUSED(cli({ QStringLiteral("lock"), QStringLiteral("x"), QStringLiteral("--url"), deadUrl }),
            CliExit::Connect, "refused");
        CLI_EXIT(cli({ QStringLiteral("lock"), QStringLiteral("x"), QStringLiteral("--url"),
                     QStringLiteral("http://nope") }),
            CliExit::Usage);
        CLI_EXIT(cli(QStringList { QStringLiteral("frobnicate"), QStringLiteral("x") } + url()), CliExit::Usage);
        CLI_EXIT(cli(QStringList { QStringLiteral("lock") } + url()), CliExit::Usage);
        CLI_EXIT(cli(QStringList { QStringLiteral("lock"), QStringLiteral("x"), QStringLiteral("--lease"),
                         QStringLiteral("5"), QStringLiteral("--watchdog") }
                     + url()),
            CliExit::Usage);
        CLI_EXIT(cli(QStringList { QStringLiteral("lock"), QString() } + url()), CliExit::Usage);
        CLI_EXIT(cli(QStringList { QStringLiteral("release"), QStringLiteral("x") } + url()), CliExit::Usage);
        // Options that would be ignored are refused instead: TLS settings on a plain URL, a timeout that is no number.
        for (const QStringList &tls : { QStringList { QStringLiteral("--tls-insecure") },
                 QStringList { QStringLiteral("--tls-server-name"), QStringLiteral("redis.example") },
                 QStringList { QStringLiteral("--tls-key"), QStringLiteral("/nonexistent.key") } }) {
            const Run r = cli(QStringList { QStringLiteral("list") } + url() + tls);
            CLI_REFUSED(r, CliExit::Usage, "rediss://");
        }
        for (const QString &timeout : { QStringLiteral("abc"), QStringLiteral("0") }) {
            const Run r
                = cli(QStringList { QStringLiteral("list"), QStringLiteral("--connect-timeout"), timeout } + url());
            CLI_REFUSED(r, CliExit::Usage, "--connect-timeout");
        }
    }

    void quickExitWithClosedInputNeverCrashes()
    {
        // End of input used to reach the application from a reader thread while it was being torn down: a usage
        // error, answered at once, crashed about one run in three hundred. Every run must end with its exit code.
        for (int i = 0; i < 60; ++i) {
            const Run r = cli(QStringList { QStringLiteral("lock"), QString() } + url());
            CLI_EXIT(r, CliExit::Usage);
        }
    }

    void passwordComesFromEnvironmentOrStdin()
    {
        RedisServer secured(
            RedisServerOptions { { QStringLiteral("--requirepass"), QStringLiteral("pa55") }, false, false, {} });
        QVERIFY(secured.start());
        const QString name = uniqueName("cli-auth");
        const QStringList base { QStringLiteral("lock"), name, QStringLiteral("--hold"), QStringLiteral("0"),
            QStringLiteral("--url"), secured.url() };
        CLI_REFUSED(cli(base), CliExit::Connect, "NOAUTH");
        qputenv("LOCKSCOPE_TEST_PW", "wrong");
        CLI_REFUSED(cli(base + QStringList { QStringLiteral("--password-env"), QStringLiteral("LOCKSCOPE_TEST_PW") }),
            CliExit::Connect, "WRONGPASS");
        qputenv("LOCKSCOPE_TEST_PW", "pa55");
        CLI_EXIT(cli(base + QStringList { QStringLiteral("--password-env"), QStringLiteral("LOCKSCOPE_TEST_PW") }),
            CliExit::Done);
        CLI_EXIT(cli(base + QStringList { QStringLiteral("--password-stdin") }, "pa55\n"), CliExit::Done);
    }

    void wrongTypeNameIsAClearError()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-wrongtype");
        raw.command({ "SET", name, "app data" });
        const Run r = cli(QStringList { QStringLiteral("lock"), QString::fromUtf8(name) } + url());
        CLI_REFUSED(r, CliExit::NotDone, "holds a string");
        QCOMPARE(raw.get(name), "app data");
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
