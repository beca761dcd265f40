#include "lock/stringlockclient.h"

#include "kinds/acquirecheck.h"
#include "kinds/lockclassifier.h"
#include "kinds/locklayouts.h"
#include "kinds/string/stringlayout.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "redis/redisscript.h"

#include <QPointer>
#include <QUuid>

namespace LockScope {

namespace {
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
    AcquireCall call;
    call.name = name;
    call.owner = r.token;
    call.leaseMs = lease;
    const ScriptCall script = StringLayout().acquire(LockKind::String, call);
    QPointer<StringLockClient> self(this);
    m_connection->eval(
        *script.script, script.keys, script.args, [self, r, lease, done](const RedisResult &reply) mutable {
            if (!self)
                return;
            if (!reply.ok()) {
                r.error = AcquireCheck::explain(reply.error, r.name, LockLayouts::wantedText(LockKind::String));
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
    // A release and a force release are the same compare-and-delete: ours, or the token the person saw.
    ForceReleaseCall call;
    call.name = name;
    call.guard = ForceGuard::owner(token);
    const ScriptCall script = StringLayout().forceRelease(call);
    QPointer<StringLockClient> self(this);
    m_connection->eval(*script.script, script.keys, script.args, [self, name, token, done](const RedisResult &res) {
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
        if (hold.watchdog) {
            const ScriptCall renewal = StringLayout::renew(name, hold.token, hold.leaseMs);
            m_connection->eval(*renewal.script, renewal.keys, renewal.args, answered);
        } else
            m_connection->command({ "GET", name }, answered);
    }
    m_connection->uncork();
}

} // namespace LockScope
