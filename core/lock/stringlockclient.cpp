#include "lock/stringlockclient.h"

#include "kinds/acquirecheck.h"
#include "kinds/lockclassifier.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "redis/redisscript.h"
#include "redis/slotmap.h"

#include <QPointer>
#include <QUuid>

#include <algorithm>

namespace LockScope {

namespace {
// SET NX PX, only where Redis holds no other kind of lock: a Redisson lock hash, or an idle fenced or fair lock's
// aux keys, is refused (LOCKKIND). KEYS [N]; ARGV [token, leaseMs, aux keys...] -> 1 acquired | [token, its PTTL]
const RedisScript &acquireScript()
{
    static const RedisScript script(QByteArray(AcquireCheck::lua) + R"LUA(
local found = lockKindAt(KEYS[1], ARGV[3], ARGV[4], ARGV[5])
if found == 'none' or found == 'string' then
    if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
        return 1
    end
    return {redis.call('get', KEYS[1]), redis.call('pttl', KEYS[1])}
end
if found == 'unreadable' then
    return refuseKind(found)
end
return redis.error_reply('LOCKKIND ' .. found)
)LUA");
    return script;
}

// Returns the token found when it is not ours (false: no lock), 1 when deleted: one round trip says both.
const RedisScript &compareAndDeleteScript()
{
    static const RedisScript script(R"LUA(
local v = redis.call('get', KEYS[1])
if v == ARGV[1] then
    redis.call('del', KEYS[1])
    return 1
end
return v
)LUA");
    return script;
}

const RedisScript &compareAndExpireScript()
{
    static const RedisScript script(R"LUA(
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
)LUA");
    return script;
}

// Script errors end in "script: <sha>, on @user_script:1."; a WRONGTYPE says the name is another kind of key.
RedisError explain(const QByteArray &name, const RedisError &error)
{
    if (error.code() != "WRONGTYPE")
        return error;
    return RedisError(RedisError::Kind::Reply,
        StringLockClient::tr("%1 is not a string lock: the key holds another type (%2)")
            .arg(QString::fromUtf8(name.left(200)), error.message().section(QLatin1Char('.'), 0, 0)));
}

template <typename F> void later(QObject *context, F f)
{
    QMetaObject::invokeMethod(context, std::move(f), Qt::QueuedConnection);
}
} // namespace

StringLockClient::StringLockClient(RedisRouter *connection, int watchdogTimeoutMs, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_watchdogTimeoutMs(qMax(3, watchdogTimeoutMs))
{
    connect(&m_renewTimer, &QTimer::timeout, this, &StringLockClient::renewAll);
}

StringLockClient::~StringLockClient() = default;

QByteArray StringLockClient::newToken()
{
    return QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
}

RedisError StringLockClient::checkToken(const QByteArray &name, const QByteArray &value)
{
    if (!isCounterValue(value))
        return {};
    return RedisError(RedisError::Kind::Reply,
        tr("%1 is not a lock: it holds the integer %2, a counter (semaphore permits or a count-down latch), not a "
           "holder's token; nothing changed")
            .arg(escapeBytes(name, 200), escapeBytes(value, 40)));
}

RedisError StringLockClient::checkWrite(const char *action, const QByteArray &name) const
{
    if (m_connection->options().readOnly)
        return RedisError(RedisError::Kind::ReadOnly, tr("%1 refused: read-only mode").arg(QLatin1String(action)));
    if (name.isEmpty())
        return RedisError(RedisError::Kind::InvalidArgument, tr("the lock name is empty"));
    return {};
}

void StringLockClient::acquire(const QByteArray &name, qint64 leaseMs, Callback done)
{
    StringLockResult r;
    r.name = name;
    r.watchdog = leaseMs <= 0;
    const qint64 lease = r.watchdog ? m_watchdogTimeoutMs : leaseMs;
    if ((r.error = checkWrite("acquire", name))) {
        later(this, [done, r] { done(r); });
        return;
    }
    r.token = newToken();
    // The aux keys tell an idle Redisson lock; a name with a stray '{' has them in another cluster slot, and is
    // checked on its own key alone.
    QList<QByteArray> args { r.token, QByteArray::number(lease) };
    const QList<QByteArray> aux = AcquireCheck::auxKeys(name);
    if (std::all_of(aux.cbegin(), aux.cend(), [&](const QByteArray &k) { return keySlot(k) == keySlot(name); }))
        args += aux;
    QPointer<StringLockClient> self(this);
    m_connection->eval(acquireScript(), { name }, args, [self, r, lease, done](const RedisResult &reply) mutable {
        if (!self)
            return;
        if (!reply.ok()) {
            r.error = AcquireCheck::explain(reply.error, r.name, AcquireCheck::stringLockText());
            done(r);
            return;
        }
        if (reply.value.isArray() && reply.value.size() == 2) {
            r.tokenNow = reply.value.at(0).bytes();
            r.ttlMs = reply.value.at(1).toInteger();
            done(r);
            return;
        }
        r.done = true;
        r.ttlMs = lease;
        self->m_holds.insert(r.name, { r.token, lease, r.watchdog });
        self->updateTimer();
        done(r);
    });
}

void StringLockClient::release(const QByteArray &name, const QByteArray &token, Callback done)
{
    compareAndDelete("release", name, token, std::move(done));
}

void StringLockClient::forceRelease(const QByteArray &name, const QByteArray &seenToken, Callback done)
{
    compareAndDelete("force release", name, seenToken, std::move(done));
}

void StringLockClient::compareAndDelete(
    const char *action, const QByteArray &name, const QByteArray &token, Callback done)
{
    // The delete happens only while the key holds token: a token no lock has keeps every counter safe.
    RedisError error = checkWrite(action, name);
    if (!error)
        error = checkToken(name, token);
    if (error) {
        StringLockResult r;
        r.name = name;
        r.token = token;
        r.error = error;
        later(this, [done, r] { done(r); });
        return;
    }
    QPointer<StringLockClient> self(this);
    m_connection->eval(
        compareAndDeleteScript(), { name }, { token }, [self, name, token, done](const RedisResult &res) {
            if (!self)
                return;
            StringLockResult r;
            r.name = name;
            r.token = token;
            if (!res.ok()) {
                r.error = explain(name, res.error);
                done(r);
                return;
            }
            // Whatever happened, a hold of ours under this token is over: released, or gone before we got there.
            if (self->m_holds.value(name).token == token) {
                self->m_holds.remove(name);
                self->updateTimer();
            }
            // A deletion answers the integer 1; a refusal the token found (a string) or nil.
            r.done = res.value.type() == RedisValue::Type::Integer && res.value.toInteger() == 1;
            if (!r.done && !res.value.isNil())
                r.tokenNow = res.value.bytes();
            done(r);
        });
}

bool StringLockClient::setWatchdogEnabled(const QByteArray &name, bool enabled)
{
    auto it = m_holds.find(name);
    if (it == m_holds.end())
        return false;
    it->watchdog = enabled;
    if (enabled && it->leaseMs <= 0)
        it->leaseMs = m_watchdogTimeoutMs;
    updateTimer();
    return true;
}

void StringLockClient::updateTimer()
{
    if (m_holds.isEmpty()) {
        m_renewTimer.stop();
        return;
    }
    // A third of the lease, as Redisson's watchdog: two renewals can fail before the lease runs out. Holds without
    // the watchdog are checked at the same ticks, so that their end is reported too.
    if (!m_renewTimer.isActive())
        m_renewTimer.start(m_watchdogTimeoutMs / 3);
}

void StringLockClient::renewAll()
{
    QPointer<StringLockClient> self(this);
    m_connection->cork();
    for (auto it = m_holds.cbegin(); it != m_holds.cend(); ++it) {
        const QByteArray name = it.key();
        const Hold hold = it.value();
        const auto answered = [self, name, hold](const RedisResult &r) {
            if (!self || self->m_holds.value(name).token != hold.token)
                return;
            // An I/O error is retried at the next tick; only the server saying "not yours" ends the hold.
            if (!r.ok())
                return;
            const bool ours = hold.watchdog ? r.value.toInteger() == 1 : r.value.bytes() == hold.token;
            if (ours) {
                if (hold.watchdog)
                    emit self->renewed(name, hold.token, hold.leaseMs);
                return;
            }
            self->m_holds.remove(name);
            self->updateTimer();
            emit self->lost(name, hold.token);
        };
        if (hold.watchdog)
            m_connection->eval(
                compareAndExpireScript(), { name }, { hold.token, QByteArray::number(hold.leaseMs) }, answered);
        else
            m_connection->command({ "GET", name }, answered);
    }
    m_connection->uncork();
}

} // namespace LockScope
