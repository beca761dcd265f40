#pragma once

#include "monitor/locktracker.h"

// The history rules' reading of a lock key's own keyspace events: where a read sits among them, and how the hold
// it follows ended. Internal to LockTracker.
namespace LockScope::TrackerOrder {

bool isEnd(KeyEvent e);

// Where a read sits among the key's own events: after `position` of them. The events that had arrived when the
// read was sent come before it; of the rest, it is put as early as it fits (the key still held, gone, or held
// again; after a write when it shows a holder the record lacks; after a deletion, where there is one, when a read-write
// lock's readers all changed), and what comes after waits for the next read, which is always sent after they arrived.
// `end`: the event that ended the previous hold, or -1. found: false when it fits nowhere (what explains it has not
// arrived).
struct Placement
{
    bool found = false;
    int position = 0;
    int end = -1;
    // Found before any deletion, for readers that all changed: the deletion that would place it later may still be on
    // its way, so it is judged once the feed has caught up (LockTracker::awaitsEvidence).
    bool endMayFollow = false;
};
Placement place(const LockRecord &record, const std::optional<LockInfo> &read, const LockTracker::Signals &seen);

enum class HoldEnd { Unseen, Released, ForceReleased, Expired };
// How the previous hold ended, by the event that ended it (seen.keyEvents[end]) and the one just before: an unlock
// writes the hash right before its DEL; a force release (or a plain DEL) deletes after anything else.
HoldEnd holdEnd(const LockRecord &record, const LockTracker::Signals &seen, int end);

} // namespace LockScope::TrackerOrder
