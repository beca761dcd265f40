#include "ops/forcerelease.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/forcereleaserecord.h"
#include "ops/releaseasfound.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
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

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Ops", text);
}
} // namespace

QString forceReleaseSummary(const ForceReleasePlan &plan, const ForceReleaseShown &shown, const ForceReleaseDone &d)
{
    const QString name = escapeBytes(plan.name, 200);
    if (d.error.isError())
        return d.error.message(); // the code stays in the audit record and the exit status
    if (d.outcome == AuditRecord::Outcome::AlreadyGone)
        return tr("%1 was already gone; nothing changed").arg(name);
    const LockLayout &layout = LockLayouts::forMode(d.kind.value_or(LockMode::Reentrant));
    if (d.outcome == AuditRecord::Outcome::GuardFailed) {
        const QString now = d.holdersNow.isEmpty() ? tr("nobody") : escapeList(d.holdersNow);
        if (!plan.guardedByShown())
            return tr("%1 is no longer held by %2 (now by %3); nothing changed")
                .arg(name, escapeBytes(plan.expectOwner, 200), now);
        return tr("%1 changed after it was shown (held by %2, now by %3); nothing changed")
            .arg(name, escapeList(plan.shown), now);
    }
    // Deleted: whom it woke, as far as the person was shown them ("its waiters were woken" only when there were some).
    if (layout.capabilities().wakeChannel && layout.capabilities().queue && shown.waiters > 0)
        // Its waiters queue, each on a channel of its own: the head's is the one woken, not the lock's plain channel.
        return QCoreApplication::translate("LockScope::Ops",
            "force-released %1; the head of its queue of %n waiter(s) was woken on its own channel", nullptr,
            shown.waiters)
            .arg(name);
    if (layout.capabilities().wakeChannel) {
        const QString channel = escapeBytes(layout.recogniser().releaseChannel(plan.name), 200);
        if (shown.waiters == 0)
            return tr("force-released %1; nobody was waiting on %2").arg(name, channel);
        if (shown.waiters > 0)
            return QCoreApplication::translate(
                "LockScope::Ops", "force-released %1; the %n waiter(s) on %2 were woken", nullptr, shown.waiters)
                .arg(name, channel);
        return tr("force-released %1; waiters woken").arg(name);
    }
    if (!d.wokeVia.isEmpty())
        return tr("force-released %1; its library's waiters woken through %2").arg(name, escapeList(d.wokeVia));
    return tr("force-released %1 (a %2 lock: there are no waiters to wake)")
        .arg(name, QString::fromLatin1(layout.id()));
}

void forceRelease(LockClient *client, const QString &url, const ForceReleasePlan &plan, const ForceReleaseShown &shown,
    std::function<void(const ForceReleaseDone &)> done)
{
    const QByteArray clientId = client->clientId();
    forceReleaseAsFound(
        client, plan.name, plan.guard(), [url, clientId, plan, shown, done](const ForceReleaseResult &r) {
            ForceReleaseDone d;
            d.error = r.error;
            d.holdersNow = r.holdersNow;
            d.wokeVia = r.wokeVia;
            d.kind = r.kind;
            if (!r.error.isError())
                d.outcome = r.deleted ? AuditRecord::Outcome::Deleted
                    : r.guardFailed   ? AuditRecord::Outcome::GuardFailed
                                      : AuditRecord::Outcome::AlreadyGone;
            d.record = forceReleaseRecord(url, clientId, plan, shown.holders, d);
            d.summary = forceReleaseSummary(plan, shown, d);
            done(d);
        });
}

} // namespace Ops

} // namespace LockScope
