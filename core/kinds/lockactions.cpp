// What Redisson's layouts share: how their scripts answer, and the checks that need no script.
#include "kinds/lockactions.h"

#include "kinds/acquirecheck.h"
#include "kinds/reentrant/lockscripts.h"
#include "redis/redisvalue.h"

namespace LockScope {

bool LockActions::decodeAcquire(const RedisValue &reply, AcquireResult *result) const
{
    return AcquireCheck::decode(reply, result);
}

void LockActions::decodeRelease(const RedisValue &reply, ReleaseResult *result) const
{
    if (reply.isNil())
        result->outcome = ReleaseResult::Outcome::NotHeld;
    else
        result->outcome = reply.toInteger() == 1 ? ReleaseResult::Outcome::Released : ReleaseResult::Outcome::StillHeld;
}

void LockActions::decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const
{
    const qint64 outcome = reply.toInteger();
    result->deleted = outcome == 1;
    result->guardFailed = outcome == -1;
}

QList<QByteArray> LockActions::holdersQuery(const QByteArray &name) const
{
    return { "HKEYS", name };
}

RedisError LockActions::wrongType(const QByteArray &, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(QString::fromUtf8(type)),
        "WRONGTYPE");
}

RedisError LockActions::checkRelease(const QByteArray &, const QByteArray &) const
{
    return {};
}

RedisError LockActions::checkForceRelease(const QByteArray &, const ForceGuard &) const
{
    return {};
}

std::optional<ScriptCall> LockActions::setLease(const LeaseCall &call) const
{
    return ScriptCall(&LockScripts::setLease(), { call.name },
        QList<QByteArray> { QByteArray::number(call.leaseMs) } + call.guard.scriptArgs());
}

const RedisScript &LockActions::renewal() const
{
    return LockScripts::renew();
}

} // namespace LockScope
