// Faults injected into a real redis-server child: frozen with SIGSTOP past the command deadline (typed timeouts, and
// an unlock retried three times still decrements exactly once thanks to the latch), and restarted without
// persistence under held locks and waiters (holds whose key vanished emit lost, nobody believes they still hold,
// waiters reconnect, resubscribe and acquire); a holder process killed with SIGKILL under its watchdog (the lock frees
// by its lease, the monitor shows it expired, then the next holder).
#include "clirun.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest request(const QByteArray &name, qint64 leaseMs, qint64 waitMs = 0, const QByteArray &token = "1")
{
    AcquireRequest r;
    r.name = name;
    r.leaseMs = leaseMs;
    r.waitMs = waitMs;
    r.token = token;
    return r;
}
} // namespace

class TestFaults : public QObject
{
    Q_OBJECT

private slots:
    void frozenServerTimesOutAndUnlockAppliesOnce()
    {
        RedisServer server;
        QVERIFY(server.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(server.url());
        // A deadline far above any latency: only the stopped server makes it run out.
        o.commandTimeoutMs = 2000;
        o.reconnectInitialDelayMs = 20;
        o.reconnectMaxDelayMs = 50;
        LockClient client(o);
        const QByteArray name = uniqueKey("frozen");
        QVERIFY(acquire(client, request(name, 60000)).acquired);
        QVERIFY(acquire(client, request(name, 60000)).acquired); // reentered: count 2
        const QByteArray owner = client.ownerField("1");

        RawRedis raw(server.port());
        const auto scriptCalls = [&raw] {
            const QByteArray stats = raw.command({ "INFO", "commandstats" }).bytes();
            qint64 calls = 0;
            for (const QByteArray &line : stats.split('\n'))
                if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:"))
                    calls += line.mid(line.indexOf("calls=") + 6).split(',').first().toLongLong();
            return calls;
        };
        const qint64 before = scriptCalls();
        QCOMPARE(::kill(pid_t(server.pid()), SIGSTOP), 0);
        // Every attempt (the first and its retries with the same request id) reaches a server that cannot answer.
        const ReleaseResult r = release(client, name, owner);
        QCOMPARE(r.error.kind(), RedisError::Kind::Timeout);
        QCOMPARE(::kill(pid_t(server.pid()), SIGCONT), 0);

        // Once it runs again it works through every attempt it had received (each on its own connection, as each
        // timeout dropped the last); the latch lets only the first one count.
        QTRY_COMPARE_WITH_TIMEOUT(scriptCalls() - before, qint64(3), 10000);
        QCOMPARE(raw.hgetall(name).value(owner), "1"); // 2 - 1, not deleted by three decrements
        // The client recovers by itself: the last level releases normally.
        const ReleaseResult last = release(client, name, owner);
        QVERIFY2(last.outcome == ReleaseResult::Outcome::Released, qPrintable(last.error.toString()));
        QCOMPARE(raw.type(name), "none");
    }

    void restartWithoutPersistence()
    {
        RedisServer server;
        QVERIFY(server.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(server.url());
        o.reconnectInitialDelayMs = 20;
        o.reconnectMaxDelayMs = 100;
        o.commandTimeoutMs = 2000;
        // The holder's lease must last until the restart below without any renewal (a busy machine may starve
        // renewals: a 1.5 s watchdog, renewed every 500 ms, ran out before it, and the waiter took the lock too early).
        // After the restart the loss is noticed at the next renewal, a third of the lease later.
        LockClientOptions fast;
        fast.watchdogTimeoutMs = 10000;
        std::optional<AcquireResult> won; // before the clients: answered even if the test ends early
        LockClient holder(o, fast);
        LockClient waiter(o, fast);
        QSignalSpy lost(&holder, &LockClient::holdLost);
        const QByteArray name = uniqueKey("restart");
        const AcquireResult held = acquire(holder, request(name, -1));
        QVERIFY(held.acquired && held.watchdog);
        waiter.acquire(request(name, 60000, -1, "2"), [&](const AcquireResult &r) { won = r; });
        QTRY_COMPARE(RawRedis(server.port())
                         .command({ "PUBSUB", "NUMSUB", "redisson_lock__channel:{" + name + "}" })
                         .at(1)
                         .toInteger(),
            qint64(1));

        server.killHard(); // no persistence: every lock is gone with it
        QVERIFY(server.start()); // same port, as after a real restart
        // The holder learns its lock is gone (at its next renewal) and stops believing it holds it.
        QTRY_VERIFY_WITH_TIMEOUT(lost.size() >= 1, 30000);
        QCOMPARE(lost.first().first().value<HoldEvent>().name, name);
        QVERIFY(holder.holds().isEmpty());
        // The waiter reconnected and resubscribed; the lock is free, so it takes it.
        QTRY_VERIFY_WITH_TIMEOUT(won.has_value(), 15000);
        QVERIFY2(won->acquired, qPrintable(won->error.toString()));
        RawRedis raw(server.port());
        QCOMPARE(raw.hgetall(name).value(won->owner), "1");
        QCOMPARE(release(waiter, name, won->owner).outcome, ReleaseResult::Outcome::Released);
    }

    void killedHolderFreesByItsLease()
    {
        RedisServer server(
            RedisServerOptions { { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } });
        QVERIFY(server.start());
        const ConnectionOptions o = ConnectionOptions::fromUrl(server.url());
        const QByteArray name = uniqueKey("killed-holder");
        LockMonitor::Options mo;
        mo.pattern = name;
        mo.ttlPollIntervalMs = 100;
        MonitorWatch w(o, mo);
        QVERIFY(w.start());

        // Renewed every 2 s: while the holder lives, a renewal would have to be 4 s late for its hold to end early.
        constexpr int kLeaseMs = 6000;
        QProcess holder;
        holder.start(QStringLiteral(LOCKSCOPE_WORKER_PATH),
            { QStringLiteral("hold"), server.url(), QString::fromUtf8(name), QString::number(kLeaseMs) });
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT(
            (said += holder.readAllStandardOutput()).startsWith("held ") && said.endsWith('\n'), 10000);
        const QByteArray killedOwner = said.mid(5).trimmed();
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, name));
        // Its watchdog is alive: the lease is renewed, so only the kill can end this hold.
        QVERIFY(w.waitFor(LockEvent::Type::Renewed, name, 0, 30000));

        std::optional<AcquireResult> got; // before the client: its callback must never outlive this
        LockClient waiter(o);
        AcquireRequest wait = request(name, 60000, -1, "2");
        waiter.acquire(wait, [&got](const AcquireResult &r) { got = r; });
        CHILD_KILLED(holder); // a sanitizer's report before the kill fails the test
        RawRedis raw(server.port());
        const qint64 left = raw.pttl(name);
        QVERIFY2(left > 0 && left <= kLeaseMs, qPrintable(QString::number(left)));

        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 30000);
        QVERIFY2(got->acquired, qPrintable(got->error.toString()));
        // The monitor's story: the dead holder's lease ran out, then the waiter took the lock.
        QVERIFY(w.waitFor(LockEvent::Type::Expired, name));
        const int expired = w.find(LockEvent::Type::Expired, name);
        QCOMPARE(w.events.at(expired).owner, killedOwner);
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, name, expired + 1));
        QCOMPARE(w.events.at(w.find(LockEvent::Type::Acquired, name, expired + 1)).owner, got->owner);
        QCOMPARE(w.find(LockEvent::Type::Released, name), -1);
        QCOMPARE(w.find(LockEvent::Type::ForceReleased, name), -1);
        QCOMPARE(release(waiter, name, got->owner).outcome, ReleaseResult::Outcome::Released);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
