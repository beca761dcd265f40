#include "monitor/newholdjudge.h"

#include <QCoreApplication>

namespace LockScope {

using namespace TrackerJudging;

Judgement NewHoldJudge::judge(const LockRecord &record, const LockInfo &read)
{
    Judgement judgement;
    const bool tookOver = !record.endedWithRelease && !record.endedOwners.isEmpty();
    for (const LockHolder &holder : read.holders) {
        if (tookOver && !record.endedOwners.contains(holder.owner)) {
            const QByteArray old = record.endedOwners.first();
            LockEvent e = event(LockEvent::Type::OwnerChanged, holder.owner, holder.count, read.ttlMs,
                QCoreApplication::translate(
                    "LockScope::LockTracker", "%1 took over from %2, whose hold ended without a release")
                    .arg(ownerText(holder.owner), ownerText(old)));
            e.previousOwner = old;
            judgement.events << e;
            judgement.warnings << doubleHolderWarning(old);
        }
        judgement.events << event(LockEvent::Type::Acquired, holder.owner, holder.count, read.ttlMs);
    }
    return judgement;
}

} // namespace LockScope
