#include "kinds/acquirecheck.h"

#include "kinds/hashrecognition.h"
#include "kinds/locknames.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>

namespace LockScope::AcquireCheck {

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AcquireCheck)
};

QString shown(const QByteArray &key)
{
    return escapeBytes(key, 200);
}

QString foundText(const QByteArray &found, const QByteArray &name)
{
    if (found == "reentrant")
        return Text::tr("a reentrant lock (a lock hash with no mode field, fencing token or fair queue)");
    if (found == "fenced")
        return Text::tr("a fenced lock (its fencing token key %1 exists)").arg(shown(LockNames::fencingToken(name)));
    if (found == "fair")
        return Text::tr("a fair lock (its wait queue %1 or timeout set %2 exists)")
            .arg(shown(LockNames::fairQueue(name)), shown(LockNames::fairTimeouts(name)));
    if (found == "readwrite")
        return Text::tr("a read-write lock (its hash has a mode field)");
    return Text::tr("a %1, not a lock").arg(QString::fromLatin1(found));
}
} // namespace

QByteArray lua()
{
    static const QByteArray generated = HashRecognition::lua();
    return generated;
}

QList<QByteArray> auxKeys(const QByteArray &name)
{
    return HashRecognition::auxKeys(name);
}

bool decode(const RedisValue &reply, AcquireResult *result)
{
    if (reply.isNil()) {
        result->acquired = true;
        return true;
    }
    if (reply.isInteger()) {
        result->ttlMs = reply.toInteger();
        return true;
    }
    if (reply.isArray() && reply.size() == 1 && reply.at(0).isInteger()) {
        result->acquired = true;
        result->fencingToken = reply.at(0).toInteger();
        return true;
    }
    return false;
}

RedisError explain(const RedisError &error, const QByteArray &name, const QString &wanted)
{
    const QString detail = error.message().section(QLatin1Char(' '), 1, 1);
    if (error.code() == "LOCKKIND")
        return RedisError(RedisError::Kind::KindMismatch,
            Text::tr("cannot acquire %1 as %2: it is %3; nothing was written")
                .arg(shown(name), wanted, foundText(detail.toLatin1(), name)),
            error.code());
    if (error.code() == "LOCKTOKEN") {
        const QString holds = detail == QLatin1String("string")
            ? Text::tr("a string that is not an integer, or one at the 64-bit limit")
            : Text::tr("a %1").arg(detail);
        return RedisError(RedisError::Kind::Reply,
            Text::tr("the fencing token key %1 is not an integer counter (it holds %2); nothing was written")
                .arg(shown(LockNames::fencingToken(name)), holds),
            error.code());
    }
    return error;
}

} // namespace LockScope::AcquireCheck
