// The blocking facade from worker threads: one client id, and each calling thread is an owner of its own, as with
// Redisson's RLock (a thread cannot release another thread's hold, and a second thread waits for the first).
#include "blockinglockclient.h"
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

        std::promise<void> firstHolds, secondTried, firstMayRelease;
        std::promise<AcquireResult> secondWaited;
        QByteArray firstOwner;
        std::thread first([&] {
            QVERIFY(lock.lock(30000).acquired);
            QVERIFY(lock.tryLock(0, 30000).acquired); // reentry by the same thread
            QCOMPARE(lock.holdCount(), 2);
            QVERIFY(lock.isHeldByCurrentThread());
            firstOwner = lock.ownerForCurrentThread();
            firstHolds.set_value();
            firstMayRelease.get_future().wait();
            QCOMPARE(lock.unlock().outcome, ReleaseResult::Outcome::StillHeld);
            QCOMPARE(lock.unlock().outcome, ReleaseResult::Outcome::Released);
        });
        std::thread second([&] {
            firstHolds.get_future().wait();
            // Same client id, another thread: not the owner.
            QVERIFY(!lock.isHeldByCurrentThread());
            QCOMPARE(lock.holdCount(), 0);
            QVERIFY(!lock.tryLock(0).acquired);
            const ReleaseResult refused = lock.unlock();
            QCOMPARE(refused.outcome, ReleaseResult::Outcome::NotHeld);
            QVERIFY(refused.message.contains(QString::fromLatin1(client.clientId())));
            secondTried.set_value();
            // Blocks until the first thread's last release wakes it.
            secondWaited.set_value(lock.tryLock(60000, 30000));
            lock.unlock();
        });
        secondTried.get_future().wait();
        QCOMPARE(raw.hgetall(name).value(firstOwner), "2");
        firstMayRelease.set_value();
        first.join();
        const AcquireResult waited = secondWaited.get_future().get();
        second.join();
        QVERIFY(waited.acquired);
        QVERIFY(waited.owner != firstOwner);
        QVERIFY(waited.owner.startsWith(client.clientId() + ':'));
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
};

QTEST_GUILESS_MAIN(TestBlocking)
#include "tst_blocking.moc"
