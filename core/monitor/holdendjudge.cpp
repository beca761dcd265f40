#include "monitor/holdendjudge.h"

#include "kinds/locklayouts.h"

#include <QCoreApplication>

namespace LockScope {

using TrackerJudging::holds;

namespace {
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

bool HoldEndJudge::isWrite(KeyEvent e)
{
    return e == KeyEvent::HashWrite || e == KeyEvent::OtherWrite;
}

bool HoldEndJudge::isEnd(KeyEvent e)
{
    return e == KeyEvent::Deleted || e == KeyEvent::Expired;
}

HoldEndJudge::Placement HoldEndJudge::place(
    const LockRecord &record, const std::optional<LockInfo> &read, const LockTracker::Signals &seen)
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

// A key that expires after its holder cut its TTL short, in a layout whose unlock keeps the key for a cool-down
// (ShedLock's lockAtLeastFor): the hold had ended cleanly; its expiry is no lease that ran out (issue 47).
bool HoldEndJudge::coolDownOver(const LockRecord &record)
{
    return record.ttlCutShort && LockLayouts::forRecord(record.info.kind).coolsDownAfterUnlock(record.info);
}

HoldEndJudge::End HoldEndJudge::holdEnd(const LockRecord &record, const LockTracker::Signals &seen, int end)
{
    if (end < 0)
        return End::Unseen;
    if (seen.keyEvents.at(end).event == KeyEvent::Expired)
        return coolDownOver(record) ? End::Released : End::Expired;
    // A string lock's release is a plain compare-and-delete: a force release looks the same from outside.
    if (LockLayouts::forRecord(record.info.kind).capabilities().releaseOnlyDeletes)
        return End::Released;
    const KeyEvent before = end > 0 ? seen.keyEvents.at(end - 1).event : record.lastKeyEvent;
    return before == KeyEvent::HashWrite ? End::Released : End::ForceReleased;
}

HoldEndJudge::Reading HoldEndJudge::placeRead(
    LockRecord &record, const std::optional<LockInfo> &read, LockTracker::Signals &seen)
{
    Reading reading;
    reading.all = seen;
    reading.ordered = seen.keyspaceEvents && !seen.overflow;
    if (reading.ordered)
        reading.at = place(record, read, seen);
    reading.ended = record.present ? holdEnd(record, seen, reading.at.end) : End::Unseen;
    const int used = reading.at.found ? reading.at.position : int(seen.keyEvents.size());
    if (used > 0)
        record.lastKeyEvent = seen.keyEvents.at(used - 1).event;
    seen.keyEvents.remove(0, used);
    // A wake-up message comes right after its deletion: it goes with that deletion to the next read.
    if (std::none_of(seen.keyEvents.cbegin(), seen.keyEvents.cend(),
            [](const LockTracker::Signals::Seen &e) { return isEnd(e.event); }))
        seen.releaseMessage = false;
    if (seen.keyEvents.isEmpty())
        seen.overflow = false;
    return reading;
}

namespace {
QString forcedDetail(const LockTracker::Signals &all, qint64 count)
{
    return all.releaseMessage ? QCoreApplication::translate("LockScope::LockTracker",
               "deleted without an unlock (%n level(s) held): its owner's unlock will fail", nullptr, int(count))
                              : QCoreApplication::translate("LockScope::LockTracker",
                                  "deleted without a wake-up message: waiters sleep until their own timeout");
}
} // namespace

LockEvent HoldEndJudge::endOf(const Reading &reading, const QByteArray &owner, qint64 count, qint64 ttl)
{
    using TrackerJudging::event;
    switch (reading.ended) {
    case End::Expired:
        return event(LockEvent::Type::Expired, owner, 0, ttl, TrackerJudging::leaseRanOut());
    case End::ForceReleased:
        return event(LockEvent::Type::ForceReleased, owner, 0, ttl, forcedDetail(reading.all, count));
    case End::Released:
    case End::Unseen:
        break;
    }
    return event(LockEvent::Type::Released, owner, 0, ttl);
}

HoldEndJudge::Gone HoldEndJudge::gone(const LockRecord &record, const Reading &reading, bool deadlinePassed)
{
    const LockTracker::Signals &all = reading.all;
    Gone gone;
    gone.cleanly = reading.ended != End::Expired;
    for (const LockHolder &holder : record.info.holders) {
        if (reading.ended != End::Unseen) {
            gone.judgement.events << endOf(reading, holder.owner, holder.count, -2);
            continue;
        }
        LockEvent::Type type;
        QString detail;
        if (all.saw(KeyEvent::Expired) || (deadlinePassed && !all.releaseMessage && !all.saw(KeyEvent::Deleted))) {
            if (coolDownOver(record)) {
                type = LockEvent::Type::Released;
            } else {
                type = LockEvent::Type::Expired;
                detail = TrackerJudging::leaseRanOut();
                gone.cleanly = false;
            }
        } else if (LockLayouts::forRecord(record.info.kind).capabilities().releaseOnlyDeletes) {
            // A string lock's release is a plain compare-and-delete, and nobody waits on a channel: a force
            // release looks the same from outside, and leaves nobody asleep.
            type = LockEvent::Type::Released;
        } else if (all.keyspaceEvents && all.saw(KeyEvent::Deleted)) {
            // Too many events to keep in order: every unlock decrements before it deletes; a force release (or
            // a DEL) only deletes.
            const bool unlocked = all.saw(KeyEvent::HashWrite);
            type = unlocked ? LockEvent::Type::Released : LockEvent::Type::ForceReleased;
            if (!unlocked)
                detail = forcedDetail(all, holder.count);
        } else if (all.releaseMessage || !all.pubSubAvailable) {
            // Without keyspace events a force release looks like the last unlock; quick nested unlocks between
            // two reads are far more common, so this says released.
            type = LockEvent::Type::Released;
        } else {
            type = LockEvent::Type::ForceReleased;
            detail = QCoreApplication::translate(
                "LockScope::LockTracker", "deleted without a wake-up message: waiters sleep until their own timeout");
        }
        gone.judgement.events << TrackerJudging::event(type, holder.owner, 0, -2, detail);
    }
    return gone;
}

} // namespace LockScope
