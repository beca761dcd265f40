// The blocking facade from worker threads: one client id, and each calling thread is an owner of its own, as with
// Redisson's RLock (a thread cannot release another thread's hold, and a second thread waits for the first).
// Worker threads only record what they saw; the test thread asserts, so a failure never turns into a hang.
#include "lock/blockinglockclient.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTest>

#include <future>
#include <thread>

using namespace LockScope;
using namespace LockScope::Test;

class TestBlocking : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void eachThreadIsItsOwnOwner()
    {
        BlockingLockClient client(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("threads");
        BlockingLock lock = client.lock(name);

        struct First
        {
            bool locked = false, reentered = false, heldByMe = false;
            qint64 count = 0;
            QByteArray owner;
            ReleaseResult::Outcome firstUnlock {}, lastUnlock {};
        } first;
        struct Second
        {
            bool heldByMe = true, tried = true;
            qint64 count = -1;
            ReleaseResult refused;
            AcquireResult waited;
        } second;
        std::promise<void> firstHolds, secondTried, firstMayRelease;
        std::thread a([&] {
            first.locked = lock.lock(30000).acquired;
            first.reentered = lock.tryLock(0, 30000).acquired;
            first.count = lock.holdCount();
            first.heldByMe = lock.isHeldByCurrentThread();
            first.owner = lock.ownerForCurrentThread();
            firstHolds.set_value();
            firstMayRelease.get_future().wait();
            first.firstUnlock = lock.unlock().outcome;
            first.lastUnlock = lock.unlock().outcome;
        });
        std::thread b([&] {
            firstHolds.get_future().wait();
            second.heldByMe = lock.isHeldByCurrentThread();
            second.count = lock.holdCount();
            second.tried = lock.tryLock(0).acquired;
            second.refused = lock.unlock();
            secondTried.set_value();
            // Blocks until the first thread's last release wakes it.
            second.waited = lock.tryLock(60000, 30000);
            lock.unlock();
        });
        secondTried.get_future().wait();
        const QByteArray countWhileHeld = raw.hgetall(name).value(first.owner);
        firstMayRelease.set_value();
        a.join();
        b.join();

        QVERIFY(first.locked);
        QVERIFY(first.reentered);
        QCOMPARE(first.count, 2);
        QVERIFY(first.heldByMe);
        QCOMPARE(countWhileHeld, "2");
        QCOMPARE(first.firstUnlock, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(first.lastUnlock, ReleaseResult::Outcome::Released);
        // Same client id, another thread: not the owner, cannot take it, cannot release it.
        QVERIFY(!second.heldByMe);
        QCOMPARE(second.count, 0);
        QVERIFY(!second.tried);
        QCOMPARE(second.refused.outcome, ReleaseResult::Outcome::NotHeld);
        QVERIFY(second.refused.message.contains(QString::fromLatin1(client.clientId())));
        QVERIFY(second.waited.acquired);
        QVERIFY(second.waited.owner != first.owner);
        QVERIFY(second.waited.owner.startsWith(client.clientId() + ':'));
        QCOMPARE(raw.type(name), "none");
    }

    void commandsFromWorkerThreads()
    {
        BlockingLockClient client(ConnectionOptions::fromUrl(m_server.url()));
        const QByteArray key = uniqueKey("incr");
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 100; ++i)
                    client.command({ "INCR", key });
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(client.command({ "GET", key }).value.bytes(), "400");
    }

    void destroyingTheClientAnswersCallsInProgress()
    {
        auto client = std::make_unique<BlockingLockClient>(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray list = uniqueKey("never-filled");
        std::promise<RedisResult> answered;
        auto answer = answered.get_future();
        std::thread t([&] { answered.set_value(client->command({ "BLPOP", list, "30" })); });
        QTRY_VERIFY(raw.command({ "CLIENT", "LIST" }).bytes().contains("cmd=blpop"));
        client.reset();
        // The call in progress gets an error at once instead of hanging for good.
        QCOMPARE(answer.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        t.join();
        QCOMPARE(answer.get().error.kind(), RedisError::Kind::Io);
    }
};

QTEST_GUILESS_MAIN(TestBlocking)
#include "tst_blocking.moc"
