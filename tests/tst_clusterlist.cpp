// lockscope-cli list on a real 3-master Redis Cluster: the scanner's batches go to each master as batches of their own
// (RedisRouter::commandBatch), and a reply that redirects (a slot being migrated answers ASK for the keys already
// moved) is sent again through the router, which follows it: every lock listed once, wherever its key was.
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/slotmap.h"
#include "rediscluster.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestClusterList : public QObject
{
    Q_OBJECT
    RedisCluster m_cluster { 3, 0 };
    SlotMap m_map;
    QTemporaryDir m_dir; // the CLI's audit log

    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_cluster.url()); }

    // The names list printed, or an empty list (a QTRY may try again) with a warning saying why. A crash, a hang or a
    // sanitizer's report fails the test (clirun.h).
    QList<QByteArray> listed(const QByteArray &pattern)
    {
        const CliRun r = runCli({ QStringLiteral("--url"), m_cluster.url(), QStringLiteral("--json"),
                                    QStringLiteral("list"), QStringLiteral("--pattern"), QString::fromUtf8(pattern) },
            m_dir);
        if (r.exitCode != CliExit::Done) {
            qWarning("list failed: %s", r.describe().constData());
            return {};
        }
        QList<QByteArray> names;
        for (const QJsonValue &lock : QJsonDocument::fromJson(r.out).array())
            names << lock.toObject().value(QStringLiteral("name")).toString().toUtf8();
        return names;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        m_map = SlotMap::fromShards(RawRedis(m_cluster.node(0).port()).command({ "CLUSTER", "SHARDS" }));
        QCOMPARE(m_map.masters().size(), 3);
    }

    void everyShardEveryLockOnce()
    {
        const QByteArray prefix = uniqueKey("all") + ":";
        LockClient client(options());
        QSet<quint16> ports;
        const QList<LockMode> kinds { LockMode::Reentrant, LockMode::Fenced, LockMode::Read, LockMode::Fair };
        for (int i = 0; i < 40; ++i) {
            AcquireRequest r;
            r.name = prefix + QByteArray::number(i);
            r.kind = kinds.at(i % kinds.size());
            r.leaseMs = 120000;
            QVERIFY(acquire(client, r).acquired);
            ports.insert(m_map.masterFor(keySlot(r.name)).port);
        }
        QCOMPARE(ports.size(), 3);
        const QList<QByteArray> names = listed(prefix + "*");
        QCOMPARE(names.size(), 40);
        QCOMPARE(QSet<QByteArray>(names.cbegin(), names.cend()).size(), 40);
    }

    void slotHalfMigrated()
    {
        // One slot's locks, half of them already moved to another master while the slot is still the source's: the
        // source answers ASK for those, and the router follows it.
        const QByteArray tag = "{" + uniqueKey("moving") + "}";
        const quint16 slot = keySlot(tag);
        const ClusterNode source = m_map.masterFor(slot);
        ClusterNode target;
        for (const ClusterNode &m : m_map.masters())
            if (!(m == source))
                target = m;
        RawRedis src(source.port);
        RawRedis dst(target.port);
        LockClient client(options());
        const QByteArray prefix = tag + ":";
        QList<QByteArray> moved;
        for (int i = 0; i < 20; ++i) {
            AcquireRequest r;
            r.name = prefix + QByteArray::number(i);
            r.kind = i % 2 ? LockMode::Fenced : LockMode::Reentrant;
            r.leaseMs = 120000;
            QVERIFY(acquire(client, r).acquired);
            if (i < 10)
                moved << r.name;
        }
        const QByteArray sourceId = src.command({ "CLUSTER", "MYID" }).bytes();
        const QByteArray targetId = dst.command({ "CLUSTER", "MYID" }).bytes();
        const QByteArray s = QByteArray::number(slot);
        QCOMPARE(dst.command({ "CLUSTER", "SETSLOT", s, "IMPORTING", sourceId }).bytes(), "OK");
        QCOMPARE(src.command({ "CLUSTER", "SETSLOT", s, "MIGRATING", targetId }).bytes(), "OK");
        // A moved lock's aux keys (the fenced lock's token) move with it: they share its slot.
        QList<QByteArray> keys;
        for (const QByteArray &name : std::as_const(moved)) {
            keys << name;
            if (src.command({ "EXISTS", LockNames::fencingToken(name) }).toInteger() == 1)
                keys << LockNames::fencingToken(name);
        }
        QList<QByteArray> migrate { "MIGRATE", "127.0.0.1", QByteArray::number(target.port), "", "0", "5000", "KEYS" };
        QCOMPARE(src.command(migrate + keys).bytes(), "OK");
        QVERIFY(src.command({ "TYPE", moved.first() }).bytes().startsWith("ASK ")); // what a master's batch gets for it

        const QList<QByteArray> names = listed(prefix + "*");
        QCOMPARE(QSet<QByteArray>(names.cbegin(), names.cend()).size(), names.size());
        QCOMPARE(names.size(), 20);

        // The migration finished, as a cluster operator would: the slot is the target's.
        for (;;) {
            const RedisValue rest = src.command({ "CLUSTER", "GETKEYSINSLOT", s, "50" });
            if (rest.size() == 0)
                break;
            QList<QByteArray> argv = migrate;
            for (const RedisValue &k : rest.elements())
                argv << k.bytes();
            QCOMPARE(src.command(argv).bytes(), "OK");
        }
        for (const ClusterNode &m : m_map.masters())
            QCOMPARE(RawRedis(m.port).command({ "CLUSTER", "SETSLOT", s, "NODE", targetId }).bytes(), "OK");
        QTRY_COMPARE(listed(prefix + "*").size(), 20);
    }

    // Last: it stops a master. list and blockers then answer with what the other masters hold, and say that they
    // could not see everything, naming the node: never a short list taken for the whole (issue 49 point 6).
    void aMasterDownMakesThePartialAnswerSaySo()
    {
        const QByteArray prefix = uniqueKey("partial") + ":";
        LockClient client(options());
        QHash<quint16, QList<QByteArray>> byMaster;
        for (int i = 0; i < 30; ++i) {
            AcquireRequest r;
            r.name = prefix + QByteArray::number(i);
            r.leaseMs = 600000;
            QVERIFY(acquire(client, r).acquired);
            byMaster[m_map.masterFor(keySlot(r.name)).port] << r.name;
        }
        QCOMPARE(byMaster.size(), 3);
        // The seed stays up; the others keep serving their own slots once the stopped one is marked failed.
        int down = -1;
        for (int i = 0; i < m_cluster.size(); ++i) {
            RawRedis(m_cluster.node(i).port()).command({ "CONFIG", "SET", "cluster-require-full-coverage", "no" });
            if (m_cluster.node(i).port() != m_cluster.node(0).port() && down < 0)
                down = i;
        }
        const quint16 downPort = m_cluster.node(down).port();
        m_cluster.node(down).stop();

        const CliRun r
            = runCli({ QStringLiteral("--url"), m_cluster.url(), QStringLiteral("--json"), QStringLiteral("list"),
                         QStringLiteral("--pattern"), QString::fromUtf8(prefix) + QStringLiteral("*") },
                m_dir);
        CLI_EXIT(r, CliExit::Done);
        const QJsonObject answer = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(answer.value(QStringLiteral("partial")).toBool(), r.out.constData());
        const QString why = QJsonDocument(answer.value(QStringLiteral("why")).toArray()).toJson();
        QVERIFY2(why.contains(QStringLiteral(":%1").arg(downPort)), qPrintable(why));
        QSet<QByteArray> names;
        for (const QJsonValue &lock : answer.value(QStringLiteral("locks")).toArray())
            names << lock.toObject().value(QStringLiteral("name")).toString().toUtf8();
        QSet<QByteArray> expected;
        for (auto it = byMaster.cbegin(); it != byMaster.cend(); ++it)
            if (it.key() != downPort)
                for (const QByteArray &n : it.value())
                    expected << n;
        QCOMPARE(names, expected);

        const CliRun b
            = runCli({ QStringLiteral("--url"), m_cluster.url(), QStringLiteral("--json"), QStringLiteral("blockers"),
                         QStringLiteral("--pattern"), QString::fromUtf8(prefix) + QStringLiteral("*") },
                m_dir);
        CLI_EXIT(b, CliExit::Done);
        const QJsonObject blockers = QJsonDocument::fromJson(b.out).object();
        QVERIFY2(blockers.value(QStringLiteral("partial")).toBool(), b.out.constData());
        QVERIFY2(QJsonDocument(blockers.value(QStringLiteral("why")).toArray())
                     .toJson()
                     .contains(QByteArray::number(downPort)),
            b.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterList)
#include "tst_clusterlist.moc"
