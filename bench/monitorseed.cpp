#include "monitorseed.h"

#include "benchcommon.h"
#include "kinds/locknames.h"

#include <QDateTime>

namespace LockScope::Bench {

SeedKind seedKind(int lock)
{
    switch (lock % 10) {
    case 7:
        return SeedKind::Fenced;
    case 8:
        return SeedKind::Fair;
    case 9:
        return SeedKind::ReadWrite;
    default:
        return SeedKind::Reentrant;
    }
}

QByteArray seedLockName(int lock)
{
    return "bench:lock:" + QByteArray::number(lock);
}

QByteArray seedNoiseName(int noise)
{
    return "bench:noise:" + QByteArray::number(noise);
}

QByteArray seedOwner(const QList<QByteArray> &clients, int lock)
{
    return clients.at(lock % clients.size()) + ':' + QByteArray::number(1 + lock % 211);
}

SeedPlan standardSeedPlan(int locks, int noise, int otherLocks)
{
    SeedPlan plan;
    plan.locks = locks;
    plan.noise = noise;
    plan.otherLocks = otherLocks;
    for (int i = 0; i < 8; ++i)
        plan.clients << LockNames::newClientId();
    return plan;
}

bool seedKeyspace(RawPipe &pipe, const SeedPlan &plan, int chunkCommands, SeedCounts *counts, QString *error)
{
    *counts = {};
    const QByteArray lease = QByteArray::number(plan.leaseMs);
    // A waiter's deadline a day ahead: the queue must look healthy (a passed head deadline means "jammed").
    const QByteArray waiterDeadline = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 24 * 3600 * 1000);
    const QByteArray lookAlikeField = plan.clients.first() + ":7";
    int appended = 0;
    auto drain = [&]() {
        for (; appended > 0; --appended) {
            RawReply reply = pipe.next(error);
            if (!reply)
                return false;
            if (isErrorReply(reply.get())) {
                *error = QStringLiteral("seeding: %1").arg(QString::fromUtf8(replyText(reply.get())));
                return false;
            }
        }
        return true;
    };
    auto add = [&](std::initializer_list<QByteArrayView> argv) {
        pipe.append(argv);
        ++appended;
        ++counts->commands;
        return appended < chunkCommands || drain();
    };

    const qint64 start = nowNs();
    for (int i = 0; i < plan.locks; ++i) {
        const QByteArray name = seedLockName(i);
        const QByteArray owner = seedOwner(plan.clients, i);
        bool ok = true;
        switch (seedKind(i)) {
        case SeedKind::Reentrant:
            ok = add({ "HSET", name, owner, "1" });
            ++counts->reentrant;
            break;
        case SeedKind::Fenced:
            ok = add({ "HSET", name, owner, "1" }) && add({ "SET", LockNames::fencingToken(name), "5" });
            ++counts->fenced;
            break;
        case SeedKind::Fair: {
            const QByteArray waiter = seedOwner(plan.clients, i + 1) + "0";
            ok = add({ "HSET", name, owner, "1" }) && add({ "RPUSH", LockNames::fairQueue(name), waiter })
                && add({ "ZADD", LockNames::fairTimeouts(name), waiterDeadline, waiter });
            ++counts->fair;
            break;
        }
        case SeedKind::ReadWrite:
            ok = add({ "HSET", name, "mode", "read", owner, "1" })
                && add({ "SET", LockNames::rwTimeoutPrefix(name, owner) + ":1", "1", "PX", lease });
            ++counts->readWrite;
            break;
        }
        if (!ok || !add({ "PEXPIRE", name, lease }))
            return false;
    }
    for (int j = 0; j < plan.noise; ++j) {
        const QByteArray name = seedNoiseName(j);
        const int slot = j % 100;
        bool ok = true;
        if (slot < 70) {
            ok = add({ "SET", name, "value-" + QByteArray::number(j) });
            ++counts->strings;
        } else if (slot < 90) {
            ok = add({ "HSET", name, "name", "Ada", "lang", "en" });
            ++counts->hashes;
        } else if (slot < 99) {
            ok = add({ "RPUSH", name, "a", "b", "c" });
            ++counts->lists;
        } else {
            // Owner-shaped field, non-numeric value, no TTL: it costs the aux reads, and must not become a row.
            ok = add({ "HSET", name, lookAlikeField, "pending" });
            ++counts->lookAlikes;
        }
        if (!ok)
            return false;
    }
    for (int k = 0; k < plan.otherLocks; ++k) {
        const QByteArray n = QByteArray::number(k);
        // Tokens of each library's shape (docs/protocol/libraries.md), distinct per lock.
        const QByteArray hex = QByteArray::number(k, 16).rightJustified(12, '0');
        const QByteArray uuid = "3b241101-e2bb-4255-8caf-" + hex;
        bool ok = true;
        switch (k % 9) {
        case 0:
            ok = add({ "SET", "job-lock:default:bench:other:" + n, "ADDED:2026-11-25T06:10:00.123Z@bench-" + n, "PX",
                lease });
            break;
        case 1:
            ok = add({ "SET", "lock:bench:other:" + n, n.rightJustified(24, 'A'), "PX", lease });
            break;
        case 2:
            ok = add({ "SET", "mutex:bench:other:" + n, uuid, "PX", lease });
            break;
        case 3:
            ok = add({ "SET", "redlock:bench:other:" + n, uuid, "PX", lease });
            break;
        case 4:
            ok = add({ "SET", "laravel_unique_job:bench:other:" + n, n.rightJustified(16, 'a'), "PX", lease });
            break;
        case 5:
            ok = add({ "SET", "lock:bench:other:" + n, hex.rightJustified(32, 'f'), "PX", lease });
            break;
        case 6:
            ok = add({ "SET", "bench:other:" + n + ":lock", "t-" + n, "PX", lease });
            break;
        case 7: // redis-semaphore's semaphore: a permit set, as its acquire script writes it
            ok = add({ "ZADD", "semaphore:bench:other:" + n, "1764000000000", uuid })
                && add({ "PEXPIRE", "semaphore:bench:other:" + n, lease });
            break;
        default: // sidekiq-unique-jobs: a digest's LOCKED hash of job ids
            ok = add({ "HSET", "uniquejobs:bench:" + hex + ":LOCKED", hex.rightJustified(24, 'a'), "1764000000.5" });
            break;
        }
        if (!ok)
            return false;
        ++counts->otherLocks;
    }
    if (!drain())
        return false;
    counts->elapsedNs = nowNs() - start;
    return true;
}

} // namespace LockScope::Bench
