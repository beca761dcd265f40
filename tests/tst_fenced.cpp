// The fenced lock (docs/protocol/fenced.md): RLock's hash and channel plus redisson_lock_token:{N}, a counter with
// no TTL that every successful acquire increments, reentry included, and that survives releases.
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest fenced(const QByteArray &name, QByteArray token = "1", qint64 waitMs = 0)
{
    AcquireRequest r;
    r.name = name;
    r.token = std::move(token);
    r.leaseMs = 30000;
    r.waitMs = waitMs;
    r.kind = LockMode::Fenced;
    return r;
}
} // namespace

class TestFenced : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    ConnectionOptions m_options;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_options = ConnectionOptions::fromUrl(m_server.url());
    }

    void everyAcquireDrawsATokenThatOutlivesTheLock()
    {
        LockClient a(m_options), b(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fenced");
        const QByteArray tokenKey = "redisson_lock_token:{" + name + "}";
        RawRedis ears(m_server.port());
        ears.append({ "SUBSCRIBE", LockNames::lockChannel(name) });
        ears.readReply(5000);

        AcquireResult first = acquire(a, fenced(name));
        QVERIFY(first.acquired);
        QCOMPARE(first.fencingToken, 1);
        AcquireResult again = acquire(a, fenced(name));
        QVERIFY(again.acquired);
        QCOMPARE(again.fencingToken, 2);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { first.owner, "2" } }));
        QCOMPARE(raw.get(tokenKey), "2");
        QCOMPARE(raw.pttl(tokenKey), -1);

        // Someone else is refused and draws nothing.
        const AcquireResult refused = acquire(b, fenced(name));
        QVERIFY(!refused.acquired);
        QVERIFY(refused.ttlMs > 0);
        QCOMPARE(refused.fencingToken, -1);
        QCOMPARE(raw.get(tokenKey), "2");
        QCOMPARE(release(b, name, b.ownerField("1")).outcome, ReleaseResult::Outcome::NotHeld);

        QCOMPARE(release(a, name, first.owner).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(release(a, name, first.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(ears.readReply(5000).at(2).bytes(), "0");
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(raw.get(tokenKey), "2");
        QCOMPARE(await<QueryResult>([&](auto d) { a.fencingToken(name, d); }).value, 2);

        // The next holder's token is larger than any before it, even after a force release.
        const AcquireResult next = acquire(b, fenced(name));
        QCOMPARE(next.fencingToken, 3);
        QVERIFY(await<ForceReleaseResult>([&](auto d) {
            a.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant);
        }).deleted);
        QCOMPARE(raw.get(tokenKey), "3");
    }

    void javaWrittenFencedLockInterop()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("java-fenced");
        const QByteArray javaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:12";
        raw.command({ "HSET", name, javaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        raw.command({ "SET", LockNames::fencingToken(name), "41" });
        LockClient client(m_options);
        std::optional<AcquireResult> waited;
        client.acquire(fenced(name, "1", 60000), [&](const AcquireResult &r) { waited = r; });
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 1);
        QVERIFY(!waited.has_value());
        // The Java release: delete and publish "0".
        raw.command({ "EVAL", "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], '0'); return 1", "2", name,
            LockNames::lockChannel(name) });
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 20000);
        QVERIFY(waited->acquired);
        QCOMPARE(waited->fencingToken, 42);
    }

    void foreignLockWithoutTtlIsNotAcquired()
    {
        // A Java holder whose hash lost its TTL (PERSIST, or a client that set none): still held, never ours.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fenced-persisted");
        const QByteArray tokenKey = LockNames::fencingToken(name);
        const QByteArray javaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:12";
        raw.command({ "HSET", name, javaOwner, "1" });
        raw.command({ "SET", tokenKey, "7" });
        LockClient client(m_options);
        const AcquireResult r = acquire(client, fenced(name));
        QVERIFY2(!r.error.isError(), qPrintable(r.error.toString()));
        QVERIFY(!r.acquired);
        QCOMPARE(r.ttlMs, -1);
        QCOMPARE(r.fencingToken, -1);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { javaOwner, "1" } }));
        QCOMPARE(raw.pttl(name), -1);
        QCOMPARE(raw.get(tokenKey), "7");
        QCOMPARE(client.holds().size(), 0);
    }

    void corruptTokenKeyFailsBeforeAnythingIsWritten()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());

        // A token that is not a number: a clear error naming the key, no hold, the key as it was.
        const QByteArray name = uniqueKey("fenced-corrupt");
        const QByteArray tokenKey = LockNames::fencingToken(name);
        raw.command({ "SET", tokenKey, "abc" });
        const AcquireResult text = acquire(client, fenced(name));
        QVERIFY(!text.acquired);
        QCOMPARE(raw.type(name), "none"); // no hold left behind
        QCOMPARE(raw.get(tokenKey), "abc");
        QCOMPARE(raw.pttl(tokenKey), -1);
        QCOMPARE(text.error.kind(), RedisError::Kind::Reply);
        QVERIFY2(text.error.message().contains(QString::fromUtf8(tokenKey)), qPrintable(text.error.message()));
        QVERIFY2(text.error.message().contains(QLatin1String("not an integer")), qPrintable(text.error.message()));

        // A hash where the counter should be.
        const QByteArray other = uniqueKey("fenced-hash-token");
        const QByteArray otherToken = LockNames::fencingToken(other);
        raw.command({ "HSET", otherToken, "f", "v" });
        const AcquireResult hash = acquire(client, fenced(other));
        QVERIFY(!hash.acquired);
        QCOMPARE(raw.type(other), "none");
        QCOMPARE(raw.hgetall(otherToken), (QMap<QByteArray, QByteArray> { { "f", "v" } }));
        QCOMPARE(hash.error.kind(), RedisError::Kind::Reply);
        QVERIFY2(hash.error.message().contains(QString::fromUtf8(otherToken)), qPrintable(hash.error.message()));
        QVERIFY2(hash.error.message().contains(QLatin1String("hash")), qPrintable(hash.error.message()));

        // Reentry with a token corrupted since the first acquire: the hold count and lease stay as they were.
        const QByteArray held = uniqueKey("fenced-held");
        const QByteArray heldToken = LockNames::fencingToken(held);
        const AcquireResult first = acquire(client, fenced(held));
        QVERIFY(first.acquired);
        raw.command({ "PEXPIRE", held, "600000" });
        raw.command({ "SET", heldToken, "1.5" });
        const AcquireResult again = acquire(client, fenced(held));
        QVERIFY(!again.acquired);
        QCOMPARE(raw.hgetall(held), (QMap<QByteArray, QByteArray> { { first.owner, "1" } }));
        QVERIFY(raw.pttl(held) > 300000);
        QCOMPARE(raw.get(heldToken), "1.5");
        QCOMPARE(again.error.kind(), RedisError::Kind::Reply);
    }

    void cliPrintsTheToken()
    {
        const QString name = uniqueName("cli-fenced");
        const QTemporaryDir dir; // the CLI's audit log
        const CliRun r = runCli({ QStringLiteral("lock"), name, QStringLiteral("--kind"), QStringLiteral("fenced"),
                                    QStringLiteral("--hold"), QStringLiteral("0"), QStringLiteral("--json"),
                                    QStringLiteral("--url"), m_server.url() },
            dir);
        CLI_EXIT(r, CliExit::Done);
        const QJsonObject acquired = QJsonDocument::fromJson(r.out.split('\n').first()).object();
        QCOMPARE(acquired.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        QCOMPARE(acquired.value(QStringLiteral("token")).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestFenced)
#include "tst_fenced.moc"
