#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace LockScope {

// One thing a simulated demo client did or saw, as a plain value so it crosses queued connections and lands
// in models, logs and JSON lines alike.
struct DemoEvent
{
    enum class Kind {
        Acquired,
        Reentered, // one more level of a hold the client already had
        Released, // one level given back; count says whether the hold is gone
        Renewed, // the watchdog extended the lease
        Lost, // the hold vanished before the client released it (expired, or deleted by someone else)
        Waiting, // the lock was taken: the client now waits for a wake-up
        GaveUp, // the wait ran out without the lock
        Crashed, // the crashing holder stopped renewing without releasing
        Failed, // a command failed (connection trouble); the client retries later
    };
    // The last three are the mixed fleet's (demofleet.h): a ShedLock job, python-redis-lock workers, and workers
    // sharing a Redisson semaphore's permits.
    enum class Role {
        WatchdogHolder,
        LeaseHolder,
        Waiter,
        Reentrant,
        CrashingHolder,
        Reader,
        Writer,
        FairWaiter,
        ScheduledJob,
        StringLockWorker,
        SemaphoreWorker
    };

    Kind kind = Kind::Acquired;
    Role role = Role::WatchdogHolder;
    int client = 0; // 1-based number of the simulated client, stable for the run
    QByteArray name;
    QByteArray owner; // the hash field "<uuid>:<tid>"
    int count = 0; // hold count after the event; 0: no longer held
    // Acquired, Reentered, Renewed, Released with count > 0: the lease just set. Waiting and GaveUp: the
    // holder's remaining TTL (-1: none). Otherwise 0.
    qint64 leaseMs = 0;
    bool watchdog = false; // the hold is renewed by the watchdog
    qint64 waitMs = 0; // Waiting and GaveUp: how long the client is prepared to wait
    QDateTime time; // wall clock (UTC), for logs only: countdowns use a monotonic clock
    QString detail; // Failed and Lost: what went wrong, when known

    // The event names of conventions.md ("acquired", "released", ...), never translated.
    static QString kindName(Kind kind)
    {
        switch (kind) {
        case Kind::Acquired:
            return QStringLiteral("acquired");
        case Kind::Reentered:
            return QStringLiteral("reentered");
        case Kind::Released:
            return QStringLiteral("released");
        case Kind::Renewed:
            return QStringLiteral("renewed");
        case Kind::Lost:
            return QStringLiteral("lost");
        case Kind::Waiting:
            return QStringLiteral("waiting");
        case Kind::GaveUp:
            return QStringLiteral("gave-up");
        case Kind::Crashed:
            return QStringLiteral("crashed");
        case Kind::Failed:
            return QStringLiteral("failed");
        }
        return {};
    }
    // The hold still exists after this event.
    bool holds() const { return count > 0 && kind != Kind::Lost; }
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::DemoEvent)
