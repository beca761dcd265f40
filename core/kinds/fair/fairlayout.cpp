#include "kinds/fair/fairlayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/fair/fairlockscripts.h"
#include "kinds/locknames.h"

namespace LockScope {

LockCapabilities FairLayout::capabilities() const
{
    LockCapabilities c;
    c.reentrant = true;
    c.wakeChannel = true;
    c.waiterCount = true;
    c.queue = true;
    return c;
}

QList<AcquireMode> FairLayout::modes() const
{
    return { { LockMode::Fair, "fair", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "Fair"),
        QT_TRANSLATE_NOOP("AcquireCheck", "a fair lock") } };
}

ScriptCall FairLayout::acquire(LockMode, const AcquireCall &call) const
{
    // Only a caller that is prepared to wait joins the queue; deadlines use this client's wall clock.
    // The queue keys are written, so they are keys; the kind check reads every aux key from the arguments' tail.
    return { call.willWait ? &FairLockScripts::acquire() : &FairLockScripts::tryAcquire(),
        { call.name, LockNames::fairQueue(call.name), LockNames::fairTimeouts(call.name) },
        QList<QByteArray> { QByteArray::number(call.leaseMs), call.owner, QByteArray::number(call.queueWaitMs),
            QByteArray::number(call.nowMs) }
            + AcquireCheck::auxKeys(call.name) };
}

ScriptCall FairLayout::release(LockMode, const ReleaseCall &call) const
{
    // The channel is the base the script adds the new head's field to: each waiter hears only its own turn.
    return { &FairLockScripts::release(),
        { call.name, LockNames::fairQueue(call.name), LockNames::fairTimeouts(call.name),
            LockNames::lockChannel(call.name), call.latch },
        { "0", QByteArray::number(call.leaseMs), call.owner, QByteArray::number(call.nowMs), call.publish,
            QByteArray::number(call.latchTtlMs) } };
}

ScriptCall FairLayout::forceRelease(const ForceReleaseCall &call) const
{
    return { &FairLockScripts::forceRelease(),
        { call.name, LockNames::fairQueue(call.name), LockNames::fairTimeouts(call.name),
            LockNames::lockChannel(call.name) },
        QList<QByteArray> { "0", QByteArray::number(call.nowMs), call.publish } + call.guard.scriptArgs() };
}

QByteArray FairLayout::waitChannel(const QByteArray &name, const QByteArray &owner) const
{
    return LockNames::fairChannel(name, owner);
}

std::optional<ScriptCall> FairLayout::giveUp(const QByteArray &name, const QByteArray &owner, qint64 queueWaitMs) const
{
    // Leaving the queue shifts everyone behind by one wait; otherwise a dead entry blocks them until its deadline.
    return ScriptCall { &FairLockScripts::giveUp(), { LockNames::fairQueue(name), LockNames::fairTimeouts(name) },
        { owner, QByteArray::number(queueWaitMs) } };
}

} // namespace LockScope
