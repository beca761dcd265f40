#include "kinds/readwrite/readwritelayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/locknames.h"
#include "kinds/readwrite/rwlockscripts.h"

namespace LockScope {

LockCapabilities ReadWriteLayout::capabilities() const
{
    LockCapabilities c;
    c.reentrant = true;
    c.holderSet = true;
    c.wakeChannel = true;
    c.waiterCount = true;
    return c;
}

QList<AcquireMode> ReadWriteLayout::modes() const
{
    return { { LockMode::Read, "read", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "Read (shared)"),
                 QT_TRANSLATE_NOOP("AcquireCheck", "a read lock"), nullptr, true },
        { LockMode::Write, "write", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "Write (exclusive)"),
            QT_TRANSLATE_NOOP("AcquireCheck", "a write lock") } };
}

QByteArray ReadWriteLayout::ownerField(LockMode mode, const QByteArray &owner) const
{
    // A write hold's field carries ":write", exactly as Redisson stores it.
    return mode == LockMode::Write ? owner + ":write" : owner;
}

ScriptCall ReadWriteLayout::acquire(LockMode mode, const AcquireCall &call) const
{
    const QList<QByteArray> aux = AcquireCheck::auxKeys(call.name);
    const QByteArray lease = QByteArray::number(call.leaseMs);
    if (mode == LockMode::Write)
        return { &RwLockScripts::acquireWrite(), { call.name }, QList<QByteArray> { lease, call.owner } + aux };
    // A reader also names the field a writer of its own thread would have: a writer may take read holds too.
    return { &RwLockScripts::acquireRead(), { call.name, LockNames::rwTimeoutPrefix(call.name, call.owner) },
        QList<QByteArray> { lease, call.owner, call.owner + ":write" } + aux };
}

ScriptCall ReadWriteLayout::release(LockMode mode, const ReleaseCall &call) const
{
    const QByteArray latchTtl = QByteArray::number(call.latchTtlMs);
    if (mode == LockMode::Write)
        return { &RwLockScripts::releaseWrite(), { call.name, LockNames::rwChannel(call.name), call.latch },
            { "1", QByteArray::number(call.leaseMs), call.owner, call.publish, latchTtl } };
    return { &RwLockScripts::releaseRead(),
        { call.name, LockNames::rwChannel(call.name), LockNames::rwTimeoutPrefix(call.name, call.owner),
            LockNames::rwKeyPrefix(call.name), call.latch },
        { "0", call.owner, call.publish, latchTtl } };
}

ScriptCall ReadWriteLayout::forceRelease(const ForceReleaseCall &call) const
{
    // The script publishes "0" or "1" by the lock's mode.
    return { &RwLockScripts::forceRelease(), { call.name, LockNames::rwChannel(call.name) },
        QList<QByteArray> { call.publish } + call.guard.scriptArgs() };
}

QByteArray ReadWriteLayout::waitChannel(const QByteArray &name, const QByteArray &) const
{
    return LockNames::rwChannel(name);
}

QByteArray ReadWriteLayout::renewalPrefix(LockMode mode, const QByteArray &name, const QByteArray &owner) const
{
    return mode == LockMode::Read ? LockNames::rwTimeoutPrefix(name, owner) : QByteArray();
}

} // namespace LockScope
