#include "monitor/locktrackerorder.h"

#include "kinds/locklayouts.h"

namespace LockScope {

namespace {
constexpr int kMaxKeyEvents = 64;

bool isWrite(KeyEvent e)
{
    return e == KeyEvent::HashWrite || e == KeyEvent::OtherWrite;
}

// Every holder of the previous read is gone from this one: the key was deleted (or expired) and taken again. A
// read-write lock's readers come and go one by one without that.
bool everyHolderReplaced(const LockInfo &previous, const LockInfo &now)
{
    if (previous.holders.isEmpty())
        return false;
    if (previous.kind == now.kind && LockLayouts::forRecord(now.kind).capabilities().holderSet
        && previous.mode == "read" && now.mode == "read")
        return false;
    for (const LockHolder &before : previous.holders)
        for (const LockHolder &after : now.holders)
            if (before.owner == after.owner)
                return false;
    return true;
}

bool holds(const LockInfo &info, const QByteArray &owner)
{
    return std::any_of(
        info.holders.cbegin(), info.holders.cend(), [&](const LockHolder &h) { return h.owner == owner; });
}

// Holders the read shows that the previous read did not.
bool addsHolders(const LockInfo &previous, const LockInfo &now)
{
    return std::any_of(
        now.holders.cbegin(), now.holders.cend(), [&](const LockHolder &h) { return !holds(previous, h.owner); });
}

// None of the previous read's holders is left in this one (readers all changed, which everyHolderReplaced allows).
bool noneLeft(const LockInfo &previous, const LockInfo &now)
{
    return std::none_of(
        previous.holders.cbegin(), previous.holders.cend(), [&](const LockHolder &h) { return holds(now, h.owner); });
}
} // namespace

namespace TrackerOrder {

bool isEnd(KeyEvent e)
{
    return e == KeyEvent::Deleted || e == KeyEvent::Expired;
}

Placement place(const LockRecord &record, const std::optional<LockInfo> &read, const LockTracker::Signals &seen)
{
    enum class State { Held, Gone, Again };
    const QList<LockTracker::Signals::Seen> &events = seen.keyEvents;
    int definite = 0;
    while (definite < events.size() && events.at(definite).seq <= seen.sentSeq)
        ++definite;
    const bool replaced = read && record.present && everyHolderReplaced(record.info, *read);
    // A holder the record does not have wrote the key before the read ran: the read sits after a write (HSET, SET,
    // ZADD...), never before the events of the acquire it shows. Without that, a read that came back ahead of those
    // events is judged at once, and the events it already reflects make the next read see the hold end and start
    // again (a reader shown acquired, released and acquired for one acquisition: the soak's extra hold).
    const bool adds = read && record.present && !replaced && addsHolders(record.info, *read);
    // Readers that all changed: either the new ones joined before the old ones left (no deletion), or the old hold
    // ended (the last reader's unlock deletes the key) and a new one began. Where a deletion is among the events, the
    // second is what happened as far as anyone can tell: the first needs the new readers to leave and come back again
    // besides, which would show them acquired twice for one acquisition.
    const bool readersReplaced = adds && noneLeft(record.info, *read);
    // A read that shows the key gone needs it gone; one that shows new holders needs it deleted first (their own
    // writes may still be on their way); one that adds holders needs a write since the previous read; any other read
    // fits anywhere.
    const auto fits = [&](State state, bool wrote, bool afterEnd) {
        if (!read)
            return state == State::Gone;
        if (replaced || afterEnd)
            return state != State::Held;
        if (adds)
            return state == State::Again || (state == State::Held && wrote);
        return true;
    };
    const auto walk = [&](bool afterEnd) {
        Placement at;
        State state = record.present ? State::Held : State::Gone;
        bool wrote = false;
        for (int i = 0;; ++i) {
            if (i >= definite && fits(state, wrote, afterEnd)) {
                at.found = true;
                at.position = i;
                return at;
            }
            if (i == events.size())
                break;
            const KeyEvent e = events.at(i).event;
            if (isEnd(e)) {
                if (state == State::Held)
                    at.end = i;
                state = State::Gone;
            } else {
                wrote = wrote || isWrite(e);
                if (state == State::Gone)
                    state = State::Again;
            }
        }
        at.position = int(events.size());
        return at;
    };
    if (readersReplaced) {
        const Placement afterEnd = walk(true);
        if (afterEnd.found)
            return afterEnd;
        Placement at = walk(false);
        at.endMayFollow = true;
        return at;
    }
    return walk(false);
}

HoldEnd holdEnd(const LockRecord &record, const LockTracker::Signals &seen, int end)
{
    if (end < 0)
        return HoldEnd::Unseen;
    if (seen.keyEvents.at(end).event == KeyEvent::Expired)
        return HoldEnd::Expired;
    // A string lock's release is a plain compare-and-delete: a force release looks the same from outside.
    if (!LockLayouts::forRecord(record.info.kind).capabilities().wakeChannel)
        return HoldEnd::Released;
    const KeyEvent before = end > 0 ? seen.keyEvents.at(end - 1).event : record.lastKeyEvent;
    return before == KeyEvent::HashWrite ? HoldEnd::Released : HoldEnd::ForceReleased;
}

} // namespace TrackerOrder

using namespace TrackerOrder;

void LockTracker::Signals::note(KeyEvent event)
{
    const quint32 seq = ++lastSeq;
    const int n = int(keyEvents.size());
    if (isWrite(event) && n >= 2 && isWrite(keyEvents.at(n - 1).event) && isWrite(keyEvents.at(n - 2).event)) {
        keyEvents.last() = { seq, event };
        return;
    }
    if (n >= kMaxKeyEvents) {
        overflow = true;
        return;
    }
    keyEvents.append({ seq, event });
}

bool LockTracker::Signals::saw(KeyEvent event) const
{
    return std::any_of(keyEvents.cbegin(), keyEvents.cend(), [event](const Seen &s) { return s.event == event; });
}

KeyEvent LockTracker::Signals::eventOf(const QByteArray &keyspaceEvent)
{
    if (keyspaceEvent == "del")
        return KeyEvent::Deleted;
    if (keyspaceEvent == "expired")
        return KeyEvent::Expired;
    return keyspaceEvent.startsWith('h') ? KeyEvent::HashWrite : KeyEvent::OtherWrite;
}

bool LockTracker::awaitsEvidence(
    const LockRecord &record, const std::optional<LockInfo> &read, const Signals &seen, qint64 nowMs) const
{
    if (!record.present)
        return false;
    if (seen.keyspaceEvents && !seen.overflow) {
        const Placement at = place(record, read, seen);
        return !at.found || at.endMayFollow;
    }
    if (read)
        return false;
    // A release's wake-up message travels on another connection and may land just after the read. A string lock
    // has none to wait for.
    const bool passed = record.deadlineMs >= 0 && nowMs >= record.deadlineMs - tolerance(record.leaseMs);
    const bool explained = seen.releaseMessage || seen.saw(KeyEvent::Expired) || seen.saw(KeyEvent::Deleted) || passed;
    return !explained && seen.pubSubAvailable && LockLayouts::forRecord(record.info.kind).capabilities().wakeChannel;
}

} // namespace LockScope
