#pragma once

#include "lockrecord.h"

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
        bool releaseMessage = false; // a wake-up message on its channel (release and force release publish)
        bool expiredEvent = false; // a keyspace "expired" event
        bool deletedEvent = false; // a keyspace "del" event
        int hashWrites = 0; // keyspace hash events (an unlock's HINCRBY comes before its DEL; a force release's not)
        bool keyspaceEvents = false; // whether deletions and hash writes are seen at all
        bool pubSubAvailable = true; // whether releaseMessage could have been seen at all
        bool initial = false; // the monitor's first snapshot: what is already there is not news
    };

    explicit LockTracker(int timelineLength = 100)
        : m_timelineLength(timelineLength)
    { }

    // Folds a read (nullopt: the key is gone or no longer a lock) into the record. Returns the events, and sets
    // *changed when anything a view shows changed (not mere TTL drift).
    QList<LockEvent> apply(LockRecord &record, const std::optional<LockInfo> &read, const Signals &seen, qint64 nowMs,
        qint64 epochMs, bool *changed) const;

    // A PTTL-only poll that matched the deadline (no renewal, no new holder): it can still settle the watchdog
    // guess as "no" and find renewals failing. Returns whether the record changed.
    bool observeTtl(LockRecord &record, qint64 ttlMs, qint64 nowMs) const;

    // How far a read TTL may stray from the deadline before it counts as a jump (a renewal or a new hold).
    static qint64 tolerance(qint64 leaseMs);

private:
    // A member, so lupdate files its text under this class, where the run time looks for it.
    static QString doubleHolderWarning(const QByteArray &previousOwner);
    void append(LockRecord &record, LockEvent event, QList<LockEvent> &events) const;
    bool judgeWatchdog(LockRecord &record, qint64 nowMs) const;

    int m_timelineLength;
};

} // namespace LockScope
