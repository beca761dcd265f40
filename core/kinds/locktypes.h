#pragma once

#include "kinds/keyglob.h"

#include "base/rediserror.h"

#include <QByteArray>
#include <QMetaType>

#include <optional>

namespace LockScope {

struct LockClientOptions
{
    QByteArray clientId; // empty: a fresh random UUID, as every RedissonClient instance has
    int watchdogTimeoutMs = 30000; // Redisson's lockWatchdogTimeout
    int watchdogBatchSize = 100; // keys per renewal script (lockWatchdogBatchSize)
    int latchTtlMs = 16000; // how long an unlock latch remembers its outcome
    int releaseAttempts = 3; // a release that fails on I/O is retried with the same request id
    // Redisson's retryInterval: the pause before such a retry, time for a reconnect or a failover to finish (an
    // immediate retry meets the same dead node). All attempts must fit in the latch's lifetime.
    int releaseRetryDelayMs = 1500;
    int maxNameBytes = 8192;
    qint64 fairWaitTimeoutMs = 300000; // a fair waiter's queue deadline when it waits without limit
    // Fair-queue repair finds a waiter dead only when nobody listened for it in two reads this far apart: a Java
    // waiter enqueues first and subscribes after, so one silent read may be a live waiter on its way.
    int fairListenerRecheckMs = 3000;
    // Where string locks live and which names the user declared as one library's: a string lock's release and force
    // release wake that library's waiters (docs/protocol/libraries.md#waking-waiters).
    StringLockPatterns stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
};

// How a hold is taken and given back: which of a layout's script sets runs. What a lock *is* has one enum,
// LockInfo::Kind (the classifier's, JSON's "kind"); a mode says how a hold of it is taken or released, and is what
// --kind, the acquire dialog and a request name. Reentrant, Fenced (RLock's layout plus a fencing token:
// docs/protocol/fenced.md) and Fair (first come, first served through a queue of waiters:
// docs/protocol/fair.md#queue-and-deadlines) are their layouts' one mode each; Read and Write are the two modes of a
// read-write lock (docs/protocol/readwrite.md#modes): the write hold's field ends in ":write". String is the single-key
// SET NX PX lock of redlock and friends (kinds/string/). SortedSet is a hold kept as a member of a sorted set
// (kinds/sortedset/: redis-semaphore's semaphores, Symfony's RedisStore), UniqueJob a Sidekiq job's unique lock
// (kinds/sidekiq/): both released, never taken here.
enum class LockMode { Reentrant, Fenced, Read, Write, Fair, String, SortedSet, UniqueJob };

// What a person may do to a lock by its name. Each layout says which of these apply to its locks
// (LockLayout::allows); a write by name runs only on what discovery would list as a lock of such a layout
// (kinds/lockatname.h).
// Acquire is checked by name only for what is no lock at all (an application's hash): the acquire script itself
// refuses a lock of another kind (AcquireCheck).
enum class LockAction { Release, ForceRelease, AddPermits, ReleasePermit, OpenLatch, RepairQueue, Acquire };

struct AcquireRequest
{
    QByteArray name;
    QByteArray token; // the part after "<uuid>:"; empty: the calling thread's id
    qint64 leaseMs = -1; // <= 0: lease = watchdog timeout, renewed by the watchdog
    qint64 waitMs = 0; // 0: try once; < 0: wait until acquired
    LockMode kind = LockMode::Reentrant;
    // Read the owner's hold count once acquired (AcquireResult::count): a person is told whether it was a reentry.
    // Off for programs that only lock: the read is one more round trip.
    bool readCount = false;
    // With the watchdog: its lease for this hold, renewed every third of it (Redisson's lockWatchdogTimeout, for one
    // lock). <= 0: the client's (LockClientOptions::watchdogTimeoutMs). Last, as callers fill the fields before it in
    // order ({ name, token, leaseMs, waitMs }).
    qint64 watchdogTimeoutMs = 0;
};

struct AcquireResult
{
    RedisError error;
    bool acquired = false;
    QByteArray name;
    QByteArray owner; // the hash field, "<uuid>:<token>"
    qint64 ttlMs = 0; // not acquired: the holder's remaining lease (-1: the key has no TTL)
    QByteArray holderNow; // not acquired, where the answer names the holder (a string lock's token)
    qint64 leaseMs = 0; // acquired: the lease set
    bool watchdog = false; // acquired: renewed by the watchdog
    int attempts = 0; // acquire scripts run
    qint64 fencingToken = -1; // fenced lock, acquired: the token this acquisition drew (reentry draws one too)
    bool cancelled = false; // cancelAcquire() ended the wait; nothing is held
    // Acquired with AcquireRequest::readCount: the owner's hold count now (1: a first hold, more: a reentry; 1 for a
    // layout without reentry). 0 when not read.
    qint64 count = 0;
};

struct ReleaseResult
{
    enum class Outcome { Released, StillHeld, NotHeld };
    RedisError error;
    Outcome outcome = Outcome::NotHeld;
    QByteArray name;
    QByteArray owner;
    LockMode kind = LockMode::Reentrant; // the release script that ran (or would have)
    QByteArray holderNow; // NotHeld, where the answer names the holder (a string lock's token now)
    QList<QByteArray> wokeVia; // Released: the lists and channels its library's waiters were woken on (string locks)
    // For NotHeld: the message Redisson users know from IllegalMonitorStateException.
    QString message;
};

struct ForceReleaseResult
{
    RedisError error;
    bool deleted = false; // false: nothing was there, or the guard failed
    bool guardFailed = false; // the holders were no longer what the caller expected; nothing changed
    QList<QByteArray> holdersNow; // with guardFailed: the holders found instead
    QByteArray name;
    QList<QByteArray> wokeVia; // deleted: the lists and channels its library's waiters were woken on (string locks)
    // The layout whose script ran (or was refused): the kind Redis held at that moment. None when nothing was decided
    // (a name that holds no lock, a bad name, read-only mode).
    std::optional<LockMode> kind;
};

// One waiter in a fair lock's queue, as queue repair sees it.
struct FairWaiter
{
    QByteArray owner;
    qint64 deadlineMs = -1; // epoch ms on the waiter's clock; -1: missing from the zset
    bool stale = false; // the deadline has passed: Redisson would purge it once it reaches the head
    int subscribers = 0; // connections listening on its wake-up channel, plain and shard namespaces, at the last read
    // Nobody listened in either of two reads some seconds apart (LockClientOptions::fairListenerRecheckMs): nobody
    // is waiting for it. A waiter seen silent only once (it queued between the reads) is not silent.
    bool silent = false;
    bool orphaned() const { return stale || silent; }
};

struct FairQueueReport
{
    RedisError error;
    QByteArray name;
    bool lockHeld = false;
    QList<FairWaiter> waiters; // in queue order
    int removed = 0; // after a repair
};

struct QueryResult
{
    RedisError error;
    qint64 value = 0;
};

struct HoldEvent
{
    QByteArray name;
    QByteArray owner;
    qint64 leaseMs = 0;
    LockMode kind = LockMode::Reentrant; // as acquired: its layout renews and releases it
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::AcquireResult)
Q_DECLARE_METATYPE(LockScope::ReleaseResult)
Q_DECLARE_METATYPE(LockScope::ForceReleaseResult)
Q_DECLARE_METATYPE(LockScope::HoldEvent)
