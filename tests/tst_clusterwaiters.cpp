// Waiters as the monitor counts them on a real 3-master Redis Cluster: sharded and plain waiters of a mixed fleet
// (with its warning), the monitor's own shard ear left out of the count, and the wake-up-missed event when a
// release is published in the namespace no waiter listens on.
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redis/slotmap.h"
#include "rediscluster.h"
#include "testutil.h"

#include <QTest>

#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

Q_DECLARE_METATYPE(LockScope::PublishMode)

namespace {
AcquireRequest request(const QByteArray &name, LockMode kind, qint64 leaseMs = 120000)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.leaseMs = leaseMs;
    return r;
}
} // namespace

class TestClusterWaiters : public QObject
{
    Q_OBJECT
    RedisCluster m_cluster { 3, 0 };
    SlotMap m_map;

    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_cluster.url()); }

    static LockMonitor::Options monitorOptions(const QByteArray &pattern)
    {
        LockMonitor::Options o;
        o.pattern = pattern;
        o.rescanIntervalMs = 60000;
        return o;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        RawRedis raw(m_cluster.node(0).port());
        m_map = SlotMap::fromShards(raw.command({ "CLUSTER", "SHARDS" }));
        QCOMPARE(m_map.masters().size(), 3);
    }

    void shardedWaitersAreCounted()
    {
        const QByteArray prefix = uniqueKey("waiters") + ":";
        const QByteArray name = prefix + "lock";
        ConnectionOptions sharded = options();
        sharded.publishMode = PublishMode::Sharded;
        ConnectionOptions plain = options();
        plain.publishMode = PublishMode::Plain;
        LockClient holder(options());
        LockClient newJava(sharded);
        LockClient oldJava(plain);
        QVERIFY(acquire(holder, request(name, LockMode::Reentrant)).acquired);
        AcquireRequest wait = request(name, LockMode::Reentrant);
        wait.waitMs = -1;
        newJava.acquire(wait, [](const AcquireResult &) {});
        oldJava.acquire(wait, [](const AcquireResult &) {});
        MonitorWatch w(options(), monitorOptions(prefix + "*"));
        QVERIFY(w.start());
        // Both waiters are seen, and the fleet's mixed publish modes are called out.
        QTRY_COMPARE(w.monitor.record(name)->info.waiters, 2);
        w.monitor.refresh({ name });
        QTRY_VERIFY(w.monitor.record(name)->info.shardWaiters == 1);
        const QStringList warnings = w.monitor.record(name)->info.warnings;
        QVERIFY2(
            warnings.join(QLatin1Char(' ')).contains(QLatin1String("mixed fleet")), qPrintable(warnings.join(';')));
        holder.forceRelease(
            name, QByteArray(), [](const ForceReleaseResult &) {}, LockMode::Reentrant);
    }

    void monitorsOwnShardEarIsNoWaiter()
    {
        const QByteArray name = uniqueKey("own-ear") + ":lock";
        LockClient holder(options());
        const AcquireResult a = acquire(holder, request(name, LockMode::Reentrant));
        QVERIFY(a.acquired);
        MonitorWatch w(options(), monitorOptions(name));
        QVERIFY(w.start());
        // The monitor follows sharded releases on the lock's shard channel itself; the server counts that ear.
        const QByteArray channel = LockNames::lockChannel(name);
        RawRedis master(m_map.masterFor(keySlot(channel)).port);
        QTRY_COMPARE(master.command({ "PUBSUB", "SHARDNUMSUB", channel }).at(1).toInteger(), qint64(1));
        // A change the next read must see, so that the figures below come from a read made after the ear was up.
        master.command({ "HINCRBY", name, a.owner, "1" });
        w.monitor.refresh({ name });
        QTRY_COMPARE(w.monitor.record(name)->info.holders.value(0).count, qint64(2));
        QCOMPARE(w.monitor.record(name)->info.waiters, 0);
        QCOMPARE(w.monitor.record(name)->info.shardWaiters, 0);
        holder.forceRelease(
            name, QByteArray(), [](const ForceReleaseResult &) {}, LockMode::Reentrant);
    }

    void wakeUpMissedIsReported_data()
    {
        QTest::addColumn<PublishMode>("publisher");
        QTest::addColumn<bool>("missed");
        QTest::newRow("plain release, sharded waiter") << PublishMode::Plain << true;
        QTest::newRow("both, sharded waiter") << PublishMode::Both << false;
    }

    void wakeUpMissedIsReported()
    {
        QFETCH(PublishMode, publisher);
        QFETCH(bool, missed);
        const QByteArray prefix = uniqueKey("missed") + ":";
        const QByteArray name = prefix + "lock";
        ConnectionOptions holderOptions = options();
        holderOptions.publishMode = publisher;
        ConnectionOptions waiterOptions = options();
        waiterOptions.publishMode = PublishMode::Sharded; // a Redisson 3.22+ client on Redis 7
        // Before the clients: a waiter still asleep at the end is answered when its client goes.
        std::optional<AcquireResult> won;
        LockClient holder(holderOptions);
        LockClient waiter(waiterOptions);
        const AcquireResult held = acquire(holder, request(name, LockMode::Reentrant, 60000));
        QVERIFY(held.acquired);
        AcquireRequest wait = request(name, LockMode::Reentrant);
        wait.waitMs = -1;
        waiter.acquire(wait, [&](const AcquireResult &r) { won = r; });
        MonitorWatch w(options(), monitorOptions(prefix + "*"));
        QVERIFY(w.start());
        QTRY_COMPARE(w.monitor.record(name)->info.shardWaiters, 1);
        QTRY_COMPARE(w.monitor.record(name)->info.waiters, 1);
        QCOMPARE(release(holder, name, held.owner).outcome, ReleaseResult::Outcome::Released);
        if (missed) {
            QVERIFY(w.waitFor(LockEvent::Type::WakeUpMissed, name));
            const LockEvent e = w.events.at(w.find(LockEvent::Type::WakeUpMissed, name));
            QVERIFY2(e.detail.contains(QLatin1String("SSUBSCRIBE")), qPrintable(e.detail));
            QVERIFY(!won.has_value()); // asleep, as the event says
        } else {
            QTRY_VERIFY(won.has_value() && won->acquired);
            QVERIFY(w.waitFor(LockEvent::Type::Acquired, name, 1));
            QCOMPARE(w.find(LockEvent::Type::WakeUpMissed, name), -1);
            QCOMPARE(release(waiter, name, won->owner).outcome, ReleaseResult::Outcome::Released);
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterWaiters)
#include "tst_clusterwaiters.moc"
