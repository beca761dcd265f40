#include "monitor/holderchangejudge.h"

#include <QCoreApplication>

namespace LockScope {

using namespace TrackerJudging;

HolderChangeJudge::Verdict HolderChangeJudge::judge(const LockInfo &previous, const LockInfo &now)
{
    Verdict verdict;
    QList<LockEvent> &events = verdict.judgement.events;
    QList<QByteArray> left;
    for (const LockHolder &holder : previous.holders) {
        bool found = false;
        const qint64 count = countOf(now, holder.owner, &found);
        if (!found) {
            left << holder.owner;
        } else if (count > holder.count) {
            events << event(LockEvent::Type::Reentered, holder.owner, count, now.ttlMs);
            verdict.countsChanged = true;
        } else if (count < holder.count) {
            events << event(LockEvent::Type::Released, holder.owner, count, now.ttlMs,
                QCoreApplication::translate("LockScope::LockTracker", "%n level(s) still held", nullptr, int(count)));
            verdict.countsChanged = true;
        }
    }
    for (const QByteArray &owner : left)
        events << event(LockEvent::Type::Released, owner, 0, now.ttlMs);
    for (const LockHolder &holder : now.holders) {
        if (!holds(previous, holder.owner))
            events << event(LockEvent::Type::Acquired, holder.owner, holder.count, now.ttlMs);
    }
    verdict.holdersChanged = !left.isEmpty()
        || std::any_of(
            now.holders.cbegin(), now.holders.cend(), [&](const LockHolder &h) { return !holds(previous, h.owner); });
    return verdict;
}

} // namespace LockScope
