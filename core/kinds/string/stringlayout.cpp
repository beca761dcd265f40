#include "kinds/string/stringlayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/string/stringlibrary.h"
#include "kinds/string/stringlockscripts.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"
#include "redis/slotmap.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

bool StringLayout::coolsDownAfterUnlock(const LockInfo &info) const
{
    const StringLibrary *library = StringLibraries::byId(info.library);
    return library && library->coolsDownAfterUnlock();
}

LockCapabilities StringLayout::capabilities() const
{
    LockCapabilities c;
    c.tokenHolder = true;
    c.releaseOnlyDeletes = true; // a compare-and-delete
    return c;
}

QList<AcquireMode> StringLayout::modes() const
{
    return { { LockMode::String, "string", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "String (SET NX PX)"),
        QT_TRANSLATE_NOOP("AcquireCheck", "a string lock (SET NX)"),
        QT_TRANSLATE_NOOP("LockScope::AcquireDialog",
            "The classic single-key lock: SET name token NX PX lease, released by compare-and-delete. Not "
            "reentrant, and without a wake-up channel: a wait retries every 100 ms.") } };
}

QList<ScanCursor> StringLayout::scanCursors(const DiscoveryScope &scope) const
{
    // One walk of the keyspace per Redis type, however many patterns are on: a single pattern is SCAN's MATCH, several
    // share the monitor's pattern as MATCH and are matched by the scanner.
    const QList<QByteArray> globs = scope.stringPatterns.scanGlobs();
    if (globs.isEmpty())
        return {};
    if (globs.size() == 1)
        return { { globs.first(), "string", ScanCursor::Read::String } };
    return { { scope.pattern, "string", ScanCursor::Read::String, globs } };
}

ScriptCall StringLayout::acquire(LockMode, const AcquireCall &call) const
{
    // A name with a stray '{' has the aux keys in another cluster slot: it is checked on its own key alone.
    QList<QByteArray> args { call.owner, QByteArray::number(call.leaseMs) };
    const QList<QByteArray> aux = AcquireCheck::auxKeys(call.name);
    const int slot = keySlot(call.name);
    if (std::all_of(aux.cbegin(), aux.cend(), [slot](const QByteArray &k) { return keySlot(k) == slot; }))
        args += aux;
    return { &StringLockScripts::acquire(), { call.name }, args };
}

ScriptCall StringLayout::release(LockMode, const ReleaseCall &call) const
{
    return compareAndDelete(call.name, call.owner, call.patterns, call.cluster);
}

ScriptCall StringLayout::forceRelease(const ForceReleaseCall &call) const
{
    return compareAndDelete(call.name, call.guard.fields.value(0), call.patterns, call.cluster);
}

std::optional<ScriptCall> StringLayout::setLease(const LeaseCall &call) const
{
    // The one token shown (or named) is the guard, compared in the script that sets the lease.
    return ScriptCall(&StringLockScripts::setLease(), { call.name },
        { QByteArray::number(call.leaseMs), call.guard.fields.value(0) });
}

ScriptCall StringLayout::compareAndDelete(
    const QByteArray &name, const QByteArray &token, const StringLockPatterns *patterns, bool cluster)
{
    // Given back as its library's own release would: the waiters it wakes hear it too.
    const StringWakeUps wake = StringLibraries::wakeUps(name, token, patterns ? *patterns : StringLockPatterns());
    if (wake.isEmpty())
        return { &StringLockScripts::compareAndDelete(), { name }, { token } };
    QList<QByteArray> keys { name };
    // In a cluster a script touches its own slot only; the library's own release could not reach another slot either.
    for (const QByteArray &list : wake.signalLists)
        if (!cluster || keySlot(list) == keySlot(name))
            keys << list;
    QList<QByteArray> args { token };
    for (const auto &[channel, message] : wake.publishes)
        args << channel << message;
    QList<QByteArray> wakes = keys.mid(1);
    for (const auto &[channel, message] : wake.publishes)
        wakes << channel;
    return { &StringLockScripts::compareDeleteAndWake(), keys, args, wakes };
}

bool StringLayout::decodeAcquire(const RedisValue &reply, AcquireResult *result) const
{
    if (reply.isArray() && reply.size() == 2) {
        result->acquired = false;
        result->holderNow = reply.at(0).bytes();
        result->ttlMs = reply.at(1).toInteger();
        return true;
    }
    if (reply.type() == RedisValue::Type::Integer && reply.toInteger() == 1) {
        result->acquired = true;
        return true;
    }
    return false;
}

void StringLayout::decodeRelease(const RedisValue &reply, ReleaseResult *result) const
{
    const bool released = reply.type() == RedisValue::Type::Integer && reply.toInteger() == 1;
    result->outcome = released ? ReleaseResult::Outcome::Released : ReleaseResult::Outcome::NotHeld;
    // Not ours: the answer is the token that holds it now (nil: nothing was there).
    if (!released && !reply.isNil())
        result->holderNow = reply.bytes();
}

void StringLayout::decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const
{
    result->deleted = reply.type() == RedisValue::Type::Integer && reply.toInteger() == 1;
    // A token in the answer: the guard failed, and that token holds it now. nil: nothing was there.
    result->guardFailed = !result->deleted && !reply.isNil();
    if (result->guardFailed)
        result->holdersNow = { reply.bytes() };
}

RedisError StringLayout::wrongType(const QByteArray &name, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QCoreApplication::translate(
            "LockScope::StringLayout", "%1 is not a string lock: the key holds another type (%2)")
            .arg(escapeBytes(name, 200), QString::fromUtf8(type)),
        "WRONGTYPE");
}

RedisError StringLayout::checkRelease(const QByteArray &name, const QByteArray &holder) const
{
    if (!isCounterValue(holder))
        return {};
    return RedisError(RedisError::Kind::Reply,
        QCoreApplication::translate("LockScope::StringLayout",
            "%1 is not a lock: it holds the integer %2, a counter (semaphore permits or a count-down latch), not a "
            "holder's token; nothing changed")
            .arg(escapeBytes(name, 200), escapeBytes(holder, 40)));
}

RedisError StringLayout::checkForceRelease(const QByteArray &name, const ForceGuard &guard) const
{
    if (guard.kind == ForceGuard::Kind::None || guard.fields.size() != 1)
        return RedisError(RedisError::Kind::InvalidArgument,
            QCoreApplication::translate("LockScope::StringLayout",
                "%1 is a string lock: it is force-released only while it holds the one token seen")
                .arg(escapeBytes(name, 200)));
    return checkRelease(name, guard.fields.first());
}

const RedisScript &StringLayout::renewal() const
{
    return StringLockScripts::renewBatch();
}

ScriptCall StringLayout::renew(const QByteArray &name, const QByteArray &token, qint64 leaseMs)
{
    return { &StringLockScripts::compareAndExpire(), { name }, { token, QByteArray::number(leaseMs) } };
}

} // namespace LockScope
