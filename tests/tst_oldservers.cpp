// Older servers than the 7.0 installed here, emulated: a real redis-server 7.0 with commands renamed away, behind the
// fault proxy answering what an older version answers (FaultProxy::redis5, redis6). Redis 5.0 has no SCAN ... TYPE;
// before 7.0 there is no sharded pub/sub, and a script that fails midway keeps the writes it already made.
#include "clirun.h"
#include "faultproxy.h"
#include "kinds/keyglob.h"
#include "kinds/locknames.h"
#include "kinds/lockscanner.h"
#include "rawredis.h"
#include "redis/connectionoptions.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kJavaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kToken = "0b6a2f4e-3c1d-4e5f-8a9b-7c6d5e4f3a2b";
} // namespace

class TestOldServers : public QObject
{
    Q_OBJECT
    RedisServer m_server; // behind a Redis 5.0 proxy
    RedisServer m_noShards { RedisServerOptions { FaultProxy::withoutShardedPubSub() } };
    QTemporaryDir m_dir;

    void startCli(QProcess &p, const QStringList &args) const { Test::startCli(p, args, m_dir); }

    // The CLI runs in its own process while the proxy lives on this thread's event loop: wait by spinning it. -1
    // (and the test has failed, with the CLI's standard error) when it crashed or hung.
    int cli(const QStringList &args, QByteArray *out = nullptr, QByteArray *err = nullptr)
    {
        const CliRun r = runCli(args, m_dir, {}, CliWait::ServeEvents);
        if (out)
            *out = r.out;
        if (err)
            *err = r.err;
        return r.exitCode;
    }

    // Redisson locks, string locks and what must not be listed, in the default string lock patterns' reach too.
    void writeMixedKeys(RawRedis &raw, const QByteArray &p)
    {
        for (const QByteArray &name : { p + "orders", "lock:" + p + "hash" }) { // a hash under a string pattern too
            raw.command({ "HSET", name, kJavaOwner, "1" });
            raw.command({ "PEXPIRE", name, "60000" });
        }
        raw.command({ "SET", "lock:" + p + "a", kToken, "PX", "60000" });
        raw.command({ "SET", "mutex:" + p + "b", kToken, "PX", "60000" });
        raw.command({ "SET", p + "c:lock", kToken, "PX", "60000" });
        raw.command({ "SET", p + "setting", "on" }); // a string outside every string lock pattern
        raw.command({ "RPUSH", "lock:" + p + "list", "x" }); // neither hash nor string
        raw.command({ "HSET", "lock:" + p + "profile", "name", "x" }); // a user hash
    }

    QList<QByteArray> expectedLocks(const QByteArray &p) const
    {
        return { p + "orders", "lock:" + p + "hash", "lock:" + p + "a", "mutex:" + p + "b", p + "c:lock" };
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY2(m_noShards.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        RawRedis(m_server.port()).command({ "FLUSHALL" });
        RawRedis(m_noShards.port()).command({ "FLUSHALL" });
    }

    // Redis 5 refuses a wrong password with a plain ERR (no WRONGPASS code): still an authentication failure, told
    // as one and not retried, because the refusal answers AUTH.
    void wrongPasswordInRedis5WordsIsAnAuthError()
    {
        FaultProxy proxy(m_server.port());
        proxy.setAnswers([](const QList<QByteArray> &argv) {
            if (argv.value(0).toUpper() == "AUTH")
                return FaultProxy::errorReply("ERR invalid password");
            return FaultProxy::redis5(argv);
        });
        QVERIFY(proxy.listen());
        ConnectionOptions options = ConnectionOptions::fromUrl(proxy.url());
        options.password = "not-it";
        RedisConnection connection(options);
        std::optional<RedisResult> reply;
        connection.command({ "PING" }, [&](const RedisResult &r) { reply = r; });
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 20000);
        QCOMPARE(reply->error.kind(), RedisError::Kind::Auth);
        QCOMPARE(connection.state(), RedisConnection::State::Closed);
        QCOMPARE(proxy.answered(), 1);
    }

    // The default plan, one untyped walk sorted by TYPE, never asks for SCAN ... TYPE. The typed plan's cursors (the
    // hash cursor, the string cursor every pattern shares, the sorted-set cursor) fall back on their own when the
    // server refuses it. Either way each key is read by exactly one cursor.
    void scannerWithoutScanType_data()
    {
        QTest::addColumn<bool>("typedWalks");
        QTest::newRow("untyped walk") << false;
        QTest::newRow("typed walks") << true;
    }
    void scannerWithoutScanType()
    {
        QFETCH(bool, typedWalks);
        FaultProxy proxy(m_server.port());
        proxy.setAnswers(&FaultProxy::redis5);
        QVERIFY(proxy.listen());
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("scan5") + "-";
        writeMixedKeys(raw, p);

        RedisConnection connection(ConnectionOptions::fromUrl(proxy.url()));
        LockScanner::Options options;
        options.count = 3; // several SCAN rounds per cursor
        options.typedWalks = typedWalks;
        options.stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
        LockScanner scanner(&connection, options);
        QMap<QByteArray, int> found;
        connect(&scanner, &LockScanner::locksFound, this, [&](const QList<LockInfo> &locks) {
            for (const LockInfo &l : locks)
                ++found[l.name];
        });
        QSignalSpy finished(&scanner, &LockScanner::finished);
        for (int pass = 0; pass < 2; ++pass) { // the second pass starts without TYPE
            found.clear();
            finished.clear();
            scanner.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
            const RedisError error = finished.at(0).at(0).value<RedisError>();
            QVERIFY2(!error.isError(), qPrintable(error.toString()));
            QMap<QByteArray, int> once;
            for (const QByteArray &name : expectedLocks(p))
                once.insert(name, 1);
            QCOMPARE(found, once);
        }
        if (typedWalks)
            QVERIFY(proxy.answered() >= 2); // the hash and string cursors were each refused TYPE once
        else
            QCOMPARE(proxy.answered(), 0);
    }

    void cliListAndWatchWithoutScanType()
    {
        FaultProxy proxy(m_server.port());
        proxy.setAnswers(&FaultProxy::redis5);
        QVERIFY(proxy.listen());
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("cli5") + "-";
        writeMixedKeys(raw, p);

        QByteArray out, err;
        QCOMPARE(
            cli({ QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--url"), proxy.url() }, &out, &err),
            0);
        QMap<QByteArray, int> listed;
        const QJsonArray locks = QJsonDocument::fromJson(out).array();
        for (const QJsonValue &l : locks)
            ++listed[l[QLatin1String("name")].toString().toUtf8()];
        QMap<QByteArray, int> once;
        for (const QByteArray &name : expectedLocks(p))
            once.insert(name, 1);
        QCOMPARE(listed, once);
        QCOMPARE(proxy.answered(), 0); // its one walk sends no SCAN ... TYPE

        QProcess watch;
        startCli(watch,
            { QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--interval"), QStringLiteral("100"),
                QStringLiteral("--url"), proxy.url() });
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT((status += watch.readAllStandardError()).contains("watching 5 lock"), 20000);
        const QByteArray name = p + "new";
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "30000" });
        QByteArray events;
        QTRY_VERIFY_WITH_TIMEOUT((events += watch.readAllStandardOutput()).contains(name), 20000);
        bool acquired = false;
        for (const QByteArray &line : events.split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            acquired = acquired
                || (e[QLatin1String("event")].toString() == QLatin1String("acquired")
                    && e[QLatin1String("name")].toString().toUtf8() == name);
        }
        QVERIFY2(acquired, events.constData());
        QCOMPARE(watch.state(), QProcess::Running);
        watch.terminate();
        CLI_EXIT(finishCli(watch, 10000, CliWait::ServeEvents), CliExit::Done);
    }

    // An explicit sharded mode is refused before anything is written: the release scripts delete first and publish
    // last, and a server before 7.0 stops at SPUBLISH with the delete kept.
    void shardedPublishRefusedWithoutShardedPubSub()
    {
        FaultProxy proxy(m_noShards.port());
        proxy.setAnswers(&FaultProxy::redis6);
        QVERIFY(proxy.listen());
        RawRedis raw(m_noShards.port());
        const QByteArray name = uniqueKey("sharded6");
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        const QMap<QByteArray, QByteArray> before = raw.hgetall(name);

        // Through the proxy (no PUBSUB SHARDNUMSUB, as on 6.x) and straight to the server (COMMAND INFO SPUBLISH
        // answers nil): each probe alone tells.
        for (const QString &url : { proxy.url(), m_noShards.url() }) {
            QByteArray err;
            QCOMPARE(cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--publish-mode"),
                             QStringLiteral("sharded"), QStringLiteral("--yes"), QStringLiteral("--url"), url },
                         nullptr, &err),
                2);
            QVERIFY2(err.contains("sharded pub/sub") && err.contains("nothing was changed"), err.constData());
            QCOMPARE(raw.hgetall(name), before);
            QCOMPARE(cli({ QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                             QString::fromLatin1(kJavaOwner), QStringLiteral("--publish-mode"),
                             QStringLiteral("sharded"), QStringLiteral("--url"), url },
                         nullptr, &err),
                2);
            QVERIFY2(err.contains("sharded pub/sub"), err.constData());
            QCOMPARE(raw.hgetall(name), before);
            QVERIFY(raw.pttl(name) > 0);
            // Nor is a hold taken whose release could not run.
            const QByteArray other = name + "-other";
            QCOMPARE(
                cli({ QStringLiteral("lock"), QString::fromUtf8(other), QStringLiteral("--hold"), QStringLiteral("0"),
                        QStringLiteral("--publish-mode"), QStringLiteral("sharded"), QStringLiteral("--url"), url },
                    nullptr, &err),
                2);
            QVERIFY2(err.contains("sharded pub/sub"), err.constData());
            QCOMPARE(raw.type(other), "none");
        }
    }

    // Queue repair counts listeners in both namespaces; a server with no SHARDNUMSUB answers 0 from the shard one
    // instead of failing the repair. An explicit "sharded" is refused before any waiter is removed.
    void queueRepairOnAServerWithoutShardedPubSub()
    {
        FaultProxy proxy(m_noShards.port());
        proxy.setAnswers(&FaultProxy::redis6);
        QVERIFY(proxy.listen());
        RawRedis raw(m_noShards.port());
        RawRedis ears(m_noShards.port());
        const QByteArray name = uniqueKey("repair6");
        const QByteArray live = "0b6e3d30-83b1-433a-9335-5e8b9916d3ac:1";
        const QByteArray dead = "1c6e3d30-83b1-433a-9335-5e8b9916d3ac:2";
        const QByteArray deadline = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        raw.command({ "RPUSH", LockNames::fairQueue(name), dead, live });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), deadline, dead, deadline, live });
        ears.append({ "SUBSCRIBE", LockNames::fairChannel(name, live) });
        ears.readReply(5000);
        QByteArray err;
        QCOMPARE(cli({ QStringLiteral("repair-queue"), QString::fromUtf8(name), QStringLiteral("--yes"),
                         QStringLiteral("--recheck"), QStringLiteral("50"), QStringLiteral("--publish-mode"),
                         QStringLiteral("sharded"), QStringLiteral("--url"), proxy.url() },
                     nullptr, &err),
            2);
        QVERIFY2(err.contains("sharded pub/sub"), err.constData());
        QCOMPARE(raw.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" }).size(), 2);
        QCOMPARE(cli({ QStringLiteral("repair-queue"), QString::fromUtf8(name), QStringLiteral("--yes"),
                         QStringLiteral("--recheck"), QStringLiteral("50"), QStringLiteral("--url"), proxy.url() },
                     nullptr, &err),
            0);
        const RedisValue queue = raw.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" });
        QCOMPARE(queue.size(), 1);
        QCOMPARE(queue.at(0).bytes(), live);
    }

    // "both" falls back to plain PUBLISH, says so, and wakes a plain waiter.
    void bothPublishesPlainlyWithoutShardedPubSub()
    {
        FaultProxy proxy(m_noShards.port());
        proxy.setAnswers(&FaultProxy::redis6);
        QVERIFY(proxy.listen());
        RawRedis raw(m_noShards.port());
        RawRedis ears(m_noShards.port());
        for (const QString &command : { QStringLiteral("release"), QStringLiteral("force-release") }) {
            const QByteArray name = uniqueKey("both6");
            raw.command({ "HSET", name, kJavaOwner, "1" });
            raw.command({ "PEXPIRE", name, "60000" });
            ears.append({ "SUBSCRIBE", LockNames::lockChannel(name) });
            ears.readReply(5000);
            QStringList args { command, QString::fromUtf8(name), QStringLiteral("--publish-mode"),
                QStringLiteral("both"), QStringLiteral("--url"), proxy.url() };
            args << (command == QLatin1String("release")
                    ? QStringList { QStringLiteral("--owner"), QString::fromLatin1(kJavaOwner) }
                    : QStringList { QStringLiteral("--yes") });
            QByteArray err;
            QCOMPARE(cli(args, nullptr, &err), 0);
            QVERIFY2(err.contains("plain PUBLISH only"), err.constData());
            QCOMPARE(raw.type(name), "none");
            const RedisValue message = ears.readReply(5000);
            QCOMPARE(message.at(0).bytes(), "message");
            QCOMPARE(message.at(2).bytes(), "0");
            ears.append({ "UNSUBSCRIBE", LockNames::lockChannel(name) });
            ears.readReply(5000);
        }
    }
};

QTEST_GUILESS_MAIN(TestOldServers)
#include "tst_oldservers.moc"
