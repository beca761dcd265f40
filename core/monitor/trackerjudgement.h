#pragma once

#include "monitor/lockrecord.h"

namespace LockScope {

// What one of LockTracker's judgements made of a read: the events it tells, in the order they happened, and the
// warnings it leaves on the new hold. The events carry neither the lock's name nor a time: LockTracker stamps both
// as it files them into the record's timeline, so a judgement is a pure function of the records it is shown.
struct Judgement
{
    QList<LockEvent> events;
    QStringList warnings;
};

// What the judgements share. Their texts are translated under LockTracker's context, where they were before the
// judgements had files of their own: QCoreApplication::translate with the context spelled out, so lupdate files
// them there too.
namespace TrackerJudging {

LockEvent event(LockEvent::Type type, const QByteArray &owner, qint64 count, qint64 ttl, const QString &detail = {});
QString ownerText(const QByteArray &owner);
// owner's reentrancy count in info; *found says whether it holds the lock at all.
qint64 countOf(const LockInfo &info, const QByteArray &owner, bool *found = nullptr);
bool holds(const LockInfo &info, const QByteArray &owner);
QString leaseRanOut();
// On the new hold, when the previous holder's hold ended without a release.
QString doubleHolderWarning(const QByteArray &previousOwner);

} // namespace TrackerJudging
} // namespace LockScope
