#include "kinds/reentrant/reentrantlayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "kinds/reentrant/lockscripts.h"

namespace LockScope {

LockCapabilities ReentrantLayout::capabilities() const
{
    LockCapabilities c;
    c.reentrant = true;
    c.wakeChannel = true;
    c.waiterCount = true;
    return c;
}

QList<AcquireMode> ReentrantLayout::modes() const
{
    return { { LockMode::Reentrant, "reentrant", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "Reentrant"),
        QT_TRANSLATE_NOOP("AcquireCheck", "a reentrant lock") } };
}

ScriptCall ReentrantLayout::acquire(LockMode, const AcquireCall &call) const
{
    // The aux keys are only read (to refuse a name that holds another kind of lock): arguments, not keys.
    return { &LockScripts::acquire(), { call.name },
        QList<QByteArray> { QByteArray::number(call.leaseMs), call.owner } + AcquireCheck::auxKeys(call.name) };
}

ScriptCall ReentrantLayout::release(LockMode, const ReleaseCall &call) const
{
    return { &LockScripts::release(), { call.name, LockNames::lockChannel(call.name), call.latch },
        { "0", QByteArray::number(call.leaseMs), call.owner, call.publish, QByteArray::number(call.latchTtlMs) } };
}

ScriptCall ReentrantLayout::forceRelease(const ForceReleaseCall &call) const
{
    return { &LockScripts::forceRelease(), { call.name, LockNames::lockChannel(call.name) },
        QList<QByteArray> { "0", call.publish } + call.guard.scriptArgs() };
}

QByteArray ReentrantLayout::waitChannel(const QByteArray &name, const QByteArray &) const
{
    return LockNames::lockChannel(name);
}

QList<QByteArray> ReentrantLayout::releaseChannelPatterns() const
{
    return { QByteArrayLiteral("redisson_lock__channel:*") };
}

QList<QByteArray> ReentrantLayout::namesFromChannel(const QByteArray &channel) const
{
    return LockNameMap::namesAfter(channel, "redisson_lock__channel:");
}

void ReentrantLayout::describeHash(const KeySnapshot &, const HashReading &hash, LockInfo &info) const
{
    // Several owners in what can only be an exclusive lock: a lock of no layout we know.
    describeExclusive(hash, info, info.holders.size() == 1 ? LockInfo::Kind::Reentrant : LockInfo::Kind::Unknown, {});
}

} // namespace LockScope
