#include "ops/counteraction.h"

#include "kinds/countdownlatch/countdownlatchlayout.h"
#include "kinds/expirablesemaphore/expirablesemaphorelayout.h"
#include "kinds/semaphore/semaphorelayout.h"
#include "lock/lockclient.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>

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

void counterAction(LockClient *client, const CounterPlan &plan, std::function<void(const CounterDone &)> done)
{
    QByteArray channel;
    std::function<ScriptCall(const QByteArray &)> build;
    switch (plan.action) {
    case CounterPlan::Action::AddPermits:
        channel = SemaphoreLayout::channel(plan.name);
        build = [plan](const QByteArray &publish) {
            return SemaphoreLayout::addPermits(plan.name, plan.permits, publish);
        };
        break;
    case CounterPlan::Action::ReleasePermit:
        channel = SemaphoreLayout::channel(plan.name);
        build = [plan](const QByteArray &publish) {
            return ExpirableSemaphoreLayout::releasePermit(plan.name, plan.permitId, publish);
        };
        break;
    case CounterPlan::Action::Open:
        channel = CountDownLatchLayout::channel(plan.name);
        build = [plan](const QByteArray &publish) {
            return CountDownLatchLayout::open(plan.name, plan.countShown, publish);
        };
        break;
    }
    const LockAction action = plan.action == CounterPlan::Action::AddPermits ? LockAction::AddPermits
        : plan.action == CounterPlan::Action::ReleasePermit                  ? LockAction::ReleasePermit
                                                                             : LockAction::OpenLatch;
    client->runAction(action, plan.name, std::move(build), [plan, channel, done](const RedisResult &r) {
        CounterDone d;
        d.channel = channel;
        if (!r.ok()) {
            d.error = r.error;
            done(d);
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
        done(d);
    });
}

} // namespace Ops

} // namespace LockScope
