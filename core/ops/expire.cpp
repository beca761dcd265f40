#include "ops/expire.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Ops", text);
}
} // namespace

ExpirePlan ExpirePlan::fromReading(const LockNow &reading, qint64 leaseMs, const QByteArray &expectOwner)
{
    return { ForceReleasePlan::fromReading(reading, expectOwner), leaseMs, reading.ttlMs };
}

RedisError ExpirePlan::refusal() const
{
    const QString name = escapeBytes(target.name, 200);
    const LockLayout &layout = LockLayouts::forMode(target.kind);
    const LockActions *actions = layout.lockActions();
    if (!actions || !actions->setLease({ target.name, leaseMs, target.guard() }))
        return RedisError(RedisError::Kind::KindMismatch,
            QCoreApplication::translate("LockScope::Ops",
                "%1 is a %2 lock: each of its holds expires on its own, there is no one lease to set; nothing changed")
                .arg(name, QString::fromLatin1(layout.id())),
            "WRONGKIND");
    if (leaseMs <= 0)
        return RedisError(RedisError::Kind::InvalidArgument,
            QCoreApplication::translate("LockScope::Ops", "--lease takes a number of milliseconds above 0"));
    if (ttlShown >= leaseMs)
        return RedisError(RedisError::Kind::KindMismatch,
            QCoreApplication::translate("LockScope::Ops",
                "%1 already has %2 ms of its lease left, at least the %3 ms asked: a lease is never shortened; "
                "nothing changed")
                .arg(name)
                .arg(ttlShown)
                .arg(leaseMs),
            "LONGERLEASE");
    return {};
}

namespace Ops {

namespace {
AuditRecord expireRecord(const QString &url, const QByteArray &clientId, const ExpirePlan &plan,
    const QList<LockHolder> &shown, const ExpireDone &done)
{
    AuditRecord record(QStringLiteral("expire"), url, plan.target.name, clientId);
    record.setHoldersBefore(shown);
    plan.target.describe(record);
    record.insert(QStringLiteral("lease_ms"), plan.leaseMs);
    record.insert(QStringLiteral("ttl_before"), plan.ttlShown);
    record.setLayout(LockLayouts::forMode(plan.target.kind));
    record.setGuardedOutcome(done.outcome, done.error, done.holdersNow);
    return record;
}

QString expireSummary(const ExpirePlan &plan, const ExpireDone &d)
{
    const QString name = escapeBytes(plan.target.name, 200);
    if (d.error.isError())
        return d.error.message();
    switch (d.outcome) {
    case AuditRecord::Outcome::Done:
        return plan.ttlShown == -1
            ? tr("%1 now expires in %2 ms unless its holder renews it (it had no lease)").arg(name).arg(plan.leaseMs)
            : tr("%1 now expires in %2 ms unless its holder renews it (it had %3 ms left)")
                  .arg(name)
                  .arg(plan.leaseMs)
                  .arg(plan.ttlShown);
    case AuditRecord::Outcome::AlreadyGone:
        return tr("%1 was already gone; nothing changed").arg(name);
    case AuditRecord::Outcome::GuardFailed:
        if (plan.target.ownerMissing()) // stopped before anything was sent
            return tr("%1 is not held by %2 (held by %3); nothing changed")
                .arg(name, escapeBytes(plan.target.expectOwner, 200), escapeList(plan.target.shown));
        if (!plan.target.guardedByShown())
            return tr("%1 is no longer held by %2 (now by %3); nothing changed")
                .arg(name, escapeBytes(plan.target.expectOwner, 200),
                    d.holdersNow.isEmpty() ? tr("nobody") : escapeList(d.holdersNow));
        if (!d.holdersNow.isEmpty() && d.holdersNow != plan.target.shown)
            return tr("%1 changed after it was shown (held by %2, now by %3); nothing changed")
                .arg(name, escapeList(plan.target.shown), escapeList(d.holdersNow));
        return tr("%1 changed after it was shown (its lease or kind is not what was shown); nothing changed").arg(name);
    default:
        return {};
    }
}
} // namespace

void expire(LockClient *client, const QString &url, const ExpirePlan &plan, const QList<LockHolder> &shown,
    std::function<void(const ExpireDone &)> done)
{
    const QByteArray clientId = client->clientId();
    QPointer<LockClient> guard(client);
    auto finish = [url, clientId, plan, shown, done](ExpireDone d) {
        d.record = expireRecord(url, clientId, plan, shown, d);
        d.summary = expireSummary(plan, d);
        done(d);
    };
    auto later = [client, finish](ExpireDone d) {
        QMetaObject::invokeMethod(
            client, [finish, d] { finish(d); }, Qt::QueuedConnection);
    };
    ExpireDone refused;
    refused.error = client->checkWrite("expire", plan.target.name);
    if (!refused.error)
        refused.error = plan.refusal();
    if (refused.error) {
        later(refused);
        return;
    }
    if (plan.target.ownerMissing()) { // the owner named holds nothing in the reading: stopped before anything is sent
        ExpireDone stopped;
        stopped.outcome = AuditRecord::Outcome::GuardFailed;
        stopped.holdersNow = plan.target.shown;
        later(stopped);
        return;
    }
    const LockActions &actions = *LockLayouts::forMode(plan.target.kind).lockActions();
    const ScriptCall script = *actions.setLease({ plan.target.name, plan.leaseMs, plan.target.guard() });
    client->connection()->eval(
        *script.script, script.keys, script.args, [guard, plan, &actions, finish](const RedisResult &reply) {
            ExpireDone d;
            if (!reply.ok()) {
                d.error = reply.error;
                finish(d);
                return;
            }
            const qint64 answer = reply.value.toInteger();
            d.outcome = answer == 1 ? AuditRecord::Outcome::Done
                : answer == 0       ? AuditRecord::Outcome::AlreadyGone
                                    : AuditRecord::Outcome::GuardFailed;
            const QList<QByteArray> query = actions.holdersQuery(plan.target.name);
            if (d.outcome != AuditRecord::Outcome::GuardFailed || !guard || query.isEmpty()) {
                finish(d);
                return;
            }
            // Who holds it now, read after the refusal: what changed.
            guard->connection()->command(query, [d, finish](const RedisResult &fields) mutable {
                for (const RedisValue &f : fields.value.elements())
                    if (f.bytes() != "mode")
                        d.holdersNow << f.bytes();
                finish(d);
            });
        });
}

} // namespace Ops

} // namespace LockScope
