// Leases and the watchdog on a real server: renewals keep a hold alive, switching the watchdog off lets it run
// down and reports the loss, and a holder that dies frees its lock within one lease.
#include "clirun.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <utility>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Where running out is the point (the watchdog off, the server gone), a short lease: the test waits for it.
constexpr int kLeaseMs = 3000;
// Where a hold must not run out while its watchdog renews it (every third of the lease), a lease that survives a
// renewal 6 s late: a busy machine (CI's two CPUs under ASan) starved the 3 s lease's 1 s renewals past its 2 s of
// slack. Tests that must see renewals take a third of it per renewal.
constexpr int kRenewedLeaseMs = 9000;

LockClientOptions watchdog(int leaseMs)
{
    LockClientOptions o;
    o.watchdogTimeoutMs = leaseMs;
    return o;
}

LockClientOptions shortWatchdog()
{
    return watchdog(kLeaseMs);
}

AcquireRequest request(const QByteArray &name, qint64 leaseMs = -1)
{
    AcquireRequest r;
    r.name = name;
    r.leaseMs = leaseMs;
    return r;
}
} // namespace

class TestWatchdog : public QObject
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

    void explicitLeaseExpiresAndIsReportedLost()
    {
        LockClient client(m_options, shortWatchdog());
        QSignalSpy lost(&client, &LockClient::holdLost);
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("lease");
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(request(name, 300), d); });
        QVERIFY(a.acquired);
        QVERIFY(!a.watchdog);
        QVERIFY(raw.pttl(name) <= 300);
        QTRY_COMPARE(raw.type(name), "none");
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 10000);
        QCOMPARE(lost.at(0).at(0).value<HoldEvent>().name, name);
        QCOMPARE(renewed.size(), 0);
    }

    void watchdogKeepsAHoldAliveThroughThreeRenewals()
    {
        LockClient client(m_options, watchdog(kRenewedLeaseMs));
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QSignalSpy lost(&client, &LockClient::holdLost);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("alive");
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(request(name), d); });
        QVERIFY(a.acquired && a.watchdog);
        QCOMPARE(a.leaseMs, kRenewedLeaseMs);
        // Watch the key until the client has renewed it three times and the server has shown the TTL jump back up
        // three times (past one whole lease): it must exist at every look. Counted, not timed: a busy machine makes
        // it take longer, never fail.
        QElapsedTimer clock;
        clock.start();
        qint64 previous = raw.pttl(name);
        int jumps = 0;
        while (jumps < 3 || renewed.size() < 3) {
            QVERIFY2(clock.elapsed() < 20 * kRenewedLeaseMs, "no three renewals in twenty leases");
            QTest::qWait(50);
            const qint64 ttl = raw.pttl(name);
            QVERIFY2(ttl > 0, qPrintable(QStringLiteral("lock gone after %1 ms").arg(clock.elapsed())));
            if (ttl > previous)
                ++jumps;
            previous = ttl;
        }
        QCOMPARE(lost.size(), 0);
        QCOMPARE(await<ReleaseResult>([&](auto d) { client.release(name, a.owner, d, LockMode::Reentrant); }).outcome,
            ReleaseResult::Outcome::Released);
        // Released: nothing to renew any more.
        QVERIFY(client.holds().isEmpty());
    }

    void watchdogHoldReenteredWithALeaseStaysRenewedToTheWatchdogTimeout()
    {
        // Redisson's renewal always extends to lockWatchdogTimeout: a watchdog hold re-entered with a short explicit
        // lease must not be renewed with that lease (it would run out between two ticks, and a waiter would take
        // the lock while this holder still works under it).
        LockClient client(m_options, watchdog(kRenewedLeaseMs));
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QSignalSpy lost(&client, &LockClient::holdLost);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("reentered");
        AcquireRequest first = request(name);
        first.token = "7";
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(first, d); });
        QVERIFY(a.acquired && a.watchdog);
        AcquireRequest again = request(name, 600);
        again.token = "7";
        const AcquireResult b = await<AcquireResult>([&](auto d) { client.acquire(again, d); });
        QVERIFY(b.acquired);
        QCOMPARE(b.leaseMs, kRenewedLeaseMs);
        QCOMPARE(raw.hgetall(name).value(a.owner), "2");
        // Two renewals after the re-entry: with a 600 ms renewal the hold would be gone before the second tick.
        QTRY_VERIFY_WITH_TIMEOUT(renewed.size() >= 2 || lost.size() > 0, 5 * kRenewedLeaseMs);
        QCOMPARE(lost.size(), 0);
        QCOMPARE(renewed.last().at(0).value<HoldEvent>().leaseMs, kRenewedLeaseMs);
        QCOMPARE(raw.hgetall(name).value(a.owner), "2");
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::StillHeld);
        QVERIFY(client.isWatchdogEnabled(name, a.owner));
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
    }

    void watchdogOffLetsTheLeaseRunDownAndEmitsLost()
    {
        LockClient client(m_options, shortWatchdog());
        QSignalSpy lost(&client, &LockClient::holdLost);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("off");
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(request(name), d); });
        QVERIFY(a.acquired);
        QVERIFY(client.setWatchdogEnabled(name, a.owner, false));
        QVERIFY(!client.isWatchdogEnabled(name, a.owner));
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 15000);
        const HoldEvent e = lost.at(0).at(0).value<HoldEvent>();
        QCOMPARE(e.name, name);
        QCOMPARE(e.owner, a.owner);
        QCOMPARE(raw.type(name), "none");
    }

    void watchdogOnAgainRenewsAtOnce()
    {
        // Redisson's 30 s watchdog: its first tick comes 10 s after the acquire, so a renewal within QTRY's 5 s of
        // switching on is the one the switch made.
        constexpr int kWatchdogMs = 30000;
        LockClient client(m_options, watchdog(kWatchdogMs));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("again");
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(request(name), d); });
        QVERIFY(client.setWatchdogEnabled(name, a.owner, false));
        // Half the lease gone with the watchdog off, made so rather than waited for (no window to miss on a busy
        // machine): switched back on, the TTL must jump back up.
        QCOMPARE(raw.command({ "PEXPIRE", name, QByteArray::number(kWatchdogMs / 2) }).toInteger(), 1);
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QVERIFY(client.setWatchdogEnabled(name, a.owner, true));
        QTRY_VERIFY(renewed.size() >= 1);
        QVERIFY(raw.pttl(name) > kWatchdogMs / 2);
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
    }

    void holdForceReleasedByOthersIsLost()
    {
        // Its lease must last from the acquire to the force release: the long one (lost at the next renewal).
        LockClient client(m_options, watchdog(kRenewedLeaseMs)), support(m_options);
        QSignalSpy lost(&client, &LockClient::holdLost);
        const QByteArray name = uniqueKey("stolen");
        const AcquireResult a = await<AcquireResult>([&](auto d) { client.acquire(request(name), d); });
        QVERIFY(await<ForceReleaseResult>([&](auto d) {
            support.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant);
        }).deleted);
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 2 * kRenewedLeaseMs);
        QVERIFY(client.holds().isEmpty());
    }

    void holdIsLostWhenTheServerIsUnreachableForALease()
    {
        RedisServer server;
        QVERIFY(server.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(server.url());
        o.reconnectInitialDelayMs = 50;
        // A deadline the acquire below must not miss (500 ms could, on a busy machine); the server killed refuses
        // every connection at once, so no deadline is needed for the renewals to fail.
        o.commandTimeoutMs = 5000;
        LockClient client(o, shortWatchdog());
        QSignalSpy lost(&client, &LockClient::holdLost);
        QSignalSpy failed(&client, &LockClient::renewalFailed);
        const QByteArray name = uniqueKey("unreachable");
        QVERIFY(await<AcquireResult>([&](auto d) { client.acquire(request(name), d); }).acquired);
        server.killHard();
        // No answer can come any more; once no renewal has landed for a whole lease the hold is reported lost.
        QTRY_VERIFY_WITH_TIMEOUT(lost.size() == 1, 5 * kLeaseMs);
        QVERIFY(failed.size() >= 1);
        QVERIFY(client.holds().isEmpty());
    }

    void killedHolderFreesTheLockWithinOneLease()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("crash");
        // The long lease: renewed while the holder lives, however busy the machine; it runs out once it is killed.
        constexpr int kHolderLeaseMs = kRenewedLeaseMs;
        QTemporaryDir dir;
        QProcess holder;
        startCli(holder,
            { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--url"), m_server.url(),
                QStringLiteral("--watchdog-timeout"), QString::number(kHolderLeaseMs), QStringLiteral("--json") },
            dir);
        QTRY_VERIFY_WITH_TIMEOUT(holder.canReadLine(), 10000);
        const QJsonObject event = QJsonDocument::fromJson(holder.readLine()).object();
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        const QByteArray deadOwner = event.value(QStringLiteral("owner")).toString().toUtf8();
        QCOMPARE(raw.hgetall(name).value(deadOwner), "1");
        // Let the watchdog prove it is running (a renewal), then kill the process without any goodbye.
        // Between renewals the TTL only falls, so any reading above the one before it is a renewal. (Comparing with
        // the first reading only caught a renewal polled within a few ms of it, and so failed under load.)
        qint64 last = raw.pttl(name);
        const auto renewedSinceLastLook = [&] {
            const qint64 now = raw.pttl(name);
            return std::exchange(last, now) < now;
        };
        bool renewed = false; // sticky: QTRY evaluates its expression once more after it held
        QTRY_VERIFY_WITH_TIMEOUT((renewed = renewed || renewedSinceLastLook()), 2 * kHolderLeaseMs);
        CHILD_KILLED(holder); // a sanitizer's report before the kill fails the test
        // From now on nobody renews: while the dead owner's field is there, its TTL only falls from at most one
        // lease, until the key is gone and the waiter gets the lock.
        qint64 ttl = raw.pttl(name);
        QVERIFY(ttl > 0 && ttl <= kHolderLeaseMs);
        LockClient waiter(m_options);
        AcquireRequest r = request(name, 5000);
        r.waitMs = 4 * kHolderLeaseMs;
        std::optional<AcquireResult> got;
        waiter.acquire(r, [&](const AcquireResult &res) { got = res; });
        for (;;) {
            raw.append({ "HEXISTS", name, deadOwner });
            raw.append({ "PTTL", name });
            const bool deadHolds = raw.readReply(5000).toInteger() == 1;
            const qint64 now = raw.readReply(5000).toInteger();
            if (!deadHolds)
                break;
            QVERIFY2(now <= ttl, "the dead holder's lock was renewed");
            ttl = now;
            QTest::qWait(20);
        }
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 4 * kHolderLeaseMs);
        QVERIFY(got->acquired);
    }
};

QTEST_GUILESS_MAIN(TestWatchdog)
#include "tst_watchdog.moc"
