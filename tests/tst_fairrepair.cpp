// Fair-queue repair never removes a live waiter: listeners are counted in both pub/sub namespaces whatever the publish
// mode, and a waiter nobody listens for is looked at again some seconds later before it counts as dead (a Java waiter
// joins the queue first and subscribes a moment after).
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "ops/fairqueuerepair.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";

QByteArrayList queue(RawRedis &raw, const QByteArray &name)
{
    QByteArrayList out;
    const RedisValue v = raw.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" });
    for (int i = 0; i < v.size(); ++i)
        out << v.at(i).bytes();
    return out;
}

// A held fair lock with one waiter queued as a Java client queues: deadline ten minutes away, nobody listening yet.
void heldWithWaiter(RawRedis &raw, const QByteArray &name)
{
    raw.command({ "HSET", name, kHolder, "1" });
    raw.command({ "PEXPIRE", name, "60000" });
    raw.command({ "RPUSH", LockNames::fairQueue(name), kWaiter });
    raw.command({ "ZADD", LockNames::fairTimeouts(name),
        QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kWaiter });
}

// PUBSUB NUMSUB calls the server has run (INFO commandstats): the repair's listener counts.
qint64 numsubCalls(RawRedis &raw)
{
    const QByteArray info = raw.command({ "INFO", "commandstats" }).bytes();
    const QByteArray key = "cmdstat_pubsub|numsub:calls=";
    const qsizetype at = info.indexOf(key);
    if (at < 0)
        return 0;
    const qsizetype from = at + key.size();
    return info.mid(from, info.indexOf(',', from) - from).toLongLong();
}
} // namespace

class TestFairRepair : public QObject
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

    void waiterThatSubscribesBetweenTheTwoLooksStays()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("repair-late");
        heldWithWaiter(raw, name);
        LockClientOptions options;
        options.fairListenerRecheckMs = 3000;
        LockClient support(m_options, options);
        const qint64 before = numsubCalls(raw);
        std::optional<FairQueueReport> fixed;
        Ops::repairFairQueue(&support, name, false, [&](const FairQueueReport &r) { fixed = r; });
        // The first look has counted nobody; the waiter subscribes now, before the second look can be sent (the
        // client's timer only runs while this thread pumps events, after the subscription is in place).
        QTRY_VERIFY_WITH_TIMEOUT(numsubCalls(raw) > before, 15000);
        RawRedis ears(m_server.port());
        ears.append({ "SUBSCRIBE", LockNames::fairChannel(name, kWaiter) });
        QCOMPARE(ears.readReply(5000).at(0).bytes(), "subscribe");
        QTRY_VERIFY_WITH_TIMEOUT(fixed.has_value(), 20000);
        QVERIFY2(!fixed->error.isError(), qPrintable(fixed->error.toString()));
        QCOMPARE(fixed->removed, 0);
        QCOMPARE(fixed->waiters.size(), 1);
        QCOMPARE(fixed->waiters.at(0).subscribers, 1);
        QVERIFY(!fixed->waiters.at(0).orphaned());
        QCOMPARE(queue(raw, name), QByteArrayList { kWaiter });
        QVERIFY(numsubCalls(raw) >= before + 2); // it did look twice
    }

    void waiterSilentAtBothLooksGoesAndTheDryRunSaysSo()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("repair-dead");
        heldWithWaiter(raw, name);
        LockClientOptions options;
        options.fairListenerRecheckMs = 100;
        LockClient support(m_options, options);
        const qint64 before = numsubCalls(raw);
        const FairQueueReport dry
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, true, d); });
        QVERIFY(dry.waiters.value(0).silent);
        QVERIFY(dry.waiters.value(0).orphaned());
        // One look at the lock's own listeners, as list reads it to tell it is a fair lock; then the waiter's, twice.
        QCOMPARE(numsubCalls(raw), before + 3);
        QCOMPARE(queue(raw, name), QByteArrayList { kWaiter });
        const FairQueueReport fixed
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, false, d); });
        QCOMPARE(fixed.removed, 1);
        QVERIFY(queue(raw, name).isEmpty());
    }

    void shardListenerCountsInPlainMode()
    {
        // A waiter of a sharded fleet listens only on its shard channel; this client publishes plainly.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("repair-shard");
        heldWithWaiter(raw, name);
        RawRedis ears(m_server.port());
        ears.append({ "SSUBSCRIBE", LockNames::fairChannel(name, kWaiter) });
        QCOMPARE(ears.readReply(5000).at(0).bytes(), "ssubscribe");
        ConnectionOptions plain = m_options;
        plain.publishMode = PublishMode::Plain;
        LockClientOptions options;
        options.fairListenerRecheckMs = 100;
        LockClient support(plain, options);
        const FairQueueReport fixed
            = await<FairQueueReport>([&](auto d) { Ops::repairFairQueue(&support, name, false, d); });
        QVERIFY2(!fixed.error.isError(), qPrintable(fixed.error.toString()));
        QCOMPARE(fixed.removed, 0);
        QCOMPARE(fixed.waiters.value(0).subscribers, 1);
        QCOMPARE(queue(raw, name), QByteArrayList { kWaiter });
    }
};

QTEST_GUILESS_MAIN(TestFairRepair)
#include "tst_fairrepair.moc"
