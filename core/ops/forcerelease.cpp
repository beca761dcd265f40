#include "ops/forcerelease.h"

#include "lock/lockclient.h"
#include "redis/bytesformat.h"

#include <QJsonArray>

namespace LockScope {

ForceGuard ForceReleasePlan::guard() const
{
    return guardedByShown() ? ForceGuard::exact(shown) : ForceGuard::owner(expectOwner);
}

void ForceReleasePlan::describe(AuditRecord &record) const
{
    if (guardedByShown()) {
        QJsonArray expected;
        for (const QByteArray &holder : shown)
            expected.append(jsonText(holder));
        record.insert(QStringLiteral("guard"), QStringLiteral("shown-holders"));
        record.insert(QStringLiteral("expect_holders"), expected);
    } else {
        record.insert(QStringLiteral("guard"), QStringLiteral("given"));
        record.insert(QStringLiteral("expect_owner"), jsonText(expectOwner));
    }
}

namespace Ops {

void forceRelease(LockClient *client, const ForceReleasePlan &plan, std::function<void(const ForceReleaseDone &)> done)
{
    client->forceReleaseAsFound(plan.name, plan.guard(), [done](const ForceReleaseResult &r) {
        ForceReleaseDone d;
        d.error = r.error;
        d.holdersNow = r.holdersNow;
        d.wokeVia = r.wokeVia;
        d.kind = r.kind;
        if (!r.error.isError())
            d.outcome = r.deleted ? AuditRecord::Outcome::Deleted
                : r.guardFailed   ? AuditRecord::Outcome::GuardFailed
                                  : AuditRecord::Outcome::AlreadyGone;
        done(d);
    });
}

} // namespace Ops

} // namespace LockScope
