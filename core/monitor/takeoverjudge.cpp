#include "monitor/takeoverjudge.h"

#include "kinds/locklayouts.h"

#include <QCoreApplication>

namespace LockScope {

using namespace TrackerJudging;
using End = HoldEndJudge::End;

bool TakeoverJudge::applies(const LockInfo &previous, const LockInfo &now, const HoldEndJudge::Reading &reading)
{
    if (reading.ended != End::Unseen)
        return true; // the key was deleted or expired since the last read: whoever holds it now took it anew
    const bool readersTookTurns = reading.ordered && reading.at.found && previous.mode == "read" && now.mode == "read"
        && previous.kind == now.kind && LockLayouts::forRecord(now.kind).capabilities().holderSet;
    if (readersTookTurns || previous.holders.isEmpty() || now.holders.isEmpty())
        return false;
    return std::none_of(
        previous.holders.cbegin(), previous.holders.cend(), [&](const LockHolder &h) { return holds(now, h.owner); });
}

Judgement TakeoverJudge::judge(const LockInfo &previous, const LockInfo &now, const HoldEndJudge::Reading &reading,
    bool deadlinePassed, bool coolDownOver)
{
    const LockTracker::Signals &all = reading.all;
    bool released = false, expired = false;
    if (reading.ended != End::Unseen) {
        released = reading.ended != End::Expired;
        expired = !released;
    } else {
        // A string lock says nothing when released: a deletion seen in between is its release, and without
        // keyspace events a token that changed before the lease ran out was most likely released and taken
        // again.
        const bool stringReleased = LockLayouts::forRecord(previous.kind).capabilities().releaseOnlyDeletes
            && (all.saw(KeyEvent::Deleted) || (!all.keyspaceEvents && !all.saw(KeyEvent::Expired) && !deadlinePassed));
        // A cool-down that ran out (HoldEndJudge::coolDownOver) ended a hold released before it.
        released = all.releaseMessage || stringReleased || coolDownOver;
        expired = !released && (all.saw(KeyEvent::Expired) || deadlinePassed);
    }
    Judgement judgement;
    for (const LockHolder &holder : previous.holders) {
        if (reading.ended != End::Unseen)
            judgement.events << HoldEndJudge::endOf(reading, holder.owner, holder.count, -2);
        else if (released)
            judgement.events << event(LockEvent::Type::Released, holder.owner, 0, -2);
        else if (expired)
            judgement.events << event(LockEvent::Type::Expired, holder.owner, 0, -2, leaseRanOut());
    }
    for (const LockHolder &holder : now.holders) {
        // The previous holder may still believe it holds the lock, unless its hold ended in a release. A lock
        // that was there with nobody holding it (an idle fair lock's hash) had nobody to take over from.
        if (!released && !previous.holders.isEmpty() && !holds(previous, holder.owner)) {
            const QByteArray old = previous.holders.first().owner;
            LockEvent e = event(LockEvent::Type::OwnerChanged, holder.owner, holder.count, now.ttlMs,
                QCoreApplication::translate("LockScope::LockTracker", "%1 took over from %2 without a release")
                    .arg(ownerText(holder.owner), ownerText(old)));
            e.previousOwner = old;
            judgement.events << e;
            judgement.warnings << doubleHolderWarning(old);
        }
        judgement.events << event(LockEvent::Type::Acquired, holder.owner, holder.count, now.ttlMs);
    }
    return judgement;
}

} // namespace LockScope
