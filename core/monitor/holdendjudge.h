#pragma once

#include "monitor/locktracker.h"
#include "monitor/trackerjudgement.h"

namespace LockScope {

// The first of the history rules' judgements: where a read sits among the lock key's own keyspace events, and how
// the hold the record knew ended (if it did) by the time of that read. Pure: LockTracker::apply and awaitsEvidence
// call it, and tests call it directly.
class HoldEndJudge
{
public:
    // Where a read sits among the key's own events: after `position` of them. The events that had arrived when the
    // read was sent come before it; of the rest, it is put as early as it fits (the key still held, gone, or held
    // again; after a write when it shows a holder the record lacks; after a deletion, where there is one, when a
    // read-write lock's readers all changed), and what comes after waits for the next read, which is always sent after
    // they arrived. `end`: the event that ended the previous hold, or -1. found: false when it fits nowhere (what
    // explains it has not arrived).
    struct Placement
    {
        bool found = false;
        int position = 0;
        int end = -1;
        // Found before any deletion, for readers that all changed: the deletion that would place it later may still be
        // on its way, so it is judged once the feed has caught up (LockTracker::awaitsEvidence).
        bool endMayFollow = false;
    };
    enum class End { Unseen, Released, ForceReleased, Expired };

    // What a read was judged against: its place, how the previous hold ended there, and every signal seen since the
    // previous read (including those left for the next one: the rules without an order judge by all of them).
    struct Reading
    {
        Placement at;
        End ended = End::Unseen;
        bool ordered = false; // the key's events were seen, all of them, in order
        LockTracker::Signals all;
    };

    static bool isEnd(KeyEvent e);
    static bool isWrite(KeyEvent e);
    static Placement place(
        const LockRecord &record, const std::optional<LockInfo> &read, const LockTracker::Signals &seen);
    // How the previous hold ended, by the event that ended it (seen.keyEvents[end]) and the one just before: an unlock
    // writes the hash right before its DEL; a force release (or a plain DEL) deletes after anything else.
    static bool coolDownOver(const LockRecord &record);
    static End holdEnd(const LockRecord &record, const LockTracker::Signals &seen, int end);

    // Places the read, takes the events it accounts for out of `seen` (the rest wait for the next read) and notes the
    // last of them on the record.
    static Reading placeRead(LockRecord &record, const std::optional<LockInfo> &read, LockTracker::Signals &seen);
    // The end of one holder's hold, as the order of the key's events tells it (Released when it tells nothing).
    static LockEvent endOf(const Reading &reading, const QByteArray &owner, qint64 count, qint64 ttl);
    // The record's holders, for a read that shows the key gone: how each hold ended, from the order of the key's
    // events when there is one, else from what was seen on the way (an expiry, a deadline passed, a wake-up message,
    // a deletion with or without an unlock's write before it). cleanly: no hold expired, so whoever comes next did
    // not take over from a holder that may still believe it holds the lock.
    struct Gone
    {
        Judgement judgement;
        bool cleanly = true;
    };
    static Gone gone(const LockRecord &record, const Reading &reading, bool deadlinePassed);
};

} // namespace LockScope
