// What Redisson's layouts share: how their scripts answer, and the checks that need no script.
#include "kinds/locklayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/reentrant/lockscripts.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>

namespace LockScope {

QList<LockKind> LockLayout::actionKinds() const
{
    QList<LockKind> kinds;
    for (const AcquireMode &m : modes())
        kinds << m.kind;
    return kinds;
}

QString LockLayout::counterSummary(const LockInfo &info) const
{
    const QString counter = info.counter < 0 ? QString() : counterText(info.counter);
    if (counter.isEmpty() || info.holders.isEmpty())
        return counter;
    return QCoreApplication::translate("LockScope::LockLayout", "%n permit(s) taken", nullptr, int(info.holders.size()))
        + QStringLiteral(", ") + counter;
}

bool LockLayout::decodeAcquire(const RedisValue &reply, AcquireResult *result) const
{
    return AcquireCheck::decode(reply, result);
}

void LockLayout::decodeRelease(const RedisValue &reply, ReleaseResult *result) const
{
    if (reply.isNil())
        result->outcome = ReleaseResult::Outcome::NotHeld;
    else
        result->outcome = reply.toInteger() == 1 ? ReleaseResult::Outcome::Released : ReleaseResult::Outcome::StillHeld;
}

void LockLayout::decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const
{
    const qint64 outcome = reply.toInteger();
    result->deleted = outcome == 1;
    result->guardFailed = outcome == -1;
}

QList<QByteArray> LockLayout::holdersQuery(const QByteArray &name) const
{
    return { "HKEYS", name };
}

QList<QByteArray> LockLayout::inspectQuery(const QByteArray &name) const
{
    return { "HGETALL", name };
}

void LockLayout::decodeInspect(const RedisValue &reply, QList<LockHolder> *holders, QByteArray *mode) const
{
    for (int i = 0; i + 1 < reply.size(); i += 2) {
        const QByteArray field = reply.at(i).bytes();
        // A read-write lock's mode is a field of its hash, not a holder.
        if (field == "mode") {
            *mode = reply.at(i + 1).bytes();
            continue;
        }
        LockHolder h;
        h.owner = field;
        h.count = reply.at(i + 1).bytes().toLongLong();
        holders->append(h);
    }
}

RedisError LockLayout::wrongType(const QByteArray &, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(QString::fromUtf8(type)));
}

RedisError LockLayout::checkRelease(const QByteArray &, const QByteArray &) const
{
    return {};
}

RedisError LockLayout::checkForceRelease(const QByteArray &, const ForceGuard &) const
{
    return {};
}

const RedisScript &LockLayout::renewal() const
{
    return LockScripts::renew();
}

} // namespace LockScope
