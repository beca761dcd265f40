#include "kinds/semaphore/counterlayout.h"

#include "kinds/hashreading.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>

namespace LockScope {

bool CounterLayout::isCandidate(const KeySnapshot &key)
{
    return key.type == "string" && key.library == "redisson" && key.pttlMs != -2 && isCounterValue(key.value);
}

QString CounterLayout::counterText(qint64 value) const
{
    return QCoreApplication::translate("LockScope::CounterLayout", "%n permit(s) free", nullptr, int(value));
}

void CounterLayout::describeCounter(const KeySnapshot &key, LockInfo &info) const
{
    info.kind = kind();
    info.library = library();
    info.counter = key.value.toLongLong();
    info.confidence = LockInfo::Confidence::Medium;
    info.evidence << ClassifierText::tr("its name was declared as redisson's")
                  << ClassifierText::tr("an integer string: Redisson keeps a semaphore's free permits or a latch's "
                                        "count so");
    if (key.pttlMs >= 0)
        info.evidence << ClassifierText::tr("has a TTL");
}

ScriptCall CounterLayout::acquire(LockKind, const AcquireCall &) const
{
    return {}; // no acquire mode leads here
}

ScriptCall CounterLayout::release(LockKind, const ReleaseCall &) const
{
    return {}; // refused by checkRelease before anything is sent
}

ScriptCall CounterLayout::forceRelease(const ForceReleaseCall &) const
{
    return {}; // refused by checkForceRelease before anything is sent
}

void CounterLayout::decodeInspect(const RedisValue &, QList<LockHolder> *, QByteArray *) const
{
    // A counter records no holder: the count is all there is.
}

RedisError CounterLayout::wrongType(const QByteArray &name, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QCoreApplication::translate(
            "LockScope::CounterLayout", "%1 is not a Redisson semaphore or latch: the key holds another type (%2)")
            .arg(escapeBytes(name, 200), QString::fromUtf8(type)),
        "WRONGTYPE");
}

RedisError CounterLayout::checkRelease(const QByteArray &name, const QByteArray &) const
{
    return RedisError(RedisError::Kind::InvalidArgument,
        QCoreApplication::translate(
            "LockScope::CounterLayout", "%1 is a Redisson %2, not a lock: it is not released as one; nothing changed")
            .arg(escapeBytes(name, 200), QCoreApplication::translate("LockScope::LockTableModel", label())));
}

RedisError CounterLayout::checkForceRelease(const QByteArray &name, const ForceGuard &guard) const
{
    return checkRelease(name, guard.fields.value(0));
}

} // namespace LockScope
