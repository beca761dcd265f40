// Locks on a real 3-master + 3-replica Redis Cluster, through a client that was given one node: every kind on every
// shard, wake-ups in plain, sharded and both publish modes (and the silent loss a mixed fleet suffers), the
// CROSSSLOT name, a slot migration under lock traffic, and a master killed under a watchdog hold.
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redis/slotmap.h"
#include "rediscluster.h"
#include "testutil.h"

#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

Q_DECLARE_METATYPE(LockScope::PublishMode)

namespace {
// The test's ears on one channel in both namespaces, on the node that owns the channel's slot.
class TwoNamespaceEars
{
public:
    TwoNamespaceEars(quint16 port, const QByteArray &channel)
        : m_plain(port)
        , m_shard(port)
    {
        m_plain.append({ "SUBSCRIBE", channel });
        m_plain.readReply(5000);
        m_shard.append({ "SSUBSCRIBE", channel });
        m_shard.readReply(5000);
    }
    QByteArray plain() { return drain(m_plain); }
    QByteArray shard() { return drain(m_shard); }

private:
    static QByteArray drain(RawRedis &raw)
    {
        raw.append({ "PING" });
        QByteArrayList seen;
        for (;;) {
            bool timedOut = false;
            const RedisValue v = raw.readReply(5000, &timedOut);
            if (timedOut)
                return "timeout";
            if (v.isArray() && (v.at(0).bytes() == "message" || v.at(0).bytes() == "smessage"))
                seen << v.at(2).bytes();
            else if (v.isArray() && v.at(0).bytes() == "pong")
                return seen.isEmpty() ? QByteArray("none") : seen.join(',');
        }
    }
    RawRedis m_plain;
    RawRedis m_shard;
};

AcquireRequest request(const QByteArray &name, LockMode kind, qint64 leaseMs = 60000, qint64 waitMs = 0)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.leaseMs = leaseMs;
    r.waitMs = waitMs;
    return r;
}

// One slot about to move from the master serving it to another master: a raw connection to each end, and their ids.
struct SlotMove
{
    SlotMove(const SlotMap &map, const QByteArray &tag)
        : slot(keySlot(tag))
        , source(map.masterFor(slot))
        , target(otherMaster(map, source))
        , src(source.port)
        , dst(target.port)
        , sourceId(src.command({ "CLUSTER", "MYID" }).bytes())
        , targetId(dst.command({ "CLUSTER", "MYID" }).bytes())
    { }
    static ClusterNode otherMaster(const SlotMap &map, const ClusterNode &source)
    {
        ClusterNode target;
        for (const ClusterNode &m : map.masters())
            if (!(m == source))
                target = m;
        return target;
    }

    quint16 slot;
    ClusterNode source;
    ClusterNode target;
    RawRedis src;
    RawRedis dst;
    QByteArray sourceId;
    QByteArray targetId;
};
} // namespace

class TestClusterLocks : public QObject
{
    Q_OBJECT
    RedisCluster m_cluster { 3, 1 };
    SlotMap m_map;

    SlotMap readMap()
    {
        RawRedis raw(m_cluster.node(0).port());
        return SlotMap::fromShards(raw.command({ "CLUSTER", "SHARDS" }));
    }

    // A fresh name served by the given master (index into the map's masters).
    QByteArray nameOn(int master, const char *prefix)
    {
        const ClusterNode want = m_map.masters().at(master);
        for (;;) {
            const QByteArray name = uniqueKey(prefix);
            if (m_map.masterFor(keySlot(name)) == want)
                return name;
        }
    }

    ConnectionOptions options(PublishMode mode = PublishMode::Auto)
    {
        // The seed is one node; the others are found from it.
        ConnectionOptions o = ConnectionOptions::fromUrl(m_cluster.url());
        o.publishMode = mode;
        return o;
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<LockScope::PublishMode>();
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        m_map = readMap();
        QCOMPARE(m_map.masters().size(), 3);
    }

    void everyKindOnEveryShard()
    {
        LockClient client(options());
        for (int master = 0; master < 3; ++master) {
            const ClusterNode owner = m_map.masters().at(master);
            RawRedis raw(owner.port);
            for (LockMode kind :
                { LockMode::Reentrant, LockMode::Fenced, LockMode::Read, LockMode::Write, LockMode::Fair }) {
                const QByteArray name = nameOn(master, "shard");
                const AcquireResult a = acquire(client, request(name, kind));
                QVERIFY2(a.acquired, qPrintable(a.error.toString()));
                // The hash is on the master that serves the name's slot, exactly as Redisson would write it.
                QCOMPARE(raw.type(name), "hash");
                QCOMPARE(raw.hgetall(name).value(a.owner), "1");
                QCOMPARE(release(client, name, a.owner, kind).outcome, ReleaseResult::Outcome::Released);
                QCOMPARE(raw.type(name), "none");
            }
        }
        QVERIFY(client.connection()->isCluster());
        QCOMPARE(client.connection()->slotMap().coveredSlots(), 16384);
    }

    void autoModeIsShardedOnRedis7Cluster()
    {
        LockClient client(options(PublishMode::Auto));
        const QByteArray name = nameOn(1, "auto");
        const AcquireResult a = acquire(client, request(name, LockMode::Reentrant));
        QVERIFY(a.acquired);
        TwoNamespaceEars ears(m_map.masters().at(1).port, LockNames::lockChannel(name));
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(client.publishMode(), PublishMode::Sharded); // what Redisson's AUTO picks on Redis 7
        QCOMPARE(ears.shard(), "0");
        QCOMPARE(ears.plain(), "none");
    }

    void releaseReachesWaiter_data()
    {
        QTest::addColumn<PublishMode>("holderMode");
        QTest::addColumn<PublishMode>("waiterMode");
        QTest::addColumn<QByteArray>("plainHeard");
        QTest::addColumn<QByteArray>("shardHeard");
        QTest::newRow("plain") << PublishMode::Plain << PublishMode::Plain << QByteArray("0") << QByteArray("none");
        QTest::newRow("sharded") << PublishMode::Sharded << PublishMode::Sharded << QByteArray("none")
                                 << QByteArray("0");
        // A mixed fleet: publishing on both reaches an old plain waiter and a Redisson 3.22+ sharded one.
        QTest::newRow("both->plain") << PublishMode::Both << PublishMode::Plain << QByteArray("0") << QByteArray("0");
        QTest::newRow("both->sharded") << PublishMode::Both << PublishMode::Sharded << QByteArray("0")
                                       << QByteArray("0");
    }

    void releaseReachesWaiter()
    {
        QFETCH(PublishMode, holderMode);
        QFETCH(PublishMode, waiterMode);
        QFETCH(QByteArray, plainHeard);
        QFETCH(QByteArray, shardHeard);
        for (int master = 0; master < 3; ++master) {
            LockClient holder(options(holderMode));
            LockClient waiter(options(waiterMode));
            const QByteArray name = nameOn(master, "wake");
            const AcquireResult held = acquire(holder, request(name, LockMode::Reentrant, 60000));
            QVERIFY(held.acquired);
            // Waits without limit: only the wake-up message can end this wait before the 60 s lease runs out.
            std::optional<AcquireResult> won;
            waiter.acquire(request(name, LockMode::Reentrant, 60000, -1), [&](const AcquireResult &r) { won = r; });
            const QByteArray channel = LockNames::lockChannel(name);
            const quint16 owner = m_map.masters().at(master).port;
            // The waiter listens on the slot's master, where PUBSUB counts it.
            const QByteArray numsub = waiterMode == PublishMode::Sharded ? "SHARDNUMSUB" : "NUMSUB";
            QTRY_COMPARE(RawRedis(owner).command({ "PUBSUB", numsub, channel }).at(1).toInteger(), qint64(1));
            QVERIFY(!won.has_value());
            TwoNamespaceEars ears(owner, channel);
            QCOMPARE(release(holder, name, held.owner).outcome, ReleaseResult::Outcome::Released);
            QCOMPARE(ears.plain(), plainHeard);
            QCOMPARE(ears.shard(), shardHeard);
            QTRY_VERIFY_WITH_TIMEOUT(won.has_value(), 15000);
            QVERIFY2(won->acquired, qPrintable(won->error.toString()));
            QCOMPARE(release(waiter, name, won->owner).outcome, ReleaseResult::Outcome::Released);
        }
    }

    void crossSlotNameIsAClearError()
    {
        // docs/protocol/README.md#key-naming-and-hash-tags: "a{b" gets aux keys outside its slot; a fair lock's script
        // would touch two slots. A reentrant or write acquire touches only the lock itself, but its release needs the
        // channel, in another slot: refused up front too, or the hold could only end by its lease.
        LockClient client(options());
        const QByteArray name = "cross{slot" + uniqueKey("x");
        QVERIFY(keySlot(LockNames::fairQueue(name)) != keySlot(name));
        QVERIFY(keySlot(LockNames::lockChannel(name)) != keySlot(name));
        for (const LockMode kind : { LockMode::Fair, LockMode::Reentrant, LockMode::Write, LockMode::Fenced }) {
            const AcquireResult a = acquire(client, request(name, kind));
            QVERIFY(!a.acquired);
            QVERIFY2(a.error.message().contains(QLatin1String("CROSSSLOT")), qPrintable(a.error.toString()));
        }
        for (const ClusterNode &m : m_map.masters()) {
            RawRedis raw(m.port);
            QCOMPARE(raw.command({ "EXISTS", name, LockNames::fairQueue(name) }).toInteger(), qint64(0));
        }
        // A hash tag that holds the whole brace is fine.
        const QByteArray tagged = "{" + uniqueKey("tag") + "}:fair";
        const AcquireResult b = acquire(client, request(tagged, LockMode::Fair));
        QVERIFY2(b.acquired, qPrintable(b.error.toString()));
        QCOMPARE(release(client, tagged, b.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
    }

    void slotMigrationUnderLockTraffic()
    {
        // Every lock of the traffic shares one slot through a hash tag; that slot moves to another master while
        // locks are taken and released in it: ASK, TRYAGAIN and finally MOVED must all be followed.
        const QByteArray tag = "{" + uniqueKey("mig") + "}";
        SlotMove move(m_map, tag);
        const quint16 slot = move.slot;
        RawRedis &src = move.src;
        RawRedis &dst = move.dst;

        LockClient client(options());
        int acquired = 0;
        int released = 0;
        QStringList errors;
        QList<QPair<QByteArray, QByteArray>> held;
        int next = 0;
        bool stop = false;
        bool idle = false;
        // Ten locks held throughout, then a stream of acquire-release pairs.
        for (; next < 10; ++next) {
            const AcquireResult a
                = acquire(client, request(tag + ":held" + QByteArray::number(next), LockMode::Reentrant));
            QVERIFY(a.acquired);
            held << qMakePair(a.name, a.owner);
        }
        std::function<void()> cycle = [&] {
            const QByteArray name = tag + ":" + QByteArray::number(next++);
            client.acquire(request(name, LockMode::Reentrant), [&, name](const AcquireResult &a) {
                if (!a.acquired) {
                    errors << QStringLiteral("acquire %1: %2").arg(QString::fromUtf8(name), a.error.toString());
                    return;
                }
                ++acquired;
                client.release(
                    name, a.owner,
                    [&](const ReleaseResult &r) {
                        if (r.outcome != ReleaseResult::Outcome::Released)
                            errors << QStringLiteral("release: %1").arg(r.error.toString());
                        ++released;
                        if (next < 400 && !stop)
                            cycle();
                        else
                            idle = true;
                    },
                    LockMode::Reentrant);
            });
        };
        cycle();
        QTRY_VERIFY(released >= 20);

        QCOMPARE(
            dst.command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "IMPORTING", move.sourceId }).bytes(), "OK");
        QCOMPARE(
            src.command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "MIGRATING", move.targetId }).bytes(), "OK");
        // New locks can be taken while the slot is half-moved: the source answers ASK, the target takes them.
        // (A release waits: its script names keys that are on neither side yet, and both answer TRYAGAIN.)
        int takenMidway = 0;
        for (int i = 0; i < 5; ++i)
            client.acquire(
                request(tag + ":mid" + QByteArray::number(i), LockMode::Reentrant), [&](const AcquireResult &a) {
                    if (a.acquired) {
                        ++takenMidway;
                        held << qMakePair(a.name, a.owner);
                    } else {
                        errors << QStringLiteral("acquire midway: %1").arg(a.error.toString());
                    }
                });
        QTRY_COMPARE(takenMidway + int(errors.size()), 5);
        QCOMPARE(dst.command({ "ASKING" }).bytes(), "OK"); // the importing node shows its keys to askers only
        QCOMPARE(dst.command({ "EXISTS", tag + ":mid0" }).toInteger(), qint64(1));
        // Move the keys one at a time, letting the traffic run between moves.
        for (int round = 0; round < 100; ++round) {
            const RedisValue keys = src.command({ "CLUSTER", "GETKEYSINSLOT", QByteArray::number(slot), "1" });
            if (keys.size() == 0)
                break;
            const RedisValue moved = src.command({ "MIGRATE", "127.0.0.1", QByteArray::number(move.target.port), "",
                "0", "5000", "KEYS", keys.at(0).bytes() });
            QVERIFY2(moved.bytes() == "OK" || moved.bytes() == "NOKEY", moved.bytes().constData());
            QTest::qWait(5);
        }
        for (const ClusterNode &m : m_map.masters())
            RawRedis(m.port).command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "NODE", move.targetId });
        const int afterMove = released;
        QTRY_VERIFY(released >= afterMove + 20);
        stop = true; // then the last cycle finishes, and nothing is in flight
        QTRY_VERIFY(idle);
        QCOMPARE(released, acquired);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        // The locks held across the move are on the new master, and release there.
        for (const auto &[name, owner] : held) {
            QCOMPARE(dst.type(name), "hash");
            QCOMPARE(release(client, name, owner).outcome, ReleaseResult::Outcome::Released);
        }
        QTRY_COMPARE(dst.command({ "CLUSTER", "COUNTKEYSINSLOT", QByteArray::number(slot) }).toInteger(), qint64(0));
        cycle = nullptr;
    }

    void reentryWhileItsSlotMigratesIsRetriedNotFailed()
    {
        // The acquire scripts read the fencing token and fair queue keys to check the lock's kind. Mid-migration the
        // source holds the lock hash but no longer serves those keys: the script answers TRYAGAIN (retried until
        // the slot has moved), never an error, and the kind check still holds afterwards.
        const QByteArray tag = "{" + uniqueKey("remig") + "}";
        const QByteArray name = tag + ":held";
        SlotMove move(m_map, tag);
        const quint16 slot = move.slot;
        RawRedis &src = move.src;
        RawRedis &dst = move.dst;
        LockClient client(options());
        const AcquireResult first = acquire(client, request(name, LockMode::Reentrant));
        QVERIFY2(first.acquired, qPrintable(first.error.toString()));

        QCOMPARE(
            dst.command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "IMPORTING", move.sourceId }).bytes(), "OK");
        QCOMPARE(
            src.command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "MIGRATING", move.targetId }).bytes(), "OK");
        // Scripts run on the source: its EVAL and EVALSHA calls, as INFO commandstats counts them.
        const auto scriptCalls = [&src] {
            const QByteArray info = src.command({ "INFO", "commandstats" }).bytes();
            qint64 calls = 0;
            for (const char *cmd : { "cmdstat_eval:calls=", "cmdstat_evalsha:calls=" }) {
                const qsizetype at = info.indexOf(cmd);
                if (at >= 0) {
                    const qsizetype from = at + qsizetype(qstrlen(cmd));
                    calls += info.mid(from, info.indexOf(',', from) - from).toLongLong();
                }
            }
            return calls;
        };
        const qint64 before = scriptCalls();
        std::optional<AcquireResult> again;
        client.acquire(request(name, LockMode::Reentrant), [&](const AcquireResult &r) { again = r; });
        // The reentry meets the half-moved slot (and is retried every 100 ms); then the move finishes.
        QTRY_VERIFY_WITH_TIMEOUT(scriptCalls() > before, 10000);
        const RedisValue moved = src.command(
            { "MIGRATE", "127.0.0.1", QByteArray::number(move.target.port), "", "0", "5000", "KEYS", name });
        QVERIFY2(moved.bytes() == "OK", moved.bytes().constData());
        for (const ClusterNode &m : m_map.masters())
            RawRedis(m.port).command({ "CLUSTER", "SETSLOT", QByteArray::number(slot), "NODE", move.targetId });
        QTRY_VERIFY_WITH_TIMEOUT(again.has_value(), 20000);
        QVERIFY2(!again->error.isError(), qPrintable(again->error.toString()));
        QVERIFY(again->acquired);
        QCOMPARE(dst.hgetall(name), (QMap<QByteArray, QByteArray> { { first.owner, "2" } }));
        QCOMPARE(release(client, name, first.owner).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(release(client, name, first.owner).outcome, ReleaseResult::Outcome::Released);
    }

    // Last: it changes the cluster for good.
    void watchdogHoldSurvivesFailover()
    {
        LockClient client(options());
        QSignalSpy lost(&client, &LockClient::holdLost);
        const int victim = 2;
        const QByteArray name = nameOn(victim, "failover");
        const AcquireResult a = acquire(client, request(name, LockMode::Reentrant, -1));
        QVERIFY(a.acquired && a.watchdog);
        const ClusterNode master = m_map.masters().at(victim);
        // Wait until the replica has the lock, so the failover keeps it (replication is asynchronous).
        const ClusterNode replica = m_map.ranges().at(victim).replicas.value(0);
        QVERIFY(replica.port != 0);
        RawRedis replicaReads(replica.port);
        QCOMPARE(replicaReads.command({ "READONLY" }).bytes(), "OK");
        QTRY_COMPARE(replicaReads.command({ "EXISTS", name }).toInteger(), qint64(1));
        for (int i = 0; i < m_cluster.size(); ++i)
            if (m_cluster.node(i).port() == master.port)
                m_cluster.node(i).killHard();
        // The replica takes over; the router finds it and renewals land there.
        QTRY_VERIFY_WITH_TIMEOUT(client.connection()->slotMap().masterFor(keySlot(name)) == replica, 20000);
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        client.setWatchdogEnabled(name, a.owner, true);
        QTRY_VERIFY_WITH_TIMEOUT(renewed.count() > 0, 20000);
        QCOMPARE(lost.count(), 0);
        RawRedis promoted(replica.port);
        QCOMPARE(promoted.hgetall(name).value(a.owner), "1");
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(promoted.type(name), "none");
    }
};

QTEST_GUILESS_MAIN(TestClusterLocks)
#include "tst_clusterlocks.moc"
