#pragma once

#include "kinds/forceguard.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "kinds/locktypes.h"

#include <QByteArray>
#include <QList>

#include <optional>
#include <utility>

namespace LockScope {

class RedisScript;
class RedisValue;

// One script a layout asks the lock client to run: the client adds nothing but the transport (EVALSHA, retries,
// routing by the first key).
struct ScriptCall
{
    ScriptCall() = default;
    ScriptCall(const RedisScript *script, QList<QByteArray> keys, QList<QByteArray> args, QList<QByteArray> wakes = {})
        : script(script)
        , keys(std::move(keys))
        , args(std::move(args))
        , wakes(std::move(wakes))
    { }
    const RedisScript *script = nullptr;
    QList<QByteArray> keys;
    QList<QByteArray> args;
    // Where a release or force release that goes through wakes waiters beyond the layout's own channel (a library's
    // signal list, a Spring registry's channels), for the result to say.
    QList<QByteArray> wakes;
};

// What the client knows when it takes a lock: the layout turns it into its own keys and arguments.
struct AcquireCall
{
    QByteArray name;
    QByteArray owner; // the field to write, as ownerField() made it
    qint64 leaseMs = 0;
    bool willWait = false; // the caller waits if it does not get it now (a fair waiter then joins the queue)
    qint64 queueWaitMs = 0; // fair: how long a queued waiter's place is kept
    qint64 nowMs = 0; // wall clock, epoch ms: fair queue deadlines are on the waiting client's clock
};

struct ReleaseCall
{
    QByteArray name;
    QByteArray owner;
    QByteArray latch; // the unlock latch: a retried release reads its first outcome from it
    qint64 leaseMs = 0; // reset on a level that stays held (0: leave the TTL as it is, a foreign hold)
    QByteArray publish; // "PUBLISH", "SPUBLISH" or "PUBLISH,SPUBLISH"
    qint64 latchTtlMs = 0;
    const StringLockPatterns *patterns = nullptr; // the names the client knows as some library's (string locks)
    bool cluster = false; // every key of a script must share the lock's slot
    qint64 nowMs = 0;
};

struct ForceReleaseCall
{
    QByteArray name;
    QByteArray publish;
    qint64 nowMs = 0;
    ForceGuard guard; // what the person saw; the script deletes only while it holds
    const StringLockPatterns *patterns = nullptr; // the names the client knows as some library's (string locks)
    bool cluster = false; // every key of a script must share the lock's slot
};

// A lease given to a lock by a person (lockscope-cli expire): leaseMs from now, while the guard holds.
struct LeaseCall
{
    QByteArray name;
    qint64 leaseMs = 0;
    ForceGuard guard; // what the person saw: the same guard a force release keeps to
};

// How a lock of a layout is taken, given back and forced open, as the library that owns it does each: the scripts,
// how to read their answers, and the checks made before anything is sent. A layout whose locks are taken or
// released here has one (LockLayout::lockActions()); a counter has none and is never released as a lock.
class LockActions
{
public:
    virtual ~LockActions() = default;

    // The hash field a hold of mode writes for owner "<uuid>:<thread>" (a write hold ends in ":write").
    virtual QByteArray ownerField(LockMode mode, const QByteArray &owner) const
    {
        Q_UNUSED(mode);
        return owner;
    }
    // The script that takes one level, or reports the holder's TTL (AcquireCheck::decode reads its answer).
    virtual ScriptCall acquire(LockMode mode, const AcquireCall &call) const = 0;
    // The script that gives back one level exactly as the owner's own unlock would: nil not held, 0 still held,
    // 1 released (and waiters told).
    virtual ScriptCall release(LockMode mode, const ReleaseCall &call) const = 0;
    // Deletes the whole lock while the guard holds and wakes its waiters: 1 deleted, 0 nothing there, -1 the guard
    // failed and nothing changed.
    virtual ScriptCall forceRelease(const ForceReleaseCall &call) const = 0;
    // Gives the lock a lease of call.leaseMs from now while the guard holds, never shortening the one it has: 1 set, 0
    // nothing there, -1 the guard failed, -2 it already has at least that long (nothing changed but for 1). None: the
    // layout keeps no single lease to set (a sorted set's holds expire one by one). Redisson's lock hashes: PEXPIRE.
    virtual std::optional<ScriptCall> setLease(const LeaseCall &call) const;
    // Where a waiter of owner's listens for a release (empty: the layout wakes nobody).
    virtual QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const
    {
        Q_UNUSED(name);
        Q_UNUSED(owner);
        return {};
    }
    // What a waiter that ends without the lock must undo (a fair waiter leaves the queue).
    virtual std::optional<ScriptCall> giveUp(const QByteArray &name, const QByteArray &owner, qint64 queueWaitMs) const
    {
        Q_UNUSED(name);
        Q_UNUSED(owner);
        Q_UNUSED(queueWaitMs);
        return std::nullopt;
    }
    // The mode a release of owner's hold runs as when Redis holds this layout's lock (a read-write lock's write
    // owners end in ":write"). None: the layout's one action kind.
    virtual std::optional<LockMode> releaseMode(const QByteArray &owner) const
    {
        Q_UNUSED(owner);
        return std::nullopt;
    }

    // Reading the scripts' answers: Redisson's layouts share these; a layout whose scripts answer otherwise says so.
    // acquire: nil or [token] acquired, an integer the holder's PTTL; false for an answer of another shape.
    virtual bool decodeAcquire(const RedisValue &reply, AcquireResult *result) const;
    // release: nil not held, 0 still held, 1 released (the outcome, and the holder now where the answer names one).
    virtual void decodeRelease(const RedisValue &reply, ReleaseResult *result) const;
    // force release: 1 deleted, 0 nothing there, -1 the guard failed.
    virtual void decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const;
    // After a failed guard, the read that lists who holds it now (empty: the answer already named them). Its reply's
    // elements are the holders, a "mode" field aside.
    virtual QList<QByteArray> holdersQuery(const QByteArray &name) const;
    // The refusal when name holds a Redis type this layout cannot use (type: TYPE's answer).
    virtual RedisError wrongType(const QByteArray &name, const QByteArray &type) const;
    // Refuses, before anything is sent, a release or force release that can only do harm (an empty error: none).
    // holder: the field to release; guard: what a force release keeps to.
    virtual RedisError checkRelease(const QByteArray &name, const QByteArray &holder) const;
    virtual RedisError checkForceRelease(const QByteArray &name, const ForceGuard &guard) const;
    // The batch renewal script: KEYS [N1..Nk]; ARGV [lease1, holder1, renewalPrefix1 or "", ...] -> 1 | 0 each
    // (lease 0: only check that the hold is there).
    virtual const RedisScript &renewal() const;
    // How often a waiter retries when nobody wakes it (no wake-up channel); 0: it sleeps until woken or the TTL ends.
    virtual int pollIntervalMs() const { return 0; }
    // Extra keys a renewal of a hold of mode keeps alive with the lock (a reader's timeout keys): their prefix, or
    // empty.
    virtual QByteArray renewalPrefix(LockMode mode, const QByteArray &name, const QByteArray &owner) const
    {
        Q_UNUSED(mode);
        Q_UNUSED(name);
        Q_UNUSED(owner);
        return {};
    }
};

} // namespace LockScope
