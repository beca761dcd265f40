#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace LockScope {

// Something that happened to one lock, as conventions.md's event object describes it.
struct LockEvent
{
    enum class Type {
        Acquired,
        Reentered,
        Released,
        Renewed,
        Expired,
        ForceReleased,
        OwnerChanged,
        QueueChanged,
        Lost, // one of this process's own holds vanished before it released it (LockClient::holdLost)
        // A release was published in one pub/sub namespace while every waiter listened in the other (a fleet with
        // mixed publish modes): they sleep until their TTL.
        WakeUpMissed,
    };

    qint64 timeMs = 0; // epoch ms, for logs and the timeline
    Type type = Type::Acquired;
    QByteArray name;
    QByteArray owner; // the holder concerned; for owner-changed the new one
    QByteArray previousOwner; // owner-changed only
    qint64 count = 0; // the owner's reentrancy count after the event
    qint64 ttlMs = -2;
    // renewed only: how much longer than the holder's usual period this renewal took, when it came half a period or
    // more late (a pause the holder survived, this time); -1 otherwise.
    qint64 lateMs = -1;
    QString detail; // for people: what was seen

    static QByteArray typeName(Type type); // "acquired", "force-released", ...
};

enum class WatchdogGuess { Unknown, Likely, No };

// A keyspace event on a lock's own key, as the history rules tell them apart.
enum class KeyEvent : quint8 {
    None,
    HashWrite, // hset, hincrby, hdel...: a lock script's work on the hash (an unlock decrements right before its DEL)
    OtherWrite, // expire, set, persist...: the key exists
    Deleted, // del
    Expired, // expired
};
QByteArray watchdogGuessName(WatchdogGuess guess); // "unknown", "likely", "no"

// What the monitor knows about one lock: the latest read, its deadline on the monotonic clock, what was inferred
// from the reads before, and a bounded timeline.
struct LockRecord
{
    LockInfo info;
    bool present = false; // false: the lock is gone; the record stays for its timeline and for owner changes
    quint32 seenInPass = 0; // the monitor's last pass that met it
    qint64 deadlineMs = -1; // monotonic ms when the lease runs out; -1 when the key has no TTL
    qint64 leaseMs = 0; // the largest TTL seen during the current hold: the lease, once a renewal or acquire is seen
    qint64 holdSinceMs = 0; // monotonic ms when the current holders were first seen
    qint64 firstSeenMs = 0; // monotonic ms when the monitor first saw this lock
    qint64 lastRenewalMs = -1; // monotonic ms when a read first showed the last renewal
    int renewals = 0; // during the current hold
    // When the last renewal happened: its deadline less the lease (a renewal sets the TTL to the lease), so a poll's
    // delay does not blur it. Monotonic ms; -1: none seen.
    qint64 lastRenewalAtMs = -1;
    // The hold's first deadline, and whether the hold began while watched: then its deadline less the lease is when
    // it was taken, and the first renewal's interval is known too.
    qint64 holdStartDeadlineMs = -1;
    bool holdStartSeen = false;
    QList<qint64> renewalIntervals; // between the current hold's last few renewals (ms), oldest first
    int transitions = 0; // the lock's owner changes seen while watched
    QList<QByteArray> lastOwners; // who held it last (kept across the gaps when nobody holds it)
    bool ttlCutShort = false; // during the current hold: the same holder's deadline moved earlier (an unlock that keeps
                              // the key for a cool-down, as ShedLock's does)
    WatchdogGuess watchdog = WatchdogGuess::Unknown;
    QStringList holdWarnings; // from history, kept until the holders change
    QString renewalWarning; // set while a watchdog lock's TTL is below 2/3 of its lease
    QList<QByteArray> endedOwners; // who held it when it last vanished
    bool endedWithRelease = true; // whether that end was a release anyone could see
    KeyEvent lastKeyEvent = KeyEvent::None; // the last of the key's own keyspace events a read has accounted for
    // A layout whose telling keys come and go (a fair lock's queue), as seen before: kept while the lock looks like
    // what it becomes when idle. NotALock: none seen.
    LockInfo::Kind seenKind = LockInfo::Kind::NotALock;
    LockInfo::Confidence seenConfidence = LockInfo::Confidence::Low; // as it was then
    // A QList, not a std::deque: an empty one allocates nothing and moves for free, and 100k records are moved
    // around whenever the monitor's hash grows.
    QList<LockEvent> timeline;

    // The classifier's warnings and the history's, for display.
    QStringList warnings() const
    {
        QStringList all = info.warnings + holdWarnings;
        if (!renewalWarning.isEmpty())
            all << renewalWarning;
        return all;
    }
    // The period observed between renewals (the median of the last few intervals), or -1 when none was seen.
    qint64 renewalPeriodMs() const;
    // Remaining lease at monotonic time nowMs, from the deadline: never a counter that is decremented.
    qint64 remainingMs(qint64 nowMs) const { return deadlineMs < 0 ? -1 : qMax<qint64>(0, deadlineMs - nowMs); }
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::LockEvent)
