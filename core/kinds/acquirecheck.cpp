#include "kinds/acquirecheck.h"

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

// Cheap on the hot path: TYPE, HEXISTS and three single-key EXISTS. The aux keys are read, never written, so the
// scripts take them as arguments and keep Redisson's own KEYS: a reentrant acquire stays single-key and, like
// Java's, works while its cluster slot migrates (an importing node serves a single-key read to an ASKING client,
// where a multi-key one answers TRYAGAIN). They share N's slot; only during a migration may one be on the other
// node, where Redis refuses the read: then the script answers TRYAGAIN, which the router retries, as Redis's own.
const char *const lua = R"LUA(
local auxError
local function auxExists(key)
    local n = redis.pcall('exists', key)
    if type(n) ~= 'number' then
        auxError = n.err or tostring(n)
        return nil
    end
    return n == 1
end
local function lockKindAt(n, token, queue, timeouts)
    local t = redis.call('type', n)['ok']
    if t ~= 'none' and t ~= 'hash' then
        return t
    end
    if t == 'hash' and redis.call('hexists', n, 'mode') == 1 then
        return 'readwrite'
    end
    if token then
        local fenced, queued, timed = auxExists(token), auxExists(queue), auxExists(timeouts)
        if fenced == nil or queued == nil or timed == nil then
            return 'unreadable'
        end
        if fenced then
            return 'fenced'
        end
        if queued or timed then
            return 'fair'
        end
    end
    if t == 'hash' then
        return 'reentrant'
    end
    return 'none'
end
local function refuseKind(found)
    if found == 'unreadable' then
        if string.find(auxError, 'non local key', 1, true) then
            return redis.error_reply('TRYAGAIN the lock keys are being migrated between cluster nodes')
        end
        return redis.error_reply(auxError)
    end
    if found == 'reentrant' or found == 'fenced' or found == 'fair' or found == 'readwrite' then
        return redis.error_reply('LOCKKIND ' .. found)
    end
    return redis.error_reply('WRONGTYPE the lock name holds a ' .. found .. ', not a lock hash')
end
)LUA";

QList<QByteArray> auxKeys(const QByteArray &name)
{
    return { LockNames::fencingToken(name), LockNames::fairQueue(name), LockNames::fairTimeouts(name) };
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
