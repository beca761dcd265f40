// Mutual exclusion across processes and threads: every process has its own client id, every thread its own
// owner field, and a deliberately non-atomic GET/SET counter comes out exact only if no two ever overlap.
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QProcess>
#include <QTest>

#include <memory>
#include <vector>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Starts `processes` workers in the given mode against one server and waits for all of them; each must exit 0.
void runWorkers(const QString &mode, const RedisServer &server, const QByteArray &lock, const QByteArray &counter,
    int processes, int threads, int iterations)
{
    std::vector<std::unique_ptr<QProcess>> workers;
    for (int p = 0; p < processes; ++p) {
        auto worker = std::make_unique<QProcess>();
        worker->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        worker->start(QStringLiteral(LOCKSCOPE_WORKER_PATH),
            { mode, server.url(), QString::fromUtf8(lock), QString::fromUtf8(counter), QString::number(threads),
                QString::number(iterations) });
        QVERIFY(worker->waitForStarted());
        workers.push_back(std::move(worker));
    }
    for (auto &w : workers) {
        QVERIFY(w->waitForFinished(240000));
        QCOMPARE(w->exitStatus(), QProcess::NormalExit);
        QCOMPARE(w->exitCode(), 0);
    }
}
} // namespace

class TestMutex : public QObject
{
    Q_OBJECT
private slots:
    void fourProcessesTimesFourThreads()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QByteArray lock = uniqueKey("mutex");
        const QByteArray counter = uniqueKey("counter");
        constexpr int processes = 4, threads = 4, iterations = 200;
        runWorkers(QStringLiteral("mutex"), server, lock, counter, processes, threads, iterations);
        if (QTest::currentTestFailed())
            return;
        RawRedis raw(server.port());
        QCOMPARE(raw.get(counter), QByteArray::number(processes * threads * iterations));
        QCOMPARE(raw.type(lock), "none");
    }

    void readWriteExclusionAcrossProcesses()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QByteArray lock = uniqueKey("rw-mutex");
        const QByteArray counter = uniqueKey("rw-counter");
        constexpr int processes = 4, threads = 3, iterations = 60;
        runWorkers(QStringLiteral("rw"), server, lock, counter, processes, threads, iterations);
        if (QTest::currentTestFailed())
            return;
        // Every write hold incremented the non-atomic counter once, and none overlapped a read or another write.
        RawRedis raw(server.port());
        QCOMPARE(raw.get(counter), QByteArray::number(processes * threads * iterations / 2));
        QCOMPARE(raw.get(counter + ":readers"), "0");
        QCOMPARE(raw.get(counter + ":writers"), "0");
        QCOMPARE(raw.type(lock), "none");
    }
};

QTEST_GUILESS_MAIN(TestMutex)
#include "tst_mutex.moc"
