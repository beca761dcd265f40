// The reentrant lock against a real server, checked through an independent raw client: the Redis state and the
// pub/sub traffic must be exactly what docs/protocol/reentrant.md and
// docs/protocol/README.md#wake-up-channels-and-messages say, so Java services and LockScope see the same locks.
#include "kinds/locknames.h"
#include "kinds/reentrant/lockscripts.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kJavaClient = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";

AcquireRequest request(const QByteArray &name, qint64 leaseMs = -1, qint64 waitMs = 0, QByteArray token = {})
{
    AcquireRequest r;
    r.name = name;
    r.leaseMs = leaseMs;
    r.waitMs = waitMs;
    r.token = std::move(token);
    return r;
}

} // namespace

class TestRLock : public QObject
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

    void wireStateThroughAcquireReentryAndRelease()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("orders");
        RawSubscriber ears(m_server.port(), "redisson_lock__channel:{" + name + "}");

        const AcquireResult a = acquire(client, request(name, 20000, 0, "731"));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        const QByteArray owner = client.clientId() + ":731";
        QCOMPARE(a.owner, owner);
        QCOMPARE(raw.type(name), "hash");
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { owner, "1" } }));
        QVERIFY(raw.pttl(name) > 0 && raw.pttl(name) <= 20000);

        // Reentry increments and resets the TTL to the lease (it does not add).
        raw.command({ "PEXPIRE", name, "10000" }); // far from running out before the reentry
        QVERIFY(acquire(client, request(name, 20000, 0, "731")).acquired);
        QCOMPARE(raw.hgetall(name).value(owner), "2");
        QVERIFY(raw.pttl(name) > 10000 && raw.pttl(name) <= 20000);

        // A partial release keeps the lock and publishes nothing.
        QCOMPARE(release(client, name, owner).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(raw.hgetall(name).value(owner), "1");
        QCOMPARE(ears.next(), "none");

        // The last release deletes the hash and publishes "0" on the lock's channel.
        QCOMPARE(release(client, name, owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:0");
        QCOMPARE(ears.next(), "none");
        // The unlock latches are cleaned up after each call.
        QTRY_COMPARE(raw.command({ "KEYS", "redisson_unlock_latch:{" + name + "}:*" }).size(), 0);
    }

    void ownerIsClientIdAndCallingThread()
    {
        LockClient client(m_options);
        const QByteArray name = uniqueKey("thread");
        const AcquireResult a = acquire(client, request(name));
        QVERIFY(a.acquired);
        QCOMPARE(a.owner, client.clientId() + ':' + LockClient::currentThreadToken());
        QByteArray id, token;
        QVERIFY(LockNames::splitOwner(a.owner, &id, &token));
        bool numeric = false;
        token.toLongLong(&numeric);
        QVERIFY(numeric);
        QVERIFY(a.watchdog);
        QCOMPARE(a.leaseMs, 30000);
    }

    void nonOwnerUnlockIsRefusedAndLeavesTheLock()
    {
        LockClient holder(m_options), other(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("refuse");
        const AcquireResult a = acquire(holder, request(name, 30000, 0, "1"));
        QVERIFY(a.acquired);
        const ReleaseResult r = release(other, name, other.ownerField("1"));
        QCOMPARE(r.outcome, ReleaseResult::Outcome::NotHeld);
        QVERIFY(!r.error.isError());
        QCOMPARE(r.message,
            QStringLiteral("attempt to unlock lock, not locked by current thread by node id: %1 thread-id: 1")
                .arg(QString::fromLatin1(other.clientId())));
        QCOMPARE(raw.hgetall(name).value(a.owner), "1");
        QVERIFY(raw.pttl(name) > 0);
    }

    void javaWrittenLockInterop()
    {
        // Exactly what a Java service leaves in Redis: one field <uuid>:<tid> = count, with a lease.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("java");
        const QByteArray javaOwner = kJavaClient + ":57";
        raw.command({ "HSET", name, javaOwner, "2" });
        raw.command({ "PEXPIRE", name, "60000" });

        LockClient client(m_options);
        QCOMPARE(await<QueryResult>([&](auto d) { client.isLocked(name, d); }).value, 1);
        QCOMPARE(await<QueryResult>([&](auto d) { client.isHeldBy(name, javaOwner, d); }).value, 1);
        QCOMPARE(await<QueryResult>([&](auto d) { client.holdCount(name, javaOwner, d); }).value, 2);
        const AcquireResult busy = acquire(client, request(name));
        QVERIFY(!busy.acquired);
        QVERIFY(busy.ttlMs > 0 && busy.ttlMs <= 60000);
        QCOMPARE(release(client, name, client.ownerField("57")).outcome, ReleaseResult::Outcome::NotHeld);
        QCOMPARE(raw.hgetall(name).value(javaOwner), "2");

        // Our waiter must wake on the Java release's "0", long before the 60 s lease could run out.
        std::optional<AcquireResult> waited;
        client.acquire(request(name, 10000, 120000), [&](const AcquireResult &r) { waited = r; });
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 1);
        QVERIFY(!waited.has_value());
        // Java's own release (raw script, not our code): delete and publish "0".
        raw.command({ "EVAL", "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1", "2",
            name, LockNames::lockChannel(name), "0" });
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 20000);
        QVERIFY(waited->acquired);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { waited->owner, "1" } }));
        QVERIFY(raw.pttl(name) > 0 && raw.pttl(name) <= 10000);
    }

    void waiterWakesOnReleaseNotOnTtl()
    {
        LockClient holder(m_options), waiter(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("wake");
        QVERIFY(acquire(holder, request(name, 60000, 0, "1")).acquired);
        std::optional<AcquireResult> waited;
        waiter.acquire(request(name, 5000, -1), [&](const AcquireResult &r) { waited = r; });
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 1);
        QCOMPARE(release(holder, name, holder.ownerField("1")).outcome, ReleaseResult::Outcome::Released);
        // The holder's lease was 60 s; the waiter is done long before, and without polling: a handful of tries.
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 20000);
        QVERIFY(waited->acquired);
        QVERIFY2(waited->attempts <= 3, qPrintable(QString::number(waited->attempts)));
        // The subscription ends with the last waiter.
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 0);
    }

    void waitersShareOneSubscriptionAndAllGetTheLock()
    {
        LockClient holder(m_options), waiters(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("shared");
        QVERIFY(acquire(holder, request(name, 60000, 0, "1")).acquired);
        QList<AcquireResult> done;
        for (int t = 0; t < 3; ++t) {
            waiters.acquire(request(name, 60000, -1, QByteArray::number(100 + t)), [&](const AcquireResult &r) {
                done << r;
                // Each waiter releases at once, which must wake the next one.
                waiters.release(
                    r.name, r.owner, [](const ReleaseResult &) {}, LockMode::Reentrant);
            });
        }
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(name) }).at(1).toInteger(), 1);
        QCOMPARE(release(holder, name, holder.ownerField("1")).outcome, ReleaseResult::Outcome::Released);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 3, 20000);
        for (const auto &r : done)
            QVERIFY(r.acquired);
    }

    void tryLockGivesUpAfterItsWait()
    {
        LockClient holder(m_options), waiter(m_options);
        const QByteArray name = uniqueKey("giveup");
        QVERIFY(acquire(holder, request(name, 60000, 0, "1")).acquired);
        const AcquireResult r = acquire(waiter, request(name, 5000, 200));
        QVERIFY(!r.acquired);
        QVERIFY(!r.error.isError());
        QVERIFY(r.ttlMs > 0);
    }

    void retriedUnlockIsIdempotentThroughTheLatch()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("latch");
        const QByteArray owner = kJavaClient + ":9";
        raw.command({ "HSET", name, owner, "2" });
        raw.command({ "PEXPIRE", name, "30000" });
        const QByteArray latch = LockNames::unlockLatch(name, LockNames::newRequestId());
        const auto unlock = [&](const QByteArray &latchKey) {
            return raw.command({ "EVAL", LockScripts::release().source(), "3", name, LockNames::lockChannel(name),
                latchKey, "0", "30000", owner, "PUBLISH", "16000" });
        };
        QCOMPARE(unlock(latch), RedisValue::integer(0));
        // The same request again (a retry after a lost reply) answers from the latch and decrements nothing.
        QCOMPARE(unlock(latch), RedisValue::integer(0));
        QCOMPARE(raw.hgetall(name).value(owner), "1");
        QVERIFY(raw.pttl(latch) > 0);
        const QByteArray second = LockNames::unlockLatch(name, LockNames::newRequestId());
        QCOMPARE(unlock(second), RedisValue::integer(1));
        QCOMPARE(unlock(second), RedisValue::integer(1));
        QCOMPARE(raw.type(name), "none");
    }

    void forceReleaseWakesWaitersAndIgnoresOwnership()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("force");
        const QByteArray javaOwner = kJavaClient + ":3";
        raw.command({ "HSET", name, javaOwner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        RawSubscriber ears(m_server.port(), LockNames::lockChannel(name));
        LockClient client(m_options);

        // Guarded by an owner who no longer holds it: nothing happens.
        ForceReleaseResult guarded = await<ForceReleaseResult>(
            [&](auto d) { client.forceRelease(name, kJavaClient + ":4", d, LockMode::Reentrant); });
        QVERIFY(!guarded.deleted);
        QCOMPARE(raw.hgetall(name).value(javaOwner), "1");
        QCOMPARE(ears.next(), "none");

        guarded
            = await<ForceReleaseResult>([&](auto d) { client.forceRelease(name, javaOwner, d, LockMode::Reentrant); });
        QVERIFY(guarded.deleted);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:0");

        // Nothing left: reports that, publishes nothing.
        const ForceReleaseResult again = await<ForceReleaseResult>(
            [&](auto d) { client.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant); });
        QVERIFY(!again.deleted);
        QCOMPARE(ears.next(), "none");
    }

    void guardedForceReleaseLosesToAChangeAndSaysSo()
    {
        LockClient a(m_options), b(m_options), support(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("guarded");
        const AcquireResult first = acquire(a, request(name, 30000, 0, "1"));
        QVERIFY(first.acquired);
        // Support looks: A holds it. Before they act, A releases and B takes the lock.
        const QList<QByteArray> seen { first.owner };
        QCOMPARE(release(a, name, first.owner).outcome, ReleaseResult::Outcome::Released);
        const AcquireResult second = acquire(b, request(name, 30000, 0, "1"));
        QVERIFY(second.acquired);
        const ForceReleaseResult r = await<ForceReleaseResult>(
            [&](auto d) { support.forceRelease(name, ForceGuard::exact(seen), d, LockMode::Reentrant); });
        QVERIFY(!r.deleted);
        QVERIFY(r.guardFailed);
        QCOMPARE(r.holdersNow, QList<QByteArray> { second.owner });
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { second.owner, "1" } }));
        // What is there now, confirmed, goes.
        QVERIFY(await<ForceReleaseResult>([&](auto d) {
            support.forceRelease(name, ForceGuard::exact({ second.owner }), d, LockMode::Reentrant);
        }).deleted);
        QCOMPARE(raw.type(name), "none");
    }

    void ourForceReleasedHoldCannotBeUnlockedLater()
    {
        LockClient client(m_options);
        const QByteArray name = uniqueKey("forced-own");
        const AcquireResult a = acquire(client, request(name));
        QVERIFY(a.acquired);
        QVERIFY(await<ForceReleaseResult>([&](auto d) {
            client.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant);
        }).deleted);
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::NotHeld);
        QVERIFY(client.holds().isEmpty());
    }

    void queriesOnAnAbsentLock()
    {
        LockClient client(m_options);
        const QByteArray name = uniqueKey("absent");
        QCOMPARE(await<QueryResult>([&](auto d) { client.remainingTtl(name, d); }).value, -2);
        QCOMPARE(await<QueryResult>([&](auto d) { client.isLocked(name, d); }).value, 0);
        QCOMPARE(await<QueryResult>([&](auto d) { client.holdCount(name, client.ownerField("1"), d); }).value, 0);
    }

    void badInputIsAClearErrorAndChangesNothing()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const qint64 keysBefore = raw.command({ "DBSIZE" }).toInteger();

        const AcquireResult empty = acquire(client, request(""));
        QCOMPARE(empty.error.kind(), RedisError::Kind::InvalidArgument);
        QVERIFY(empty.error.message().contains(QLatin1String("empty")));

        const QByteArray huge(64 * 1024, 'n');
        const AcquireResult big = acquire(client, request(huge));
        QCOMPARE(big.error.kind(), RedisError::Kind::InvalidArgument);
        QVERIFY(big.error.message().contains(QLatin1String("65536")));
        QCOMPARE(raw.command({ "DBSIZE" }).toInteger(), keysBefore);

        // A lock name that already holds application data of another type: refused, data untouched.
        const QByteArray taken = uniqueKey("taken");
        raw.command({ "SET", taken, "application value" });
        const AcquireResult wrong = acquire(client, request(taken));
        QCOMPARE(wrong.error.kind(), RedisError::Kind::Reply);
        QVERIFY2(wrong.error.message().contains(QLatin1String("holds a string")), qPrintable(wrong.error.message()));
        const ForceReleaseResult forced = await<ForceReleaseResult>(
            [&](auto d) { client.forceRelease(taken, ForceGuard {}, d, LockMode::Reentrant); });
        QCOMPARE(forced.error.kind(), RedisError::Kind::Reply);
        const ReleaseResult released = release(client, taken, client.ownerField("1"));
        QCOMPARE(released.error.kind(), RedisError::Kind::Reply);
        QCOMPARE(raw.get(taken), "application value");
        QCOMPARE(raw.pttl(taken), -1);
    }

    void bracesAndBinaryNamesFollowRedissonNaming()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        // With '{' in the name Redisson adds no braces of its own: the channel is redisson_lock__channel:N.
        const QByteArray braces = "{tenant-" + uniqueKey("x") + "}:job";
        RawSubscriber ears(m_server.port(), "redisson_lock__channel:" + braces);
        AcquireResult a = acquire(client, request(braces, 10000));
        QVERIFY(a.acquired);
        QCOMPARE(release(client, braces, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(ears.next(), "message:0");

        // A stray '{' is only a cluster problem: on one server such a lock works as Redisson's does.
        const QByteArray stray = "stray{" + uniqueKey("x");
        RawSubscriber strayEars(m_server.port(), "redisson_lock__channel:" + stray);
        a = acquire(client, request(stray, 10000));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(release(client, stray, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(strayEars.next(), "message:0");
        QCOMPARE(raw.type(stray), "none");

        const QByteArray binary = QByteArray("bin\0\xff\xfe:", 7) + uniqueKey("b");
        a = acquire(client, request(binary, 10000));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(raw.hgetall(binary).value(a.owner), "1");
        QCOMPARE(release(client, binary, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(binary), "none");
    }

    void readOnlyClientWritesNothing()
    {
        ConnectionOptions o = m_options;
        o.readOnly = true;
        LockClient client(o);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("ro");
        const AcquireResult a = acquire(client, request(name));
        QCOMPARE(a.error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.type(name), "none");
        raw.command({ "HSET", name, kJavaClient + ":1", "1" });
        QCOMPARE(await<ForceReleaseResult>([&](auto d) {
            client.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant);
        }).error.kind(),
            RedisError::Kind::ReadOnly);
        QCOMPARE(release(client, name, kJavaClient + ":1").error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.hgetall(name).value(kJavaClient + ":1"), "1");
        // Reads still work.
        QCOMPARE(await<QueryResult>([&](auto d) { client.isLocked(name, d); }).value, 1);
    }
};

QTEST_GUILESS_MAIN(TestRLock)
#include "tst_rlock.moc"
