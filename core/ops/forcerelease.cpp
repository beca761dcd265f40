#include "ops/forcerelease.h"

#include "kinds/hashrecognition.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/forcereleaserecord.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>

#include <algorithm>

namespace LockScope {

ForceReleasePlan ForceReleasePlan::fromReading(const LockNow &reading, const QByteArray &expectOwner)
{
    return { reading.name, reading.owners(), expectOwner, reading.actionMode(), {} };
}

ForceGuard ForceReleasePlan::guard() const
{
    const ForceGuard holders = guardedByShown() ? ForceGuard::exact(shown) : ForceGuard::owner(expectOwner);
    // A Redisson lock hash: also only while the kind check finds the layout the reading found (or its idle form).
    const LockLayout &layout = LockLayouts::forMode(kind);
    if (!layout.recogniser().hashMark())
        return holders;
    QByteArray ids = layout.id();
    if (const std::optional<LockInfo::Kind> idle = layout.recogniser().idleKind())
        if (const LockLayout *idleLayout = LockLayouts::forKind(*idle))
            ids += '|' + QByteArray(idleLayout->id());
    return holders.withLayout(ids, HashRecognition::auxKeys(name));
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
    if (d.error.isError() && !d.noLockNow.isEmpty())
        return d.noLockNow;
    if (d.error.isError())
        return d.error.message(); // the code stays in the audit record and the exit status
    if (d.outcome == AuditRecord::Outcome::AlreadyGone)
        return tr("%1 was already gone; nothing changed").arg(name);
    const LockLayout &layout = LockLayouts::forMode(d.kind.value_or(LockMode::Reentrant));
    if (d.outcome == AuditRecord::Outcome::GuardFailed && !d.noLockNow.isEmpty())
        return tr("%1 changed after it was shown: %2").arg(name, d.noLockNow);
    if (d.outcome == AuditRecord::Outcome::GuardFailed) {
        const QString now = d.holdersNow.isEmpty() ? tr("nobody") : escapeList(d.holdersNow);
        if (plan.ownerMissing()) // stopped before anything was sent
            return tr("%1 is not held by %2 (held by %3); nothing changed")
                .arg(name, escapeBytes(plan.expectOwner, 200), now);
        if (!plan.guardedByShown())
            return tr("%1 is no longer held by %2 (now by %3); nothing changed")
                .arg(name, escapeBytes(plan.expectOwner, 200), now);
        QList<QByteArray> before = plan.shown, after = d.holdersNow;
        std::sort(before.begin(), before.end());
        std::sort(after.begin(), after.end());
        if (before == after) // the kind check refused: same holders, another layout (a waiter queued, a mode set)
            return tr(
                "%1 changed after it was shown (the same holders, but it is no longer a %2 lock); nothing changed")
                .arg(name, QString::fromLatin1(LockLayouts::forMode(plan.kind).id()));
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
    QPointer<LockClient> guard(client);
    auto answered = [guard, url, clientId, plan, shown, done](const ForceReleaseResult &r) {
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
        const bool notAHashNow = d.error.code() == "WRONGTYPE";
        if ((d.outcome != AuditRecord::Outcome::GuardFailed && !notAHashNow) || plan.ownerMissing() || !guard) {
            d.summary = forceReleaseSummary(plan, shown, d);
            done(d);
            return;
        }
        // Refused by the guard or the script's type check: what is there now, read after the refusal (nothing more is
        // written), so that a lock that became an application's data is called so, in the words show uses, rather
        // than listing its fields as holders.
        inspect(guard, plan.name, [plan, shown, d, done](const LockNow &now) mutable {
            if (now.error.kind() == RedisError::Kind::KindMismatch)
                d.noLockNow = now.error.message();
            d.summary = forceReleaseSummary(plan, shown, d);
            done(d);
        });
    };
    // An owner named who held nothing in the reading: a mistyped or stale id, stopped here as the script's guard would
    // stop it, before anything is sent (read-only mode refuses first all the same).
    if (plan.ownerMissing() && !client->checkWrite("force-release", plan.name)) {
        ForceReleaseResult r;
        r.name = plan.name;
        r.kind = plan.kind;
        r.guardFailed = true;
        r.holdersNow = plan.shown;
        QMetaObject::invokeMethod(
            client, [answered, r] { answered(r); }, Qt::QueuedConnection);
        return;
    }
    client->forceRelease(plan.name, plan.guard(), answered, plan.kind);
}

} // namespace Ops

} // namespace LockScope
