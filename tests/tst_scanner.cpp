// Discovery on a real server: every kind seeded through the real client, among noise keys (plain hashes,
// look-alikes, strings, lists), found exactly once each and classified; by a read-only connection and by an ACL
// user that may only read, subscribe and ping.
#include "clirun.h"
#include "kinds/lockscanner.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest request(const QByteArray &name, LockMode kind, QByteArray token, qint64 waitMs = 0)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.token = std::move(token);
    r.leaseMs = 60000;
    r.waitMs = waitMs;
    return r;
}

QMap<QByteArray, LockInfo> scan(
    const ConnectionOptions &options, const QByteArray &pattern, RedisError *error, bool typeFilter = true)
{
    RedisConnection connection(options);
    // A small COUNT: several SCAN rounds, several batches. Without the TYPE filter (as on Redis before 6) the
    // strings and lists reach the per-key reads and must be dropped there.
    LockScanner scanner(&connection, { pattern, 7, typeFilter, false, {} });
    QMap<QByteArray, LockInfo> found;
    int duplicates = 0;
    QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
        for (const LockInfo &l : locks) {
            duplicates += found.contains(l.name) ? 1 : 0;
            found.insert(l.name, l);
        }
    });
    QSignalSpy finished(&scanner, &LockScanner::finished);
    scanner.start();
    [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000); }();
    *error = finished.value(0).value(0).value<RedisError>();
    [&] { QCOMPARE(duplicates, 0); }();
    return found;
}
} // namespace

class TestScanner : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { // The monitor's least privilege: reads, pub/sub and PING; not a single write, not even MULTI.
            QStringLiteral("--user"), QStringLiteral("monitor"), QStringLiteral("on"), QStringLiteral(">monpw"),
            QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@read"), QStringLiteral("+@pubsub"),
            QStringLiteral("+ping"), QStringLiteral("+info"), QStringLiteral("+config|get"), QStringLiteral("-@write"),
            QStringLiteral("--user"), QStringLiteral("default"), QStringLiteral("on"), QStringLiteral("nopass"),
            QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@all") } } };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void findsExactlyTheSeededLocks()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        const QByteArray p = uniqueKey("scan") + ":";
        LockClient a(options), b(options);
        RawRedis raw(m_server.port());
        const auto take = [&](LockClient &c, const AcquireRequest &r) {
            const AcquireResult res = await<AcquireResult>([&](auto d) { c.acquire(r, d); });
            QVERIFY2(res.acquired, qPrintable(r.name));
        };
        take(a, request(p + "reentrant", LockMode::Reentrant, "1"));
        // A waiter listening on its channel: what vouches for it beyond its shape (high confidence).
        b.acquire(request(p + "reentrant", LockMode::Reentrant, "3", 60000), [](const AcquireResult &) {});
        take(a, request(p + "fenced", LockMode::Fenced, "1"));
        take(a, request(p + "fair", LockMode::Fair, "1"));
        b.acquire(request(p + "fair", LockMode::Fair, "2", 60000), [](const AcquireResult &) {});
        take(a, request(p + "read", LockMode::Read, "1"));
        take(b, request(p + "read", LockMode::Read, "1"));
        take(a, request(p + "write", LockMode::Write, "1"));
        QTRY_COMPARE(raw.command({ "LLEN", "redisson_lock_queue:{" + p + "fair}" }).toInteger(), 1);
        QTRY_COMPARE(
            raw.command({ "PUBSUB", "NUMSUB", "redisson_lock__channel:{" + p + "reentrant}" }).at(1).toInteger(), 1);
        // Noise: none of these is a lock.
        raw.command({ "HSET", p + "user", "name", "Ada", "lang", "en" });
        raw.command({ "HSET", p + "lookalike", a.ownerField("7"), "yes" });
        raw.command({ "PEXPIRE", p + "lookalike", "60000" });
        raw.command({ "HSET", p + "sessions", a.ownerField("7"), "3", b.ownerField("8"), "9" });
        raw.command({ "PEXPIRE", p + "sessions", "60000" });
        raw.command({ "HSET", p + "persisted-shape", a.ownerField("7"), "1" });
        raw.command({ "SET", p + "string", "x" });
        raw.command({ "RPUSH", p + "list", "x" });
        for (int i = 0; i < 40; ++i)
            raw.command({ "HSET", p + "bulk:" + QByteArray::number(i), "f", "v" });

        for (const int variant : { 0, 1, 2 }) {
            const bool leastPrivilege = variant == 1;
            ConnectionOptions o = options;
            o.readOnly = true;
            if (leastPrivilege) {
                o.user = "monitor";
                o.password = "monpw";
            }
            RedisError error;
            const QMap<QByteArray, LockInfo> found = scan(o, p + "*", &error, variant != 2);
            QVERIFY2(!error.isError(), qPrintable(error.toString()));
            // persisted-shape is a lock hash nobody set a TTL on: the stuck lock of issue 15 point 8.
            QCOMPARE(found.keys(),
                (QList<QByteArray> {
                    p + "fair", p + "fenced", p + "persisted-shape", p + "read", p + "reentrant", p + "write" }));
            QCOMPARE(found.value(p + "persisted-shape").confidence, LockInfo::Confidence::Low);
            QCOMPARE(found.value(p + "reentrant").kind, LockInfo::Kind::Reentrant);
            QCOMPARE(found.value(p + "reentrant").confidence, LockInfo::Confidence::High);
            QCOMPARE(found.value(p + "fenced").kind, LockInfo::Kind::Fenced);
            QCOMPARE(found.value(p + "fair").kind, LockInfo::Kind::Fair);
            QCOMPARE(found.value(p + "read").kind, LockInfo::Kind::ReadWrite);
            QCOMPARE(found.value(p + "read").mode, "read");
            QCOMPARE(found.value(p + "read").holders.size(), 2);
            QVERIFY(found.value(p + "read").warnings.isEmpty()); // both readers' timeout keys are alive
            QCOMPARE(found.value(p + "write").mode, "write");
            QCOMPARE(found.value(p + "reentrant").holders.at(0).owner, a.ownerField("1"));
        }
    }

    void cliListAndShow()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        const QByteArray p = uniqueKey("cli-list") + ":";
        LockClient a(options);
        RawRedis raw(m_server.port());
        QVERIFY(await<AcquireResult>([&](auto d) {
            a.acquire(request(p + "orders", LockMode::Reentrant, "731"), d);
        }).acquired);
        QVERIFY(
            await<AcquireResult>([&](auto d) { a.acquire(request(p + "report", LockMode::Read, "1"), d); }).acquired);
        // A waiter listening on orders' channel vouches for it: high confidence, not just its shape.
        LockClient b(options);
        b.acquire(request(p + "orders", LockMode::Reentrant, "9", 60000), [](const AcquireResult &) {});
        QTRY_COMPARE(
            raw.command({ "PUBSUB", "NUMSUB", "redisson_lock__channel:{" + p + "orders}" }).at(1).toInteger(), 1);
        raw.command({ "SET", p + "app", "data" });
        // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves the exit code -1.
        const QTemporaryDir dir; // the CLI's audit log
        const auto cli = [&](const QStringList &args) {
            QProcessEnvironment env = cliEnvironment(dir);
            env.insert(QStringLiteral("MONITOR_PW"), QStringLiteral("monpw"));
            const CliRun r = runCli(args.contains(QStringLiteral("--url"))
                    ? args
                    : args + QStringList { QStringLiteral("--url"), m_server.url() },
                env);
            if (!r.err.isEmpty())
                qWarning("%s", r.err.constData());
            return qMakePair(r.exitCode, r.out);
        };
        // As the least-privilege monitor user, with the password from the environment.
        const auto listed = cli(
            { QStringLiteral("list"), QStringLiteral("--pattern"), QString::fromUtf8(p + "*"), QStringLiteral("--json"),
                QStringLiteral("--url"), QStringLiteral("redis://monitor@127.0.0.1:%1").arg(m_server.port()),
                QStringLiteral("--password-env"), QStringLiteral("MONITOR_PW") });
        QCOMPARE(listed.first, 0);
        const QJsonArray locks = QJsonDocument::fromJson(listed.second).array();
        QCOMPARE(locks.size(), 2);
        const QJsonObject orders = locks.at(0).toObject();
        QCOMPARE(orders.value(QStringLiteral("name")).toString(), QString::fromUtf8(p + "orders"));
        QCOMPARE(orders.value(QStringLiteral("kind")).toString(), QStringLiteral("reentrant"));
        QVERIFY(orders.value(QStringLiteral("mode")).isNull());
        QCOMPARE(orders.value(QStringLiteral("confidence")).toString(), QStringLiteral("high"));
        const QJsonObject holder = orders.value(QStringLiteral("holders")).toArray().at(0).toObject();
        QCOMPARE(holder.value(QStringLiteral("client")).toString(), QString::fromLatin1(a.clientId()));
        QCOMPARE(holder.value(QStringLiteral("thread")).toString(), QStringLiteral("731"));
        QCOMPARE(holder.value(QStringLiteral("count")).toInt(), 1);
        QVERIFY(orders.value(QStringLiteral("ttl_ms")).toInt() > 0);
        QCOMPARE(locks.at(1).toObject().value(QStringLiteral("mode")).toString(), QStringLiteral("read"));

        const auto shown = cli({ QStringLiteral("show"), QString::fromUtf8(p + "report"), QStringLiteral("--json") });
        QCOMPARE(shown.first, 0);
        QCOMPARE(QJsonDocument::fromJson(shown.second).object().value(QStringLiteral("kind")).toString(),
            QStringLiteral("readwrite"));
        QCOMPARE(cli({ QStringLiteral("show"), QString::fromUtf8(p + "app") }).first, 1);
        QCOMPARE(cli({ QStringLiteral("show"), QString::fromUtf8(p + "missing") }).first, 1);
    }

    // Issue 15 points 8-11, with keys laid out exactly as Redisson leaves them: a stuck lock with no TTL, a look-alike
    // user hash, a counter under a string lock pattern, a transactional write lock, and fair queues with no hash.
    void layoutsRedissonLeaves()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("layouts") + ":";
        const QByteArray owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
        const QByteArray waiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "HSET", p + "stuck", owner, "1" }); // no TTL, nobody listening
        raw.command({ "HSET", p + "session", owner, "1" }); // user data that looks like a lock
        raw.command({ "PEXPIRE", p + "session", "60000" });
        raw.command({ "SET", "lock:" + p + "pool", "5", "PX", "60000" }); // semaphore permits
        raw.command({ "HSET", p + "tx", "mode", "write", owner + ":write:0123456789abcdef0123456789abcdef", "1" });
        raw.command({ "PEXPIRE", p + "tx", "60000" });
        // A jammed queue: its lock hash gone, its dead head's deadline passed; and a deadline set on its own.
        raw.command({ "RPUSH", "redisson_lock_queue:{" + p + "orphan}", waiter, owner });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + p + "orphan}", QByteArray::number(now - 1000), waiter,
            QByteArray::number(now + 300000), owner });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + p + "zsetonly}", QByteArray::number(now + 300000), waiter });
        // A fair lock with its hash and queue: listed once, as a lock with a holder.
        raw.command({ "HSET", p + "fair", owner, "1" });
        raw.command({ "PEXPIRE", p + "fair", "60000" });
        raw.command({ "RPUSH", "redisson_lock_queue:{" + p + "fair}", waiter });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + p + "fair}", QByteArray::number(now + 300000), waiter });

        ConnectionOptions o = ConnectionOptions::fromUrl(m_server.url());
        o.readOnly = true;
        for (const bool typeFilter : { true, false }) {
            RedisConnection connection(o);
            LockScanner scanner(&connection, { "*" + p + "*", 7, typeFilter, false, StringLockPatterns({ "lock:*" }) });
            QMap<QByteArray, LockInfo> found;
            int duplicates = 0;
            QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
                for (const LockInfo &l : locks) {
                    duplicates += found.contains(l.name) ? 1 : 0;
                    found.insert(l.name, l);
                }
            });
            QSignalSpy finished(&scanner, &LockScanner::finished);
            scanner.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
            QVERIFY(!finished.at(0).at(0).value<RedisError>().isError());
            QCOMPARE(duplicates, 0);
            QCOMPARE(found.keys(),
                (QList<QByteArray> { p + "fair", p + "orphan", p + "session", p + "stuck", p + "tx", p + "zsetonly" }));

            const LockInfo stuck = found.value(p + "stuck");
            QCOMPARE(stuck.kind, LockInfo::Kind::Reentrant);
            QCOMPARE(stuck.ttlMs, qint64(-1));
            QCOMPARE(stuck.confidence, LockInfo::Confidence::Low);
            QVERIFY(stuck.warnings.value(0).contains(QLatin1String("never expires")));

            QCOMPARE(found.value(p + "session").confidence, LockInfo::Confidence::Low);
            QVERIFY(!lowConfidenceText(found.value(p + "session")).isEmpty());

            const LockInfo tx = found.value(p + "tx");
            QCOMPARE(tx.kind, LockInfo::Kind::ReadWrite);
            QCOMPARE(tx.mode, "write");
            QVERIFY(tx.holders.value(0).writer);
            QVERIFY(tx.evidence.join(QLatin1Char(' ')).contains(QLatin1String("transactional")));

            const LockInfo orphan = found.value(p + "orphan");
            QCOMPARE(orphan.kind, LockInfo::Kind::Fair);
            QVERIFY(orphan.holders.isEmpty());
            QCOMPARE(orphan.queue.size(), 2);
            QCOMPARE(orphan.queue.at(0).first, waiter);
            const QString warnings = orphan.warnings.join(QLatin1Char(' '));
            QVERIFY(warnings.contains(QLatin1String("orphaned")));
            QVERIFY(warnings.contains(QLatin1String("repair-queue")));
            QVERIFY(warnings.contains(QLatin1String("jammed")));
            QCOMPARE(found.value(p + "zsetonly").queue.size(), 1);

            QCOMPARE(found.value(p + "fair").holders.size(), 1);
            QCOMPARE(found.value(p + "fair").queue.size(), 1);
        }

        // Reading names (show NAME, the monitor's refresh): the same answers, and a "{X}" reading of the queue's
        // key is not a second lock.
        RedisConnection connection(o);
        LockScanner reader(&connection, { "*", 7, true, false, StringLockPatterns({ "lock:*" }) });
        QMap<QByteArray, LockInfo> read;
        QObject::connect(&reader, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
            for (const LockInfo &l : locks)
                read.insert(l.name, l);
        });
        QSignalSpy finished(&reader, &LockScanner::finished);
        reader.readKeys({ p + "orphan", "{" + p + "orphan}", p + "stuck", "lock:" + p + "pool", p + "missing" });
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(read.keys(), (QList<QByteArray> { p + "orphan", p + "stuck" }));
        QCOMPARE(read.value(p + "orphan").kind, LockInfo::Kind::Fair);
    }

    void deadReaderIsReported()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("scan-dead") + ":rw";
        raw.command({ "HSET", name, "mode", "read", "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:99", "2" });
        raw.command({ "PEXPIRE", name, "60000" });
        ConnectionOptions o = ConnectionOptions::fromUrl(m_server.url());
        o.readOnly = true;
        RedisError error;
        const QMap<QByteArray, LockInfo> found = scan(o, name, &error);
        QCOMPARE(found.size(), 1);
        QVERIFY(found.first().holders.at(0).deadReader);
        QVERIFY(!found.first().warnings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestScanner)
#include "tst_scanner.moc"
