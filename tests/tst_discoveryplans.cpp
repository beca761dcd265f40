// Discovery reads a lock hash's aux keys (a fencing token, a fair queue and its deadlines, readers' timeout keys) in
// one of two ways: with each batch, as the monitor's passes do, or once the walk has returned every key, and then
// only the keys it returned (lockscope-cli list: deferAuxReads). Both give the same locks, seen as a user sees them;
// the second sends no read for an aux key the walk never returned, and no PTTL for a hash that is user data.
#include "kinds/locknames.h"
#include "kinds/lockscanner.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

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
    r.leaseMs = 600000;
    r.waitMs = waitMs;
    return r;
}

// Everything a user sees of a lock but the TTL's exact value, which moves between two reads.
QString seen(const LockInfo &l)
{
    QStringList parts { QString::fromUtf8(l.name), QString::fromUtf8(LockInfo::kindName(l.kind)),
        QString::fromUtf8(l.library), QString::fromUtf8(l.mode),
        QString::fromUtf8(LockInfo::confidenceName(l.confidence)), QString::number(l.waiters),
        QString::number(l.counter), l.ttlMs > 0 ? QStringLiteral("ttl") : QString::number(l.ttlMs) };
    for (const LockHolder &h : l.holders)
        parts << QStringLiteral("holder %1 x%2%3%4")
                     .arg(QString::fromUtf8(h.owner))
                     .arg(h.count)
                     .arg(h.writer ? QStringLiteral(" writer") : QString())
                     .arg(h.deadReader ? QStringLiteral(" dead") : QString());
    for (const auto &[owner, deadline] : l.queue)
        parts << QStringLiteral("queued %1 until %2").arg(QString::fromUtf8(owner)).arg(deadline);
    parts << l.evidence << l.warnings;
    return parts.join(QLatin1Char('|'));
}

QMap<QByteArray, QString> scanAll(const ConnectionOptions &options, bool defer)
{
    RedisConnection connection(options);
    LockScanner::Options o;
    o.pattern = "*";
    o.count = 5; // many SCAN pages: aux keys come both before and after their lock hashes
    o.stringPatterns = StringLockPatterns({ "lock:*" });
    o.deferAuxReads = defer;
    LockScanner scanner(&connection, o);
    QMap<QByteArray, QString> found;
    int duplicates = 0;
    QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
        for (const LockInfo &l : locks) {
            duplicates += found.contains(l.name) ? 1 : 0;
            found.insert(l.name, seen(l));
        }
    });
    QSignalSpy finished(&scanner, &LockScanner::finished);
    scanner.start();
    [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000); }();
    const RedisError error = finished.value(0).value(0).value<RedisError>();
    [&] { QVERIFY2(!error.isError(), qPrintable(error.toString())); }();
    [&] { QCOMPARE(duplicates, 0); }();
    return found;
}

// How many times the server ran a command since the last CONFIG RESETSTAT (INFO commandstats).
qint64 calls(RawRedis &raw, const QByteArray &command)
{
    const QByteArray stats = raw.command({ "INFO", "commandstats" }).bytes();
    const QByteArray marker = "cmdstat_" + command + ":calls=";
    const qsizetype at = stats.indexOf(marker);
    if (at < 0)
        return 0;
    const qsizetype from = at + marker.size();
    return stats.mid(from, stats.indexOf(',', from) - from).toLongLong();
}
} // namespace

class TestDiscoveryPlans : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void bothWaysFindTheSameLocks()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        LockClient a(options), b(options);
        RawRedis raw(m_server.port());
        const auto take = [&](LockClient &c, const AcquireRequest &r) {
            const AcquireResult res = await<AcquireResult>([&](auto d) { c.acquire(r, d); });
            QVERIFY2(res.acquired, qPrintable(r.name));
        };
        // Several of each, so that some aux keys come before their lock hash in the walk and some after it.
        for (int i = 0; i < 6; ++i) {
            const QByteArray p = "plans:" + QByteArray::number(i) + ":";
            take(a, request(p + "reentrant", LockMode::Reentrant, "1"));
            take(a, request(p + "fenced", LockMode::Fenced, "1"));
            take(a, request(p + "fair", LockMode::Fair, "1"));
            b.acquire(request(p + "fair", LockMode::Fair, "2", 600000), [](const AcquireResult &) {});
            take(a, request(p + "read", LockMode::Read, "1"));
            take(b, request(p + "read", LockMode::Read, "1"));
            take(a, request(p + "write", LockMode::Write, "1"));
            QTRY_COMPARE(raw.command({ "LLEN", "redisson_lock_queue:{" + p + "fair}" }).toInteger(), 1);
            // A read lock whose reader's timeout key is gone: a dead reader.
            raw.command({ "HSET", p + "dead", "mode", "read", a.ownerField("9"), "1" });
            raw.command({ "PEXPIRE", p + "dead", "600000" });
            // An orphaned fair queue: no lock hash.
            raw.command({ "RPUSH", "redisson_lock_queue:{" + p + "orphan}", b.ownerField("4") });
            raw.command({ "ZADD", "redisson_lock_timeout:{" + p + "orphan}", "4102444800000", b.ownerField("4") });
            // Noise and look-alikes.
            raw.command({ "HSET", p + "user", "name", "Ada", "lang", "en" });
            raw.command({ "HSET", p + "lookalike", a.ownerField("7"), "pending" });
            raw.command({ "SET", "lock:" + p + "string", "a4b1c0ffee" });
            raw.command({ "PEXPIRE", "lock:" + p + "string", "600000" });
            raw.command({ "SET", p + "value", "x" });
        }
        // A read lock with more readers than a first page holds (read whole), some of them dead.
        QList<QByteArray> readers { "HSET", "plans:many", "mode", "read" };
        for (int r = 0; r < 80; ++r) {
            readers << a.ownerField(QByteArray::number(100 + r)) << "1";
            if (r % 2 == 0)
                raw.command(
                    { "SET", LockNames::rwTimeoutPrefix("plans:many", a.ownerField(QByteArray::number(100 + r))) + ":1",
                        "1", "PX", "600000" });
        }
        raw.command(readers);
        raw.command({ "PEXPIRE", "plans:many", "600000" });

        ConnectionOptions o = options;
        o.readOnly = true;
        const QMap<QByteArray, QString> atOnce = scanAll(o, false);
        const QMap<QByteArray, QString> deferred = scanAll(o, true);
        QCOMPARE(atOnce.size(), 6 * 7 + 1 + 6); // reentrant, fenced, fair, read, write, dead, orphan; many; strings
        QCOMPARE(deferred.keys(), atOnce.keys());
        for (auto it = atOnce.cbegin(); it != atOnce.cend(); ++it)
            QCOMPARE(deferred.value(it.key()), it.value());
        // What tells the kinds apart was read: each is what it is, in both.
        QVERIFY(deferred.value("plans:0:fenced").contains(QLatin1String("|fenced|")));
        QVERIFY(deferred.value("plans:0:fair").contains(QLatin1String("queued")));
        QVERIFY(deferred.value("plans:0:dead").contains(QLatin1String(" dead")));
        QVERIFY(!deferred.value("plans:0:read").contains(QLatin1String(" dead")));
        QCOMPARE(
            deferred.value("plans:many").count(QLatin1String(" x1 dead")), 40); // every other reader's key is alive
    }

    void auxKeysTheWalkNeverReturnedAreNotRead()
    {
        // A server of its own: nothing but plain lock hashes (no aux keys at all) and user data.
        RedisServer server;
        QString startError;
        QVERIFY2(server.start(&startError), qPrintable(startError));
        const ConnectionOptions options = ConnectionOptions::fromUrl(server.url());
        LockClient a(options);
        RawRedis raw(server.port());
        for (int i = 0; i < 12; ++i) {
            const AcquireResult res = await<AcquireResult>(
                [&](auto d) { a.acquire(request("bare:" + QByteArray::number(i), LockMode::Reentrant, "1"), d); });
            QVERIFY(res.acquired);
            raw.command({ "HSET", "user:" + QByteArray::number(i), "name", "Ada" });
        }
        ConnectionOptions o = options;
        o.readOnly = true;
        for (const bool defer : { false, true }) {
            raw.command({ "CONFIG", "RESETSTAT" });
            QCOMPARE(scanAll(o, defer).size(), 12);
            const qint64 auxReads = calls(raw, "exists") + calls(raw, "lrange") + calls(raw, "zrange");
            if (defer)
                QCOMPARE(auxReads, 0); // a token key, a queue, its deadlines: the walk returned none of them
            else
                QVERIFY(auxReads >= 12); // each lock hash's aux keys read, though none exists
            // A PTTL for each lock hash, none for the user's hashes.
            QCOMPARE(calls(raw, "pttl"), 12);
        }
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryPlans)
#include "tst_discoveryplans.moc"
