#pragma once

#include "monitor/lockrecord.h"

#include <optional>

namespace LockScope {

// The history rules: turn two successive reads of one lock into events, renewals into a watchdog guess, and
// what looks wrong into warnings. Pure: no Redis, no timers, so every rule is tested on its own. apply() places
// the read and hands it to the judgement that fits it: how the previous hold ended (HoldEndJudge), a new hold
// after the key was gone (NewHoldJudge), every holder replaced between two reads (TakeoverJudge), holders and their
// levels coming and going one by one (HolderChangeJudge); the lease's own judgements (renewals, the watchdog) stay
// here.
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
    // Files a judged event into the record's timeline (bounded), stamped with the lock's name and the time.
    void append(LockRecord &record, LockEvent event, qint64 epochMs, QList<LockEvent> &events) const;
    static void takeRead(LockRecord &record, const LockInfo &read, qint64 nowMs);
    static void keepFair(LockRecord &record);
    // The lease's judgements: a TTL that jumped back up is a renewal; renewals, or a third of the lease without
    // one, make the watchdog guess, and a watchdog lock's TTL sinking below 2/3 of its lease warns.
    void judgeRenewal(LockRecord &record, const LockInfo &read, qint64 oldDeadline, qint64 nowMs, qint64 epochMs,
        QList<LockEvent> &events) const;
    bool judgeWatchdog(LockRecord &record, qint64 nowMs) const;

    int m_timelineLength;
};

} // namespace LockScope
