#include "kinds/string/stringlayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/string/stringlockscripts.h"
#include "redis/slotmap.h"

#include <algorithm>

namespace LockScope {

LockCapabilities StringLayout::capabilities() const
{
    LockCapabilities c;
    c.tokenHolder = true;
    return c;
}

QList<AcquireMode> StringLayout::modes() const
{
    return { { LockKind::String, "string", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "String (SET NX PX)"),
        QT_TRANSLATE_NOOP("AcquireCheck", "a string lock (SET NX)"),
        QT_TRANSLATE_NOOP("LockScope::AcquireDialog",
            "The classic single-key lock: SET name token NX PX lease, released by compare-and-delete. Not "
            "reentrant, and without a wake-up channel: a wait retries every 100 ms.") } };
}

ScriptCall StringLayout::acquire(LockKind, const AcquireCall &call) const
{
    // A name with a stray '{' has the aux keys in another cluster slot: it is checked on its own key alone.
    QList<QByteArray> args { call.owner, QByteArray::number(call.leaseMs) };
    const QList<QByteArray> aux = AcquireCheck::auxKeys(call.name);
    const int slot = keySlot(call.name);
    if (std::all_of(aux.cbegin(), aux.cend(), [slot](const QByteArray &k) { return keySlot(k) == slot; }))
        args += aux;
    return { &StringLockScripts::acquire(), { call.name }, args };
}

ScriptCall StringLayout::release(LockKind, const ReleaseCall &call) const
{
    return { &StringLockScripts::compareAndDelete(), { call.name }, { call.owner } };
}

ScriptCall StringLayout::forceRelease(const ForceReleaseCall &call) const
{
    return { &StringLockScripts::compareAndDelete(), { call.name }, { call.guard.fields.value(0) } };
}

ScriptCall StringLayout::renew(const QByteArray &name, const QByteArray &token, qint64 leaseMs)
{
    return { &StringLockScripts::compareAndExpire(), { name }, { token, QByteArray::number(leaseMs) } };
}

} // namespace LockScope
