#include "ops/forcereleaserecord.h"

#include "kinds/locklayouts.h"
#include "redis/bytesformat.h"

#include <QJsonArray>

namespace LockScope::Ops {

AuditRecord forceReleaseRecord(const QString &url, const QByteArray &clientId, const ForceReleasePlan &plan,
    const QList<LockHolder> &shown, const ForceReleaseDone &done)
{
    AuditRecord record(QStringLiteral("force-release"), url, plan.name, clientId);
    QJsonArray before;
    for (const LockHolder &h : shown)
        before.append(
            QJsonObject { { QStringLiteral("owner"), jsonText(h.owner) }, { QStringLiteral("count"), h.count } });
    record.insert(QStringLiteral("holders_before"), before);
    plan.describe(record);
    record.setReason(plan.reason);
    if (done.kind)
        record.setLayout(LockLayouts::forMode(*done.kind));
    record.setGuardedOutcome(done.outcome, done.error, done.holdersNow);
    return record;
}

} // namespace LockScope::Ops
