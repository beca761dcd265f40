// Who blocks whom (issue 49 point 5): `lockscope-cli blockers` over real Redisson fair locks, whose waiters queue by
// name. A chain of three is a tree with its root first; two threads each holding the lock the other waits for are a
// deadlock with every edge's evidence; a dead waiter at the head of a free fair lock's queue is a root blocker with
// the repair that frees it. Holds here are ten-minute fixed leases: nothing runs out during the test.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QByteArray queueOf(const QByteArray &name)
{
    return "redisson_lock_queue:{" + name + "}";
}

QString ownerOf(const QJsonObject &reply)
{
    return reply.value(QStringLiteral("owner")).toString();
}
} // namespace

class TestBlockers : public QObject
{
    Q_OBJECT
    RedissonFixture m_fixture;
    RedisServer &m_server = m_fixture.server;

    QJsonObject blockers(const QByteArray &prefix)
    {
        const CliRun r = m_fixture.cli({ QStringLiteral("blockers"), QStringLiteral("--pattern"),
            QString::fromUtf8(prefix) + QStringLiteral("*"), QStringLiteral("--json") });
        if (r.exitCode != 0)
            QTest::qFail(r.describe().constData(), __FILE__, __LINE__);
        return QJsonDocument::fromJson(r.out).object();
    }
    QJsonObject fairLock(RedissonJvm &java, const QString &thread, const QByteArray &name)
    {
        return java.call(
            redissonCall(QStringLiteral("lock"), thread, QStringLiteral("fair"), name, lease(kLongLeaseMs)));
    }
    // Sends a fair lock() that will wait, and returns once its thread is queued.
    void queueFor(RedissonJvm &java, const QString &thread, const QByteArray &name, qint64 before)
    {
        java.send(redissonCall(QStringLiteral("lock"), thread, QStringLiteral("fair"), name, lease(kLongLeaseMs)));
        RawRedis raw(m_server.port());
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "LLEN", queueOf(name) }).toInteger() > before, 30000);
    }

private slots:
    void initTestCase() { m_fixture.start(); }

    void aChainOfThreeIsATree()
    {
        const QByteArray p = uniqueKey("blk-chain") + ":";
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url()));
        const QString a = ownerOf(fairLock(java, QStringLiteral("a"), p + "first"));
        const QString b = ownerOf(fairLock(java, QStringLiteral("b"), p + "second"));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        queueFor(java, QStringLiteral("b"), p + "first", 0); // b, holding second, waits for first
        queueFor(java, QStringLiteral("c"), p + "second", 0); // c waits for second
        const QByteArray c = RawRedis(m_server.port()).command({ "LINDEX", queueOf(p + "second"), "0" }).bytes();

        const QJsonObject report = blockers(p);
        const QJsonArray roots = report.value(QStringLiteral("roots")).toArray();
        QCOMPARE(roots.size(), 1); // b waits: only a waits for nobody
        const QJsonObject root = roots.first().toObject();
        QCOMPARE(root.value(QStringLiteral("owner")).toString(), a);
        QCOMPARE(root.value(QStringLiteral("blocked")).toInt(), 2);
        QCOMPARE(root.value(QStringLiteral("locks")).toArray(), QJsonArray { QString::fromUtf8(p + "first") });
        const QJsonObject viaB = root.value(QStringLiteral("waiters")).toArray().first().toObject();
        QCOMPARE(viaB.value(QStringLiteral("owner")).toString(), b);
        QCOMPARE(viaB.value(QStringLiteral("position")).toInt(), 0);
        const QJsonObject blocksC = viaB.value(QStringLiteral("blocks")).toObject();
        QCOMPARE(blocksC.value(QStringLiteral("locks")).toArray(), QJsonArray { QString::fromUtf8(p + "second") });
        QCOMPARE(blocksC.value(QStringLiteral("waiters"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("owner"))
                     .toString(),
            QString::fromUtf8(c));
        QVERIFY(report.value(QStringLiteral("cycles")).toArray().isEmpty());
        QVERIFY(!root.value(QStringLiteral("action")).toString().isEmpty());
        // The same in words, root first.
        const CliRun text = m_fixture.cli(
            { QStringLiteral("blockers"), QStringLiteral("--pattern"), QString::fromUtf8(p) + QStringLiteral("*") });
        QVERIFY2(text.out.startsWith("1 root blocker, 0 deadlocks"), text.out.constData());
        QVERIFY2(text.out.contains(a.toUtf8() + " holds " + p + "first"), text.out.constData());
    }

    void twoThreadsWaitingForEachOtherAreADeadlock()
    {
        const QByteArray p = uniqueKey("blk-cycle") + ":";
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url()));
        const QString a = ownerOf(fairLock(java, QStringLiteral("a"), p + "left"));
        const QString b = ownerOf(fairLock(java, QStringLiteral("b"), p + "right"));
        queueFor(java, QStringLiteral("a"), p + "right", 0);
        queueFor(java, QStringLiteral("b"), p + "left", 0);

        const QJsonObject report = blockers(p);
        const QJsonArray cycles = report.value(QStringLiteral("cycles")).toArray();
        QCOMPARE(cycles.size(), 1);
        const QJsonObject cycle = cycles.first().toObject();
        QStringList owners;
        for (const QJsonValue &o : cycle.value(QStringLiteral("owners")).toArray())
            owners << o.toString();
        owners.sort();
        QStringList expected { a, b };
        expected.sort();
        QCOMPARE(owners, expected);
        const QJsonArray edges = cycle.value(QStringLiteral("edges")).toArray();
        QCOMPARE(edges.size(), 2);
        for (const QJsonValue &e : edges) {
            const QJsonObject edge = e.toObject();
            // Each edge: who waits, for which lock, held by whom, and how that is known (its place in the queue).
            const QString waiter = edge.value(QStringLiteral("waiter")).toString();
            QCOMPARE(edge.value(QStringLiteral("lock")).toString(),
                QString::fromUtf8(p) + (waiter == a ? QStringLiteral("right") : QStringLiteral("left")));
            QCOMPARE(edge.value(QStringLiteral("holder")).toString(), waiter == a ? b : a);
            QVERIFY2(edge.value(QStringLiteral("evidence")).toString().contains(QStringLiteral("queued")),
                qPrintable(edge.value(QStringLiteral("evidence")).toString()));
        }
        // Nobody in the ring is a root: each waits for the other.
        QVERIFY(report.value(QStringLiteral("roots")).toArray().isEmpty());
    }

    void aDeadWaiterAtAQueueHeadIsARootBlocker()
    {
        // A fair lock nobody holds, whose head left the queue's deadline behind (its client died while it waited):
        // every fair acquire waits behind it. Written as Redisson leaves it.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("blk-head") + ":jobs";
        const QByteArray dead = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:31";
        const QByteArray behind = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "RPUSH", queueOf(name), dead, behind });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + name + "}", QByteArray::number(now - 60000), dead,
            QByteArray::number(now + 600000), behind });
        const QJsonObject report = blockers(name);
        const QJsonArray roots = report.value(QStringLiteral("roots")).toArray();
        QCOMPARE(roots.size(), 1);
        const QJsonObject root = roots.first().toObject();
        QCOMPARE(root.value(QStringLiteral("owner")).toString(), QString::fromUtf8(dead));
        QCOMPARE(root.value(QStringLiteral("role")).toString(), QStringLiteral("dead-queue-head"));
        QCOMPARE(root.value(QStringLiteral("blocked")).toInt(), 1);
        QVERIFY2(root.value(QStringLiteral("action")).toString().contains(QStringLiteral("repair-queue")),
            qPrintable(root.value(QStringLiteral("action")).toString()));
        QCOMPARE(root.value(QStringLiteral("waiters"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("owner"))
                     .toString(),
            QString::fromUtf8(behind));
        // blockers only reads.
        QCOMPARE(raw.command({ "LLEN", queueOf(name) }).toInteger(), 2);
    }

    void nothingBlocksIsAnEmptyAnswerNotAnError()
    {
        const QJsonObject report = blockers(uniqueKey("blk-none"));
        QVERIFY(report.value(QStringLiteral("roots")).toArray().isEmpty());
        QVERIFY(report.value(QStringLiteral("cycles")).toArray().isEmpty());
        QVERIFY(!report.contains(QStringLiteral("partial")));
    }
};

QTEST_GUILESS_MAIN(TestBlockers)
#include "tst_blockers.moc"
