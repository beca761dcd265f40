#include "historyworker.h"

#include "lock/blockinglockclient.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <chrono>
#include <cstdio>
#include <thread>

using namespace LockScope;

namespace {
// A watchdog hold must not run out while its worker lives: renewed every second, it survives two seconds of a busy
// machine's stall (900 ms left 600 ms, which an ASan build beside busy loops overran). A killed holder's lock then
// lasts up to three seconds, which the waiters on it sit out.
constexpr int kWatchdogMs = 3000;
constexpr int kFixedLeaseMs = 300;
constexpr int kLongestHoldMs = 450; // past the fixed lease about one time in three: leases do run out

void line(const QByteArray &text)
{
    std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

qint64 serverMicros(BlockingLockClient &client)
{
    const RedisResult t = client.command({ "TIME" });
    if (!t.ok() || t.value.size() != 2)
        return -1;
    return t.value.at(0).toInteger() * 1000000 + t.value.at(1).toInteger();
}

ConnectionOptions optionsFrom(const QString &url, bool *ok)
{
    RedisError error;
    const ConnectionOptions options = ConnectionOptions::fromUrl(url, &error);
    *ok = !error.isError();
    if (!*ok)
        std::fprintf(stderr, "%s\n", qPrintable(error.toString()));
    return options;
}
} // namespace

int holdUntilKilled(QCoreApplication &app, const QString &url, const QByteArray &lock, int watchdogMs)
{
    bool ok = false;
    const ConnectionOptions options = optionsFrom(url, &ok);
    if (!ok)
        return 2;
    LockClientOptions lockOptions;
    lockOptions.watchdogTimeoutMs = watchdogMs;
    BlockingLockClient client(options, lockOptions);
    AcquireRequest request;
    request.name = lock;
    request.waitMs = -1;
    const AcquireResult a = client.acquire(request);
    if (!a.acquired) {
        std::fprintf(stderr, "lock failed: %s\n", qPrintable(a.error.toString()));
        return 1;
    }
    line("held " + a.owner);
    return app.exec();
}

int runHistory(const QString &url, const QByteArray &prefix, int locks, int iterations, quint32 seed)
{
    bool ok = false;
    const ConnectionOptions options = optionsFrom(url, &ok);
    if (!ok || locks < 1)
        return 2;
    LockClientOptions lockOptions;
    lockOptions.watchdogTimeoutMs = kWatchdogMs;
    BlockingLockClient client(options, lockOptions);
    QObject::connect(client.client(), &LockClient::holdLost, client.client(),
        [](const HoldEvent &e) { line("L " + e.name + ' ' + e.owner); });
    QRandomGenerator random(seed);
    for (int i = 0; i < iterations; ++i) {
        const QByteArray lock = prefix + ':' + QByteArray::number(random.bounded(locks));
        const bool watchdog = random.bounded(3) == 0;
        AcquireRequest request;
        request.name = lock;
        request.waitMs = 4000;
        request.leaseMs = watchdog ? -1 : kFixedLeaseMs;
        const qint64 before = serverMicros(client);
        const AcquireResult a = client.acquire(request);
        if (!a.acquired) {
            line("W " + lock);
            continue;
        }
        const qint64 acquired = serverMicros(client);
        line("A " + lock + ' ' + a.owner + ' ' + QByteArray::number(before) + ' ' + QByteArray::number(acquired) + ' '
            + QByteArray::number(watchdog ? kWatchdogMs : kFixedLeaseMs) + (watchdog ? " 1" : " 0"));
        // The critical section: in this process sleeping is the work being protected, not a synchronisation.
        std::this_thread::sleep_for(std::chrono::milliseconds(random.bounded(kLongestHoldMs + 1)));
        const qint64 releasing = serverMicros(client);
        const ReleaseResult r = client.release(lock, a.owner);
        const char *outcome = r.error.isError()              ? "error"
            : r.outcome == ReleaseResult::Outcome::Released  ? "released"
            : r.outcome == ReleaseResult::Outcome::StillHeld ? "still-held"
                                                             : "not-held";
        line("R " + lock + ' ' + a.owner + ' ' + QByteArray::number(releasing) + ' ' + outcome);
    }
    return 0;
}
