#include "monitor/trackerjudgement.h"

#include "redis/bytesformat.h"

#include <QCoreApplication>

namespace LockScope::TrackerJudging {

LockEvent event(LockEvent::Type type, const QByteArray &owner, qint64 count, qint64 ttl, const QString &detail)
{
    LockEvent e;
    e.type = type;
    e.owner = owner;
    e.count = count;
    e.ttlMs = ttl;
    e.detail = detail;
    return e;
}

QString ownerText(const QByteArray &owner)
{
    return escapeBytes(owner, 120);
}

qint64 countOf(const LockInfo &info, const QByteArray &owner, bool *found)
{
    for (const LockHolder &h : info.holders) {
        if (h.owner == owner) {
            if (found)
                *found = true;
            return h.count;
        }
    }
    if (found)
        *found = false;
    return 0;
}

bool holds(const LockInfo &info, const QByteArray &owner)
{
    return std::any_of(
        info.holders.cbegin(), info.holders.cend(), [&](const LockHolder &h) { return h.owner == owner; });
}

QString leaseRanOut()
{
    return QCoreApplication::translate("LockScope::LockTracker", "the lease ran out");
}

QString doubleHolderWarning(const QByteArray &previousOwner)
{
    return QCoreApplication::translate("LockScope::LockTracker",
        "owner changed from %1 without a release: its lease ran out while it may still believe it holds the "
        "lock (possible double holder)")
        .arg(ownerText(previousOwner));
}

} // namespace LockScope::TrackerJudging
