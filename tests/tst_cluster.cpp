// Redis Cluster basics the cluster-aware monitor and client stand on: the key-to-slot rule (hash tags included,
// and the stray '{' names of docs/protocol/README.md#key-naming-and-hash-tags), and the slot map read from a real
// 3-master + 3-replica cluster by CLUSTER SHARDS and by CLUSTER SLOTS, checked against where the cluster itself accepts
// a key.
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redis/slotmap.h"
#include "rediscluster.h"

#include <QTest>

#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

class TestCluster : public QObject
{
    Q_OBJECT
    RedisCluster m_cluster { 3, 1 };

private slots:
    void keySlots()
    {
        QCOMPARE(keySlot("123456789"), quint16(12739)); // the CRC16 check value the cluster specification gives
        QCOMPARE(keySlot("{user1000}.following"), keySlot("{user1000}.followers"));
        // An empty tag: the whole key is hashed (CRC16 of "foo{}{bar}" mod 16384), not "bar". (This compared the
        // key's slot with itself, which cannot fail; clusterAgreesOnEverySlot asks a real cluster too.)
        QCOMPARE(keySlot("foo{}{bar}"), quint16(8363));
        QVERIFY(keySlot("foo{}{bar}") != keySlot("bar"));
        QCOMPARE(keySlot("foo{{bar}}zap"), keySlot("{bar"));
        QCOMPARE(keySlot("foo{bar}{zap}"), keySlot("bar"));
        // Redisson's aux keys share a plain name's slot, but not that of a name with a stray '{' (CROSSSLOT).
        QCOMPARE(keySlot(LockNames::lockChannel("orders:42")), keySlot("orders:42"));
        QCOMPARE(keySlot(LockNames::fairQueue("orders:42")), keySlot("orders:42"));
        QVERIFY(keySlot(LockNames::fairQueue("a{b")) != keySlot("a{b"));
    }

    // Found by tests/fuzz/fuzz_resp (regress-slots-node-not-array, regress-slot-range): a node that is not
    // [ip, port, ...] was indexed into (a crash), and a range past slot 16383 reached the router's slot table.
    void malformedSlotMapsAreSkipped()
    {
        using V = RedisValue;
        const V node = V::array({ V::string("127.0.0.1"), V::integer(7000) });
        const V slotsReply = V::array({ V::array({ V::integer(0), V::integer(1), V::integer(5) }),
            V::array({ V::integer(0), V::integer(16384), node }), V::array({ V::integer(9), V::integer(3), node }),
            V::array({ V::integer(10), V::integer(20), node, V::string("not a node") }) });
        const SlotMap fromSlots = SlotMap::fromSlots(slotsReply);
        QCOMPARE(fromSlots.ranges().size(), 1);
        QCOMPARE(fromSlots.coveredSlots(), 11);
        QCOMPARE(fromSlots.masterFor(15).port, quint16(7000));
        QVERIFY(fromSlots.ranges().first().replicas.isEmpty());

        const V nodes = V::array({ V::array({ V::string("ip"), V::string("127.0.0.1"), V::string("port"),
            V::integer(7000), V::string("role"), V::string("master"), V::string("health"), V::string("online") }) });
        const V shardsReply = V::array({ V::array(
            { V::string("slots"), V::array({ V::integer(0), V::integer(99), V::integer(16000), V::integer(70000) }),
                V::string("nodes"), nodes }) });
        const SlotMap fromShards = SlotMap::fromShards(shardsReply);
        QCOMPARE(fromShards.ranges().size(), 1);
        QCOMPARE(fromShards.coveredSlots(), 100);
    }

    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
    }

    // The keys above, and the aux keys, as the cluster itself places them (CLUSTER KEYSLOT).
    void clusterAgreesOnEverySlot()
    {
        RawRedis raw(m_cluster.node(0).port());
        const QList<QByteArray> keys { "123456789", "{user1000}.following", "foo{}{bar}", "bar", "foo{{bar}}zap",
            "{bar", "foo{bar}{zap}", "a{b", "orders:42", LockNames::lockChannel("orders:42"),
            LockNames::fairQueue("orders:42"), LockNames::fairQueue("a{b") };
        for (const QByteArray &key : keys) {
            const qint64 theirs = raw.command({ "CLUSTER", "KEYSLOT", key }).toInteger();
            QVERIFY2(keySlot(key) == theirs,
                (key + ": ours " + QByteArray::number(keySlot(key)) + ", the cluster's " + QByteArray::number(theirs))
                    .constData());
        }
    }

    void slotMapFromARealCluster()
    {
        RawRedis raw(m_cluster.node(0).port());
        QString error;
        const SlotMap shards = SlotMap::fromShards(raw.command({ "CLUSTER", "SHARDS" }), &error);
        QVERIFY2(!shards.isEmpty(), qPrintable(error));
        const SlotMap bySlots = SlotMap::fromSlots(raw.command({ "CLUSTER", "SLOTS" }), &error);
        QVERIFY2(!bySlots.isEmpty(), qPrintable(error));
        QCOMPARE(shards.coveredSlots(), 16384);
        QCOMPARE(bySlots.coveredSlots(), 16384);
        QCOMPARE(shards.masters().size(), 3);
        for (const SlotMap::Range &r : shards.ranges())
            QCOMPARE(r.replicas.size(), 1);
        for (int slot : { 0, 5460, 5461, 10922, 10923, 16383 })
            QCOMPARE(shards.masterFor(quint16(slot)), bySlots.masterFor(quint16(slot)));

        // The map says where a key lives: that master takes it, another answers MOVED.
        for (const QByteArray &key : { QByteArray("orders:42"), QByteArray("inventory:7"), QByteArray("{x}y") }) {
            const ClusterNode owner = shards.masterFor(keySlot(key));
            RawRedis right(owner.port);
            QCOMPARE(right.command({ "SET", key, "1" }).bytes(), "OK");
            for (const ClusterNode &other : shards.masters()) {
                if (other == owner)
                    continue;
                const RedisValue moved = RawRedis(other.port).command({ "SET", key, "1" });
                QVERIFY2(moved.isError() && moved.bytes().startsWith("MOVED"), moved.bytes().constData());
            }
        }
    }

    // In a failover the map can name no master for a slot until the replica's promotion is seen (CI caught a release
    // failing so). A command for such a slot waits for a master, within its deadline, instead of failing at once.
    void commandWaitsForASlotWithoutMaster()
    {
        const QByteArray key = "unserved:1";
        const QByteArray slot = QByteArray::number(keySlot(key));
        RawRedis seed(m_cluster.node(0).port());
        QString error;
        const SlotMap before = SlotMap::fromShards(seed.command({ "CLUSTER", "SHARDS" }), &error);
        const ClusterNode owner = before.masterFor(keySlot(key));
        QVERIFY(owner.port != 0);
        const QByteArray ownerId = RawRedis(owner.port).command({ "CLUSTER", "MYID" }).bytes();
        for (const ClusterNode &m : before.masters())
            QCOMPARE(RawRedis(m.port).command({ "CLUSTER", "DELSLOTS", slot }).bytes(), "OK");
        for (const ClusterNode &m : before.masters())
            QTRY_COMPARE(SlotMap::fromShards(RawRedis(m.port).command({ "CLUSTER", "SHARDS" })).coveredSlots(), 16383);

        RedisRouter router(ConnectionOptions::fromUrl(m_cluster.url()));
        router.open();
        QTRY_VERIFY(router.isCluster() && router.slotMap().coveredSlots() == 16383);
        std::optional<RedisResult> reply;
        router.command({ "SET", key, "1" }, [&reply](const RedisResult &r) { reply = r; });
        for (const ClusterNode &m : before.masters())
            QCOMPARE(RawRedis(m.port).command({ "CLUSTER", "SETSLOT", slot, "NODE", ownerId }).bytes(), "OK");
        QTRY_VERIFY(reply.has_value());
        QVERIFY2(reply->ok(), qPrintable(reply->error.toString()));
        QCOMPARE(RawRedis(owner.port).command({ "GET", key }).bytes(), "1");
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
