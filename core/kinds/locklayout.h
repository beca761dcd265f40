#pragma once

#include "kinds/counterwrites.h"
#include "kinds/lockactions.h"
#include "kinds/lockrecogniser.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope {

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
    // it, only compared with the token a client remembers. With holderSet, several tokens hold it at once (a sorted
    // set's members): nothing may take the first one for the holder.
    bool tokenHolder = false;
    // The owner's release only deletes, as a force release does, and tells nobody: from outside the two cannot be
    // told apart, so a monitor calls such a deletion a release (a string lock's compare-and-delete). Redisson's
    // unlock writes the hash before it deletes and publishes, which is how its releases are told from force releases.
    bool releaseOnlyDeletes = false;
};

// One way to take a lock of a layout: what the CLI's --kind names, the acquire dialog offers and a request carries.
// A read-write lock has two (read and write); every other layout one.
struct AcquireMode
{
    LockMode kind;
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
// The interface is split by role: this class is the layout's identity and what it can do; recogniser() finds and
// classifies its locks; lockActions() and counterWrites() are the writes it takes, absent where it takes none (a
// counter is never released as a lock, a lock has no permits to add).
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
    virtual QList<AcquireMode> modes() const { return {}; }
    // Whether action applies to a lock of this layout: a write by name is refused on any other (kinds/lockatname.h).
    // A lock is released and force-released; a counter or a queue says what else it takes.
    virtual bool allows(LockAction action) const
    {
        return action == LockAction::Release || action == LockAction::ForceRelease;
    }
    // Why action does not apply to a lock of this layout, in its own words where it has some ("a Redisson semaphore,
    // not a lock: it is not released as one"); empty: the general refusal says it.
    virtual QString refusal(LockAction action, const QByteArray &name) const
    {
        Q_UNUSED(action);
        Q_UNUSED(name);
        return {};
    }
    // The modes a release or force release runs this layout's scripts as: its acquire modes, or for a layout nothing
    // is taken as, the mode the lock kind probe names for what Redis holds (a sorted set).
    virtual QList<LockMode> actionModes() const;
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

    // Its roles.
    // Whether the key's expiry ends a hold cleanly, once its holder cut its TTL short (ttlCutShort: the same holder,
    // its deadline moved earlier): ShedLock's unlock keeps the key for the rest of lockAtLeastFor (SET XX PX), and
    // that cool-down running out is no lease that ran out (issue 47). No other layout's.
    virtual bool coolsDownAfterUnlock(const LockInfo &info) const
    {
        Q_UNUSED(info);
        return false;
    }
    virtual const LockRecogniser &recogniser() const = 0;
    virtual const LockActions *lockActions() const { return nullptr; }
    virtual const CounterWrites *counterWrites() const { return nullptr; }
};

} // namespace LockScope
