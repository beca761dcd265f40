#include "ops/counteraction.h"

#include "ops/inspect.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QPointer>

namespace LockScope {

QString CounterPlan::actionName() const
{
    switch (action) {
    case Action::AddPermits:
        return QStringLiteral("add-permits");
    case Action::ReleasePermit:
        return QStringLiteral("release-permit");
    case Action::Open:
        return QStringLiteral("open-latch");
    }
    return {};
}

void CounterPlan::describe(AuditRecord &record) const
{
    switch (action) {
    case Action::AddPermits:
        record.insert(QStringLiteral("permits"), permits);
        break;
    case Action::ReleasePermit:
        record.insert(QStringLiteral("permit"), jsonText(permitId));
        break;
    case Action::Open:
        if (!countShown.isEmpty())
            record.insert(QStringLiteral("expect_count"), QString::fromLatin1(countShown));
        break;
    }
}

namespace Ops {

QString counterSummary(const CounterPlan &plan, const CounterDone &d)
{
    const QString name = escapeBytes(plan.name, 200);
    const QString value = QString::fromLatin1(d.value);
    const QString channel = escapeBytes(d.channel, 200);
    if (d.error.isError())
        return d.error.message(); // the code stays in the audit record and the exit status
    switch (d.outcome) {
    case AuditRecord::Outcome::Done:
        return QCoreApplication::translate("LockScope::Ops",
            "added %n permit(s) to %1: %2 free now; its waiters told on %3", nullptr, int(plan.permits))
            .arg(name, value, channel);
    case AuditRecord::Outcome::Released:
        return QCoreApplication::translate(
            "LockScope::Ops", "released permit %1 of %2: %3 free now; its waiters told on %4")
            .arg(escapeBytes(plan.permitId, 80), name, value, channel);
    case AuditRecord::Outcome::Deleted:
        return QCoreApplication::translate("LockScope::Ops", "opened %1 (its count was %2); every waiter told on %3")
            .arg(name, value, channel);
    case AuditRecord::Outcome::NotHeld:
        return QCoreApplication::translate("LockScope::Ops", "%1 has no permit %2 taken; nothing changed")
            .arg(name, escapeBytes(plan.permitId, 80));
    case AuditRecord::Outcome::GuardFailed:
        return QCoreApplication::translate(
            "LockScope::Ops", "%1 counted on after it was shown (count %2, now %3); nothing changed")
            .arg(name, QString::fromLatin1(plan.countShown), value);
    case AuditRecord::Outcome::AlreadyGone:
        return QCoreApplication::translate(
            "LockScope::Ops", "%1 was already gone (opened, or never set); nothing changed")
            .arg(name);
    default:
        return {};
    }
}

namespace {
LockAction lockAction(CounterPlan::Action action)
{
    return action == CounterPlan::Action::AddPermits   ? LockAction::AddPermits
        : action == CounterPlan::Action::ReleasePermit ? LockAction::ReleasePermit
                                                       : LockAction::OpenLatch;
}
} // namespace

void inspectCounter(LockClient *client, const CounterPlan &plan, std::function<void(const CounterNow &)> done)
{
    // The action's one reading: it refuses what the action does not apply to, and its count is the one shown.
    inspect(
        client, plan.name,
        [done](const LockNow &now) {
            CounterNow counter;
            counter.error = now.error;
            counter.exists = now.lock.has_value();
            if (now.lock && now.lock->counter >= 0)
                counter.value = QByteArray::number(now.lock->counter);
            done(counter);
        },
        lockAction(plan.action));
}

void counterAction(
    LockClient *client, const QString &url, const CounterPlan &plan, std::function<void(const CounterDone &)> done)
{
    const QByteArray clientId = client->clientId();
    // The record and the summary travel with every answer, whichever way it ended.
    const auto finish = [url, clientId, plan, done](CounterDone d) {
        d.record = AuditRecord(plan.actionName(), url, plan.name, clientId);
        plan.describe(d.record);
        if (d.error.isError())
            d.record.setError(d.error);
        else
            d.record.setOutcome(d.outcome);
        if (!d.value.isEmpty())
            d.record.insert(QStringLiteral("count_now"), QString::fromLatin1(d.value));
        d.summary = counterSummary(plan, d);
        done(d);
    };
    // The script is the layout's whose own action it is (the semaphore adds permits, the latch opens), built once the
    // publish command is known; where it tells the waiters does not depend on that.
    const CounterRequest request { lockAction(plan.action), plan.name, plan.permits, plan.permitId, plan.countShown };
    const std::optional<CounterCall> shape = LockLayouts::counterCall(request, {});
    Q_ASSERT(shape); // every counter action is some layout's own (tst_conformance)
    const QByteArray channel = shape ? shape->channel : QByteArray();
    std::function<ScriptCall(const QByteArray &)> build = [request](const QByteArray &publish) {
        return LockLayouts::counterCall(request, publish).value_or(CounterCall {}).script;
    };
    const LockAction action = lockAction(plan.action);
    // A plan made from a reading (inspectCounter) was judged by it: the script's own guards keep to what it showed.
    client->runAction(
        action, plan.name, std::move(build),
        [plan, channel, finish](const RedisResult &r) {
            CounterDone d;
            d.channel = channel;
            if (!r.ok()) {
                d.error = r.error;
                finish(d);
                return;
            }
            const qint64 status = r.value.at(0).toInteger();
            d.value = r.value.at(1).bytes();
            if (r.value.at(1).type() == RedisValue::Type::Integer)
                d.value = QByteArray::number(r.value.at(1).toInteger());
            const QString name = escapeBytes(plan.name, 200);
            if (status == -3) {
                d.error = RedisError(RedisError::Kind::Reply,
                    QCoreApplication::translate("LockScope::CounterAction",
                        "%1 holds a %2, not a Redisson semaphore's or latch's count; nothing changed")
                        .arg(name, QString::fromUtf8(d.value)),
                    "WRONGTYPE");
            } else if (status == -2) {
                if (plan.action == CounterPlan::Action::Open)
                    d.outcome = AuditRecord::Outcome::AlreadyGone;
                else
                    d.error = RedisError(RedisError::Kind::Reply,
                        QCoreApplication::translate("LockScope::CounterAction", "%1 does not exist; nothing changed")
                            .arg(name));
            } else if (status == -1) {
                d.outcome = AuditRecord::Outcome::GuardFailed;
            } else if (status == 0) {
                d.outcome = AuditRecord::Outcome::NotHeld;
            } else if (status == 1) {
                d.outcome = plan.action == CounterPlan::Action::AddPermits ? AuditRecord::Outcome::Done
                    : plan.action == CounterPlan::Action::ReleasePermit    ? AuditRecord::Outcome::Released
                                                                           : AuditRecord::Outcome::Deleted;
            } else {
                d.error = RedisError(RedisError::Kind::Protocol,
                    QCoreApplication::translate("LockScope::CounterAction", "unexpected answer from the server"));
            }
            finish(d);
        },
        plan.judged);
}

} // namespace Ops

} // namespace LockScope
