// The fair lock (docs/protocol/fair.md) on a real server: the queue list and deadline zset, one wake-up channel per
// waiter, first come first served across processes, give-up and stale-entry purge with Redisson's deadline shifts.
#include "clirun.h"
#include "kinds/fair/fairlockscripts.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "ops/fairqueuerepair.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest fair(const QByteArray &name, QByteArray token, qint64 waitMs = 0, qint64 leaseMs = 60000)
{
    AcquireRequest r;
    r.name = name;
    r.kind = LockMode::Fair;
    r.token = std::move(token);
    r.waitMs = waitMs;
    r.leaseMs = leaseMs;
    return r;
}

QByteArrayList queue(RawRedis &raw, const QByteArray &name)
{
    QByteArrayList out;
    const RedisValue v = raw.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" });
    for (int i = 0; i < v.size(); ++i)
        out << v.at(i).bytes();
    return out;
}

// A dead waiter is one nobody listened for at two looks; these tests need not wait seconds between them.
LockClientOptions quickRepair()
{
    LockClientOptions o;
    o.fairListenerRecheckMs = 200;
    return o;
}

qint64 deadline(RawRedis &raw, const QByteArray &name, const QByteArray &owner)
{
    return raw.command({ "ZSCORE", LockNames::fairTimeouts(name), owner }).bytes().toLongLong();
}
} // namespace

class TestFairLock : public QObject
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

    void queueDeadlinesAndHeadOnlyWakeUps()
    {
        LockClient holder(m_options), waiters(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair");
        const AcquireResult a = acquire(holder, fair(name, "1"));
        QVERIFY(a.acquired);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { a.owner, "1" } }));

        // A try without waiting never joins the queue.
        QVERIFY(!acquire(waiters, fair(name, "9")).acquired);
        QVERIFY(queue(raw, name).isEmpty());

        const QByteArray b = waiters.ownerField("2"), c = waiters.ownerField("3");
        std::optional<AcquireResult> gotB, gotC;
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        waiters.acquire(fair(name, "2", 60000), [&](const AcquireResult &r) { gotB = r; });
        QTRY_COMPARE(queue(raw, name), QByteArrayList { b });
        waiters.acquire(fair(name, "3", 60000), [&](const AcquireResult &r) { gotC = r; });
        QTRY_COMPARE(queue(raw, name), (QByteArrayList { b, c }));
        // B's deadline: the holder's remaining lease plus its wait; C's: B's plus its own wait.
        const qint64 db = deadline(raw, name, b), dc = deadline(raw, name, c);
        QVERIFY(db > before + 60000 && db <= QDateTime::currentMSecsSinceEpoch() + 60000 + 60000);
        QCOMPARE(dc - db, 60000);
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::fairChannel(name, b) }).at(1).toInteger(), 1);
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::fairChannel(name, c) }).at(1).toInteger(), 1);

        // The release tells the head only.
        QCOMPARE(release(holder, name, a.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY_WITH_TIMEOUT(gotB.has_value(), 20000);
        QVERIFY(gotB->acquired);
        QVERIFY(!gotC.has_value());
        QCOMPARE(queue(raw, name), QByteArrayList { c });
        // C moved up: its deadline fell by B's wait.
        QCOMPARE(deadline(raw, name, c), dc - 60000);

        QCOMPARE(release(waiters, name, b, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY_WITH_TIMEOUT(gotC.has_value(), 20000);
        QVERIFY(gotC->acquired);
        QVERIFY(queue(raw, name).isEmpty());
        QCOMPARE(raw.command({ "ZCARD", LockNames::fairTimeouts(name) }).toInteger(), 0);
        QCOMPARE(
            release(holder, name, holder.ownerField("1"), LockMode::Fair).outcome, ReleaseResult::Outcome::NotHeld);
        QCOMPARE(release(waiters, name, c, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
    }

    void reentryAndPartialRelease()
    {
        LockClient holder(m_options), other(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-reentry");
        const AcquireResult a = acquire(holder, fair(name, "1", 0, 20000));
        QVERIFY(a.acquired);
        raw.command({ "PEXPIRE", name, "10000" }); // far from running out before the reentry
        QVERIFY(acquire(holder, fair(name, "1", 0, 20000)).acquired);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { a.owner, "2" } }));
        QVERIFY(raw.pttl(name) > 10000); // reentry resets the lease, as RLock's does
        QCOMPARE(release(other, name, other.ownerField("1"), LockMode::Fair).outcome, ReleaseResult::Outcome::NotHeld);
        QCOMPARE(release(holder, name, a.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(raw.hgetall(name).value(a.owner), "1");
        QCOMPARE(release(holder, name, a.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
    }

    void javaQueueIsRespected()
    {
        // Redisson's layout written by raw commands: a Java holder, and a live Java waiter at the head of the queue.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-java");
        const QByteArray javaHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
        const QByteArray javaWaiter = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:2";
        raw.command({ "HSET", name, javaHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        const qint64 javaDeadline = QDateTime::currentMSecsSinceEpoch() + 60000 + 300000;
        raw.command({ "RPUSH", LockNames::fairQueue(name), javaWaiter });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), QByteArray::number(javaDeadline), javaWaiter });
        RawRedis javaEars(m_server.port()); // the Java waiter listens on its own channel
        javaEars.append({ "SUBSCRIBE", LockNames::fairChannel(name, javaWaiter) });
        javaEars.readReply(5000);

        LockClient client(m_options);
        std::optional<AcquireResult> got;
        client.acquire(fair(name, "9", 120000), [&](const AcquireResult &r) { got = r; });
        const QByteArray mine = client.ownerField("9");
        // We queue behind the Java waiter, with a deadline behind its.
        QTRY_COMPARE(queue(raw, name), (QByteArrayList { javaWaiter, mine }));
        QCOMPARE(deadline(raw, name, mine), javaDeadline + 120000);
        // The Java holder releases (raw): the head, the Java waiter, is told; we are not.
        raw.command({ "EVAL", "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], '0'); return 1", "2", name,
            LockNames::fairChannel(name, javaWaiter) });
        QCOMPARE(javaEars.readReply(5000).at(2).bytes(), "0");
        // The Java waiter takes its turn (Redisson's own acquire: pop the head, take the hash).
        raw.command({ "LPOP", LockNames::fairQueue(name) });
        raw.command({ "ZREM", LockNames::fairTimeouts(name), javaWaiter });
        raw.command({ "HSET", name, javaWaiter, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QVERIFY(!got.has_value());
        // And releases the Java way, telling the new head: us.
        raw.command({ "EVAL", "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], '0'); return 1", "2", name,
            LockNames::fairChannel(name, mine) });
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
        QVERIFY(queue(raw, name).isEmpty());
    }

    void fiveProcessesInArrivalOrder()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-fifo");
        LockClient holder(m_options);
        const AcquireResult held = acquire(holder, fair(name, "1"));
        QVERIFY(held.acquired);
        std::vector<std::unique_ptr<QProcess>> waiters;
        QByteArrayList arrival;
        const QTemporaryDir dir; // the CLI's audit log
        for (int i = 0; i < 5; ++i) {
            auto p = std::make_unique<QProcess>();
            startCli(*p,
                { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--kind"), QStringLiteral("fair"),
                    QStringLiteral("--wait"), QStringLiteral("60000"), QStringLiteral("--hold"), QStringLiteral("50"),
                    QStringLiteral("--json"), QStringLiteral("--url"), m_server.url() },
                dir);
            // The next one starts only once this one stands in the queue: that fixes the arrival order.
            QTRY_COMPARE_WITH_TIMEOUT(queue(raw, name).size(), i + 1, 10000);
            arrival << queue(raw, name).last();
            waiters.push_back(std::move(p));
        }
        QCOMPARE(release(holder, name, held.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QList<QPair<QString, QByteArray>> acquired;
        for (auto &p : waiters) {
            const CliRun r = finishCli(*p);
            CLI_EXIT(r, CliExit::Done);
            const QJsonObject e = QJsonDocument::fromJson(r.out.split('\n').first()).object();
            QCOMPARE(e.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
            acquired << qMakePair(
                e.value(QStringLiteral("ts")).toString(), e.value(QStringLiteral("owner")).toString().toUtf8());
        }
        std::sort(acquired.begin(), acquired.end());
        QByteArrayList order;
        for (const auto &a : acquired)
            order << a.second;
        QCOMPARE(order, arrival);
        QVERIFY(queue(raw, name).isEmpty());
    }

    void waiterThatGivesUpLeavesTheQueue()
    {
        LockClient holder(m_options), waiters(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-giveup");
        QVERIFY(acquire(holder, fair(name, "1")).acquired);
        const QByteArray quitter = waiters.ownerField("2"), patient = waiters.ownerField("3");
        std::optional<AcquireResult> gaveUp;
        waiters.acquire(fair(name, "2", 1500), [&](const AcquireResult &r) { gaveUp = r; });
        QTRY_COMPARE(queue(raw, name).size(), 1);
        waiters.acquire(fair(name, "3", 60000), [](const AcquireResult &) {});
        QTRY_COMPARE(queue(raw, name), (QByteArrayList { quitter, patient }));
        const qint64 before = deadline(raw, name, patient);
        QTRY_VERIFY_WITH_TIMEOUT(gaveUp.has_value(), 10000);
        QVERIFY(!gaveUp->acquired);
        // Gone from both structures, and the one behind moved up by the quitter's wait.
        QTRY_COMPARE(queue(raw, name), QByteArrayList { patient });
        QCOMPARE(raw.command({ "ZSCORE", LockNames::fairTimeouts(name), quitter }), RedisValue::nil());
        QCOMPARE(deadline(raw, name, patient), before - 1500);
    }

    void staleHeadIsPurgedByTheNextAcquirer()
    {
        // A waiter that crashed long ago: still at the head, its deadline in the past.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-stale");
        const QByteArray dead = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:66";
        raw.command({ "RPUSH", LockNames::fairQueue(name), dead });
        raw.command({ "ZADD", LockNames::fairTimeouts(name),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() - 1000), dead });
        LockClient client(m_options);
        const AcquireResult a = acquire(client, fair(name, "1"));
        QVERIFY(a.acquired);
        QVERIFY(queue(raw, name).isEmpty());
        QCOMPARE(raw.command({ "ZCARD", LockNames::fairTimeouts(name) }).toInteger(), 0);
    }

    void forceReleaseWakesTheHead()
    {
        LockClient holder(m_options), waiter(m_options), support(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-force");
        QVERIFY(acquire(holder, fair(name, "1")).acquired);
        std::optional<AcquireResult> got;
        waiter.acquire(fair(name, "2", 60000), [&](const AcquireResult &r) { got = r; });
        QTRY_COMPARE(
            raw.command({ "PUBSUB", "NUMSUB", LockNames::fairChannel(name, waiter.ownerField("2")) }).at(1).toInteger(),
            1);
        const ForceReleaseResult forced
            = await<ForceReleaseResult>([&](auto d) { support.forceRelease(name, ForceGuard {}, d, LockMode::Fair); });
        QVERIFY(forced.deleted);
        // The 60 s lease is far away: only the head's wake-up can hand it over now.
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
    }

    void repairUnjamsAQueueBehindADeadWaiter()
    {
        LockClient holder(m_options), waiter(m_options), support(m_options, quickRepair());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-jam");
        const AcquireResult held = acquire(holder, fair(name, "1"));
        QVERIFY(held.acquired);
        // A Java waiter that died: at the head, deadline ten minutes away, nobody listening on its channel.
        const QByteArray dead = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:66";
        const qint64 deadDeadline = QDateTime::currentMSecsSinceEpoch() + 600000;
        raw.command({ "RPUSH", LockNames::fairQueue(name), dead });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), QByteArray::number(deadDeadline), dead });
        std::optional<AcquireResult> got;
        waiter.acquire(fair(name, "2", 120000), [&](const AcquireResult &r) { got = r; });
        const QByteArray live = waiter.ownerField("2");
        QTRY_COMPARE(queue(raw, name), (QByteArrayList { dead, live }));
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::fairChannel(name, live) }).at(1).toInteger(), 1);
        const qint64 liveDeadline = deadline(raw, name, live);
        QCOMPARE(liveDeadline - deadDeadline, 120000);
        // The holder leaves; the dead head is told and never comes: the lock is free, yet the queue stays jammed.
        QCOMPARE(release(holder, name, held.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);

        // A dry run reports the orphan and changes nothing.
        const FairQueueReport dry
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, true, d); });
        QVERIFY(!dry.error.isError());
        QVERIFY(!dry.lockHeld);
        QCOMPARE(dry.waiters.size(), 2);
        QCOMPARE(dry.waiters.at(0).owner, dead);
        QVERIFY(dry.waiters.at(0).orphaned());
        QVERIFY(!dry.waiters.at(0).stale);
        QCOMPARE(dry.waiters.at(1).subscribers, 1);
        QVERIFY(!dry.waiters.at(1).orphaned());
        QCOMPARE(dry.removed, 0);
        QCOMPARE(queue(raw, name), (QByteArrayList { dead, live }));

        // The repair removes it and tells the new head, which takes the lock at once.
        const FairQueueReport fixed
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, false, d); });
        QCOMPARE(fixed.removed, 1);
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
        QVERIFY(queue(raw, name).isEmpty());
    }

    void repairInBothModeKeepsAShardedWaiter()
    {
        // A mixed fleet: the waiter listens on its shard channel only, support works in "both" mode. Counted in the
        // plain namespace alone, the live waiter would look dead and be removed.
        ConnectionOptions sharded = m_options;
        sharded.publishMode = PublishMode::Sharded;
        ConnectionOptions both = m_options;
        both.publishMode = PublishMode::Both;
        LockClient holder(both), waiter(sharded), support(both, quickRepair());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-mixed");
        const AcquireResult held = acquire(holder, fair(name, "1"));
        QVERIFY(held.acquired);
        std::optional<AcquireResult> got;
        waiter.acquire(fair(name, "2", 120000), [&](const AcquireResult &r) { got = r; });
        const QByteArray live = waiter.ownerField("2");
        QTRY_COMPARE(queue(raw, name), (QByteArrayList { live }));
        QTRY_COMPARE(raw.command({ "PUBSUB", "SHARDNUMSUB", LockNames::fairChannel(name, live) }).at(1).toInteger(), 1);
        const FairQueueReport fixed
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, false, d); });
        QVERIFY2(!fixed.error.isError(), qPrintable(fixed.error.toString()));
        QCOMPARE(fixed.removed, 0);
        QCOMPARE(fixed.waiters.value(0).subscribers, 1);
        QCOMPARE(queue(raw, name), (QByteArrayList { live }));
        QCOMPARE(release(holder, name, held.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
    }

    void repairShiftsDeadlinesBehindARemovedWaiter()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-shift");
        const QByteArray a = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", b = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:2",
                         c = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:3";
        const qint64 t = QDateTime::currentMSecsSinceEpoch() + 600000;
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:9", "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        raw.command({ "RPUSH", LockNames::fairQueue(name), a, b, c });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), QByteArray::number(t), a, QByteArray::number(t + 5000), b,
            QByteArray::number(t + 12000), c });
        // Nobody listens for any of them, so all three go; removing b (wait 5000) first moves c up by 5000.
        LockClient support(m_options, quickRepair());
        const FairQueueReport fixed
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, false, d); });
        QCOMPARE(fixed.removed, 3);
        QVERIFY(queue(raw, name).isEmpty());
        QCOMPARE(raw.hgetall(name).size(), 1); // the holder is untouched
        // The shift itself, with only the middle one doomed, through the script directly.
        raw.command({ "RPUSH", LockNames::fairQueue(name), a, b, c });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), QByteArray::number(t), a, QByteArray::number(t + 5000), b,
            QByteArray::number(t + 12000), c });
        QCOMPARE(raw.command({ "EVAL", FairLockScripts::removeWaiters().source(), "4", name, LockNames::fairQueue(name),
                                 LockNames::fairTimeouts(name), LockNames::lockChannel(name), "PUBLISH", b })
                     .toInteger(),
            1);
        QCOMPARE(queue(raw, name), (QByteArrayList { a, c }));
        QCOMPARE(deadline(raw, name, a), t);
        QCOMPARE(deadline(raw, name, c), t + 7000);
    }

    void cliRepairQueueDryRunThenRepair()
    {
        LockClient waiter(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-cli-jam");
        const QByteArray dead = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:66";
        raw.command({ "RPUSH", LockNames::fairQueue(name), dead });
        raw.command({ "ZADD", LockNames::fairTimeouts(name),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), dead });
        std::optional<AcquireResult> got;
        waiter.acquire(fair(name, "2", 120000), [&](const AcquireResult &r) { got = r; });
        QTRY_COMPARE(queue(raw, name).size(), 2);
        QTRY_COMPARE(
            raw.command({ "PUBSUB", "NUMSUB", LockNames::fairChannel(name, waiter.ownerField("2")) }).at(1).toInteger(),
            1);
        QTemporaryDir dir;
        // A crash, a hang or a sanitizer's report fails the test (clirun.h); its exit code is then -1.
        auto run = [&](const QStringList &extra) {
            const CliRun r = runCli(
                QStringList { QStringLiteral("repair-queue"), QString::fromUtf8(name), QStringLiteral("--json"),
                    QStringLiteral("--recheck"), QStringLiteral("200"), QStringLiteral("--url"), m_server.url() }
                    + extra,
                dir);
            return qMakePair(r.exitCode, QJsonDocument::fromJson(r.out).object());
        };
        auto dry = run({ QStringLiteral("--dry-run") });
        QCOMPARE(dry.first, 0);
        QCOMPARE(dry.second.value(QStringLiteral("removed")).toInt(), 0);
        QCOMPARE(dry.second.value(QStringLiteral("waiters")).toArray().size(), 2);
        QVERIFY(dry.second.value(QStringLiteral("waiters"))
                    .toArray()
                    .at(0)
                    .toObject()
                    .value(QStringLiteral("orphaned"))
                    .toBool());
        QCOMPARE(queue(raw, name).size(), 2);
        // Without --yes off a terminal it refuses; with it, the dead head goes and the live waiter gets the lock.
        QCOMPARE(run({}).first, 2);
        QCOMPARE(queue(raw, name).size(), 2);
        auto fixed = run({ QStringLiteral("--yes") });
        QCOMPARE(fixed.first, 0);
        QCOMPARE(fixed.second.value(QStringLiteral("removed")).toInt(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
        // Once more: nothing left to remove is a repair that did nothing, not a dry run.
        auto again = run({ QStringLiteral("--yes") });
        QCOMPARE(again.first, 0);
        QCOMPARE(again.second.value(QStringLiteral("removed")).toInt(), 0);
        QCOMPARE(again.second.value(QStringLiteral("dry_run")).toBool(true), false);
        QFile audit(dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        QVERIFY(audit.readAll().contains("\"repair-queue\""));
    }

    void cliForceReleaseOfAFairLockWakesTheHead()
    {
        LockClient holder(m_options), waiter(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-cli");
        QVERIFY(acquire(holder, fair(name, "1")).acquired);
        std::optional<AcquireResult> got;
        waiter.acquire(fair(name, "2", 60000), [&](const AcquireResult &r) { got = r; });
        QTRY_COMPARE(queue(raw, name).size(), 1);
        const QTemporaryDir dir; // the CLI's audit log (it wrote to the person's own before)
        CLI_EXIT(runCli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                            QStringLiteral("--url"), m_server.url() },
                     dir),
            CliExit::Done);
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(got->acquired);
    }
};

QTEST_GUILESS_MAIN(TestFairLock)
#include "tst_fairlock.moc"
