#pragma once

#include "monitor/lockrecord.h"

#include <optional>

namespace LockScope {

// The history rules: turn two successive reads of one lock into events, renewals into a watchdog guess, and
// what looks wrong into warnings. Pure: no Redis, no timers, so every rule is tested on its own.
class LockTracker
{
public:
    // What was seen about the key since its previous read, besides the read itself.
    struct Signals
    {
        struct Seen
        {
            quint32 seq = 0; // lastSeq when it arrived
            KeyEvent event = KeyEvent::None;
        };
        bool releaseMessage = false; // a wake-up message on its channel (release and force release publish)
        // The key's own keyspace events, in the order the server executed them (one connection delivers them in
        // that order, and a script's writes are contiguous: an unlock is a hash write immediately followed by
        // DEL). A run of writes is kept as its first and its last: nothing in between tells anything.
        QList<Seen> keyEvents;
        quint32 lastSeq = 0; // events noted so far
        quint32 sentSeq = 0; // events noted when the read being judged was sent: those came before it
        bool overflow = false; // too many to keep: judged without their order
        bool keyspaceEvents = false; // whether deletions and hash writes are seen at all
        bool pubSubAvailable = true; // whether releaseMessage could have been seen at all
        bool initial = false; // the monitor's first snapshot: what is already there is not news

        void note(KeyEvent event);
        bool saw(KeyEvent event) const;
        static KeyEvent eventOf(const QByteArray &keyspaceEvent); // "hincrby" -> HashWrite, "del" -> Deleted...
    };

    explicit LockTracker(int timelineLength = 100)
        : m_timelineLength(timelineLength)
    { }

    // Folds a read (nullopt: the key is gone or no longer a lock) into the record. With keyspace events the read is
    // placed at the earliest point among the key's events it fits; the events it accounts for are taken out of
    // `seen`, and the rest (those that came after it) stay there for the next read. Returns the events, and sets
    // *changed when anything a view shows changed (not mere TTL drift).
    QList<LockEvent> apply(LockRecord &record, const std::optional<LockInfo> &read, Signals &seen, qint64 nowMs,
        qint64 epochMs, bool *changed) const;

    // Whether the events that explain this read may still be on their way, so judging it now would guess: with
    // keyspace events, a read that shows the hold ended (gone, or every holder replaced) while no deletion or
    // expiry of the key has arrived (they travel on another connection, in any order relative to the read);
    // without them, a key gone with no wake-up message yet.
    bool awaitsEvidence(
        const LockRecord &record, const std::optional<LockInfo> &read, const Signals &seen, qint64 nowMs) const;

    // A PTTL-only poll that matched the deadline (no renewal, no new holder): it can still settle the watchdog
    // guess as "no" and find renewals failing. Returns whether the record changed.
    bool observeTtl(LockRecord &record, qint64 ttlMs, qint64 nowMs) const;

    // How far a read TTL may stray from the deadline before it counts as a jump (a renewal or a new hold).
    static qint64 tolerance(qint64 leaseMs);

private:
    // A member, so lupdate files its text under this class, where the run time looks for it.
    static QString doubleHolderWarning(const QByteArray &previousOwner);
    void append(LockRecord &record, LockEvent event, QList<LockEvent> &events) const;
    static void keepFair(LockRecord &record);
    bool judgeWatchdog(LockRecord &record, qint64 nowMs) const;

    int m_timelineLength;
};

} // namespace LockScope
