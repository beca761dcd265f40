// A separate process with its own lock client (its own client id), driven by the multi-process tests.
//   lockscope-test-worker mutex URL LOCK COUNTER THREADS ITERATIONS
// Each thread repeats: lock, GET counter, SET counter+1 (deliberately not atomic), unlock.
#include "blockinglockclient.h"

#include <QCoreApplication>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace LockScope;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 7 || args.at(1) != QLatin1String("mutex")) {
        std::fprintf(stderr, "usage: %s mutex URL LOCK COUNTER THREADS ITERATIONS\n", argv[0]);
        return 2;
    }
    RedisError error;
    const ConnectionOptions options = ConnectionOptions::fromUrl(args.at(2), &error);
    if (error.isError()) {
        std::fprintf(stderr, "%s\n", qPrintable(error.toString()));
        return 2;
    }
    const QByteArray lockName = args.at(3).toUtf8();
    const QByteArray counter = args.at(4).toUtf8();
    const int threads = args.at(5).toInt();
    const int iterations = args.at(6).toInt();

    BlockingLockClient client(options);
    std::atomic<int> failures { 0 };
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            BlockingLock lock = client.lock(lockName);
            for (int i = 0; i < iterations; ++i) {
                const AcquireResult acquired = lock.lock();
                if (!acquired.acquired) {
                    std::fprintf(stderr, "lock failed: %s\n", qPrintable(acquired.error.toString()));
                    ++failures;
                    return;
                }
                const RedisResult value = client.command({ "GET", counter });
                const qint64 next = value.value.isNil() ? 1 : value.value.toInteger() + 1;
                client.command({ "SET", counter, QByteArray::number(next) });
                const ReleaseResult released = lock.unlock();
                if (released.outcome != ReleaseResult::Outcome::Released) {
                    std::fprintf(stderr, "unlock failed: %s %s\n", qPrintable(released.error.toString()),
                        qPrintable(released.message));
                    ++failures;
                    return;
                }
            }
        });
    }
    for (auto &w : workers)
        w.join();
    return failures == 0 ? 0 : 1;
}
