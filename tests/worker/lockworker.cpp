// A separate process with its own lock client (its own client id), driven by the multi-process tests.
//   lockscope-test-worker mutex URL LOCK COUNTER THREADS ITERATIONS
//     Each thread repeats: lock, GET counter, SET counter+1 (deliberately not atomic), unlock.
//   lockscope-test-worker rw URL LOCK COUNTER THREADS ITERATIONS
//     Each thread alternates a write hold (the same non-atomic increment) and a read hold. Probes: a writer counts
//     itself in COUNTER:writers and must see COUNTER:readers at 0; a reader the other way round.
//   lockscope-test-worker hold URL LOCK WATCHDOG_MS
//     Takes LOCK with the watchdog (lease WATCHDOG_MS, renewed every third), prints "held OWNER", holds until killed.
//   lockscope-test-worker history URL PREFIX LOCKS ITERATIONS SEED
//     Random holds of PREFIX:0 .. PREFIX:<LOCKS-1>, fixed short leases (often overrun) or the watchdog, each logged
//     on stdout with the server's clock (see historyworker.cpp) for the mutual-exclusion checker.
#include "historyworker.h"
#include "lock/blockinglockclient.h"

#include <QCoreApplication>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace LockScope;

namespace {
bool isZero(BlockingLockClient &client, const QByteArray &key)
{
    const RedisResult r = client.command({ "GET", key });
    return r.value.isNil() || r.value.toInteger() == 0;
}

bool held(const AcquireResult &r)
{
    if (!r.acquired)
        std::fprintf(stderr, "lock failed: %s\n", qPrintable(r.error.toString()));
    return r.acquired;
}

// A reader's last release leaves the hash in place while other readers hold it ("still held"): both are fine.
bool released(const ReleaseResult &r, bool shared = false)
{
    const bool ok = r.outcome == ReleaseResult::Outcome::Released
        || (shared && r.outcome == ReleaseResult::Outcome::StillHeld && !r.error.isError());
    if (!ok)
        std::fprintf(stderr, "unlock failed: %s %s\n", qPrintable(r.error.toString()), qPrintable(r.message));
    return ok;
}
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString mode = args.value(1);
    if (mode == QLatin1String("hold") && args.size() == 5)
        return holdUntilKilled(app, args.at(2), args.at(3).toUtf8(), args.at(4).toInt());
    if (mode == QLatin1String("history") && args.size() == 7)
        return runHistory(args.at(2), args.at(3).toUtf8(), args.at(4).toInt(), args.at(5).toInt(), args.at(6).toUInt());
    if (args.size() != 7 || (mode != QLatin1String("mutex") && mode != QLatin1String("rw"))) {
        std::fprintf(stderr,
            "usage: %s mutex|rw URL LOCK COUNTER THREADS ITERATIONS\n"
            "       %s hold URL LOCK WATCHDOG_MS\n"
            "       %s history URL PREFIX LOCKS ITERATIONS SEED\n",
            argv[0], argv[0], argv[0]);
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
    const QByteArray readers = counter + ":readers", writers = counter + ":writers";
    const int threads = args.at(5).toInt();
    const int iterations = args.at(6).toInt();

    BlockingLockClient client(options);
    std::atomic<int> failures { 0 };
    const auto increment = [&] {
        const RedisResult value = client.command({ "GET", counter });
        const qint64 next = value.value.isNil() ? 1 : value.value.toInteger() + 1;
        client.command({ "SET", counter, QByteArray::number(next) });
    };
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            for (int i = 0; i < iterations && failures == 0; ++i) {
                AcquireRequest request;
                request.name = lockName;
                request.waitMs = -1;
                request.leaseMs = 30000;
                if (mode == QLatin1String("mutex")) {
                    const AcquireResult a = client.acquire(request);
                    if (!held(a)) {
                        ++failures;
                        return;
                    }
                    increment();
                    if (!released(client.release(lockName, a.owner)))
                        ++failures;
                    continue;
                }
                const bool write = i % 2 == 0;
                request.kind = write ? LockMode::Write : LockMode::Read;
                const AcquireResult a = client.acquire(request);
                if (!held(a)) {
                    ++failures;
                    return;
                }
                client.command({ "INCR", write ? writers : readers });
                if (!isZero(client, write ? readers : writers)) {
                    std::fprintf(stderr, "%s held while the other side was inside\n", write ? "write" : "read");
                    ++failures;
                }
                if (write)
                    increment();
                client.command({ "DECR", write ? writers : readers });
                if (!released(client.release(lockName, a.owner, request.kind), !write))
                    ++failures;
            }
        });
    }
    for (auto &w : workers)
        w.join();
    return failures == 0 ? 0 : 1;
}
