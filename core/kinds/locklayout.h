#pragma once

#include "kinds/forceguard.h"
#include "kinds/hashrecognition.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "kinds/locktypes.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace LockScope {

class AuxReader;
class RedisScript;
class RedisValue;
struct HashReading;

// One script a layout asks the lock client to run: the client adds nothing but the transport (EVALSHA, retries,
// routing by the first key).
// One SCAN cursor discovery walks on every node (docs/protocol/classification.md#reading-a-key).
struct ScanCursor
{
    // How each key it returns is read: a hash's first page of fields, a string's first bytes, a sorted set's first
    // members with their scores (each with its PTTL), or Redisson's fair queue keys, for the lock they name when its
    // hash is gone (an orphaned queue).
    enum class Read { Hash, String, SortedSet, QueueKeys };
    ScanCursor(QByteArray pattern, QByteArray type, Read read, QList<QByteArray> filter = {})
        : pattern(std::move(pattern))
        , type(std::move(type))
        , read(read)
        , filter(std::move(filter))
    { }
    QByteArray pattern; // SCAN ... MATCH
    QByteArray type; // SCAN ... TYPE where the server has it (Redis 6+); empty: every type
    Read read = Read::Hash;
    // Globs the keys it returns must match one of, checked here: several patterns share one walk of the keyspace
    // (SCAN has one MATCH), rather than each costing a walk of its own. Empty: every key MATCH let through.
    QList<QByteArray> filter;
    bool operator==(const ScanCursor &o) const
    {
        return pattern == o.pattern && type == o.type && read == o.read && filter == o.filter;
    }
};

// What discovery covers: the monitor's (or list's) pattern, and where string locks are looked for.
struct DiscoveryScope
{
    QByteArray pattern = "*";
    StringLockPatterns stringPatterns;
};

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

// What a layout can do, for front-ends that show or offer things by it.
struct LockCapabilities
{
    bool reentrant = false; // one owner may take it again, counted
    bool holderSet = false; // several owners hold it at once (readers)
    bool wakeChannel = false; // a release publishes to wake waiters; without one they find out by polling
    bool waiterCount = false; // the number of waiters can be read (listeners on the channel)
    bool fencing = false; // each acquisition draws a token
    bool queue = false; // waiters queue in Redis, first come first served
    // The holder is a random token, the key's value, not a "<uuid>:<thread>" field: whose it is cannot be read off
    // it, only compared with the token a client remembers.
    bool tokenHolder = false;
};

// One way to take a lock of a layout: what the CLI's --kind names, the acquire dialog offers and a request carries.
// A read-write lock has two (read and write); every other layout one.
struct AcquireMode
{
    LockKind kind;
    const char *id; // --kind word: "reentrant", "read", ...
    const char *label; // the acquire dialog's entry, translated in the LockScope::AcquireDialog context
    const char *wanted; // "a read lock": refusals say what the caller tried to take (AcquireCheck context)
    const char *tip
        = nullptr; // what the dialog tells about it, when it needs telling (LockScope::AcquireDialog context)
    bool shared = false; // holders of this mode do not exclude each other (readers)
};

// A lock layout: the keys, scripts and wake-ups of one kind of lock, as the library that owns it writes them. Each
// lives in its own folder of kinds/ (docs/protocol/ describes the wire protocol); LockLayouts lists them. The lock
// client, the operations and the front-ends ask the layout and never switch on the kind themselves.
class LockLayout
{
public:
    virtual ~LockLayout() = default;

    // What the classifier calls this layout, and its name in JSON ("kind"), the kind filter and --kind: stable, as
    // scripts and people rely on it.
    virtual LockInfo::Kind kind() const = 0;
    virtual const char *id() const = 0;
    // The kind column's word for it, translated in the LockScope::LockTableModel context ("read-write").
    virtual const char *label() const = 0;
    virtual LockCapabilities capabilities() const = 0;
    virtual QList<AcquireMode> modes() const = 0;
    // Whether action applies to a lock of this layout: a write by name is refused on any other (kinds/lockatname.h).
    // A lock is released and force-released; a counter or a queue says what else it takes.
    virtual bool allows(LockAction action) const
    {
        return action == LockAction::Release || action == LockAction::ForceRelease;
    }
    // The kinds a release or force release runs this layout's scripts as: its modes' kinds, or for a layout nothing
    // is taken as, the kind the lock kind probe names for what Redis holds (a sorted set).
    virtual QList<LockKind> actionKinds() const;
    // The library whose locks these are, JSON's "library" (a string lock's classification names its own library).
    virtual const char *library() const { return "redisson"; }
    // A counter's field in JSON ("permits_free", "count") and its words for people ("3 permits free"); none for a
    // lock.
    virtual const char *counterField() const { return nullptr; }
    virtual QString counterText(qint64 value) const
    {
        Q_UNUSED(value);
        return {};
    }
    // What the holder column of a counter says: its count, after the permits taken when they are listed
    // ("1 permit(s) taken, 2 permit(s) free"); empty for a lock.
    virtual QString counterSummary(const LockInfo &info) const;

    // The hash field a hold of mode writes for owner "<uuid>:<thread>" (a write hold ends in ":write").
    virtual QByteArray ownerField(LockKind mode, const QByteArray &owner) const
    {
        Q_UNUSED(mode);
        return owner;
    }
    // The script that takes one level, or reports the holder's TTL (AcquireCheck::decode reads its answer).
    virtual ScriptCall acquire(LockKind mode, const AcquireCall &call) const = 0;
    // The script that gives back one level exactly as the owner's own unlock would: nil not held, 0 still held,
    // 1 released (and waiters told).
    virtual ScriptCall release(LockKind mode, const ReleaseCall &call) const = 0;
    // Deletes the whole lock while the guard holds and wakes its waiters: 1 deleted, 0 nothing there, -1 the guard
    // failed and nothing changed.
    virtual ScriptCall forceRelease(const ForceReleaseCall &call) const = 0;
    // Where a waiter of owner's listens for a release (empty: the layout wakes nobody).
    virtual QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const = 0;
    // Where a monitor hears every release of name (empty: releases are silent).
    virtual QByteArray releaseChannel(const QByteArray &name) const { return waitChannel(name, {}); }
    // The PSUBSCRIBE patterns that hear every release of this layout's locks (none: its releases are silent), and the
    // names a message on such a channel may concern (every reading: a name may contain ':' and braces itself).
    virtual QList<QByteArray> releaseChannelPatterns() const { return {}; }
    virtual QList<QByteArray> namesFromChannel(const QByteArray &channel) const
    {
        Q_UNUSED(channel);
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
    // What a lock of this layout is classified as while idle, when the keys that tell it apart come and go (a fair
    // lock with nobody queued looks like a reentrant one), with the evidence a monitor that saw it before adds
    // (translated in the LockScope::LockTracker context). Its own kind for a layout that always shows.
    virtual LockInfo::Kind idleKind() const { return kind(); }
    virtual const char *idleEvidence() const { return nullptr; }

    // Discovery: the SCAN cursors that find this layout's locks (the scanner walks each distinct one once: Redisson's
    // layouts share the one over lock hashes) ...
    virtual QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const
    {
        return { { scope.pattern, "hash", ScanCursor::Read::Hash } };
    }
    // ... and the reads a lock hash candidate needs beyond its fields and TTL for this layout's fingerprint and
    // description. The scanner asks every layout, in the registry's order, for every candidate of a batch.
    virtual void readAux(AuxReader &reader) const { Q_UNUSED(reader); }
    // The same for a string candidate (a declared Redisson semaphore's permit set and listeners).
    virtual void readStringAux(AuxReader &reader) const { Q_UNUSED(reader); }

    // What tells this layout's lock hash apart from the others' (kinds/hashrecognition.h): the kind check of every
    // acquire script, the probe before a release and the classifier's choice among the lock hash layouts all read
    // these marks. None: the layout keeps no Redisson lock hash.
    virtual std::optional<HashMark> hashMark() const { return std::nullopt; }
    // The mode a release of owner's hold runs as when Redis holds this layout's lock (a read-write lock's write
    // owners end in ":write").
    virtual LockKind releaseMode(const QByteArray &owner) const
    {
        Q_UNUSED(owner);
        return modes().first().kind;
    }

    // Whether a key of this Redis type under this name is this layout's by its name alone (a library's fixed prefix
    // on a hash Redisson's layouts would otherwise take): the lock kind probe then names its action kind.
    virtual bool claimsName(const QByteArray &name, const QByteArray &type, const StringLockPatterns &patterns) const
    {
        Q_UNUSED(name);
        Q_UNUSED(type);
        Q_UNUSED(patterns);
        return false;
    }
    // Classification (docs/protocol/classification.md). Asked first for every key: true when this layout decides
    // what it is (a string inside a string lock pattern, an orphaned fair queue, a sidekiq-unique-jobs hash), with
    // info filled in (it may still be no lock); false leaves it to the others, and a hash to Redisson's shape rules.
    virtual bool classifyKey(const KeySnapshot &key, LockInfo &info) const
    {
        Q_UNUSED(key);
        Q_UNUSED(info);
        return false;
    }
    // A Redisson lock hash that passed the shape checks, read into hash, and whose mark is this layout's
    // (HashRecognition::classify): its kind and what only this layout can tell of it.
    virtual void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
    {
        Q_UNUSED(key);
        Q_UNUSED(hash);
        Q_UNUSED(info);
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
    // Inspecting one lock now (ops/inspect.h), for a person about to act on it: the read that lists its holders (its
    // PTTL travels with it), and the holders (owner and count) and mode in its answer.
    virtual QList<QByteArray> inspectQuery(const QByteArray &name) const;
    virtual void decodeInspect(const RedisValue &reply, QList<LockHolder> *holders, QByteArray *mode) const;
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
    virtual QByteArray renewalPrefix(LockKind mode, const QByteArray &name, const QByteArray &owner) const
    {
        Q_UNUSED(mode);
        Q_UNUSED(name);
        Q_UNUSED(owner);
        return {};
    }
};

} // namespace LockScope
