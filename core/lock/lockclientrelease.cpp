#include "lock/lockclient.h"

#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "lock/lockclientinternal.h"
#include "lock/lockwatchdog.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QTimer>

// Release and force release: one level of an owner's hold as its own unlock would, or the whole lock under a guard.
namespace LockScope {

using LockClientInternal::cleanScriptError;
using LockClientInternal::later;

void LockClient::release(const QByteArray &name, const QByteArray &owner, Callback<ReleaseResult> done, LockKind kind)
{
    if (const RedisError error = checkWrite("release", name)) {
        ReleaseResult r;
        r.error = error;
        r.name = name;
        r.owner = owner;
        later(this, done, r);
        return;
    }
    // One request id for every retry of this unlock, so a retry after a lost reply is answered from the latch.
    QPointer<LockClient> self(this);
    whenPublishKnown([self, name, owner, kind, done = replicaSyncedRelease(std::move(done))] {
        if (!self)
            return;
        if (const RedisError refusal = self->publishRefusal()) {
            ReleaseResult r;
            r.error = refusal;
            r.name = name;
            r.owner = owner;
            done(r);
            return;
        }
        self->releaseAttempt(name, owner, kind, LockNames::newRequestId(), 1, done);
    });
}

void LockClient::releaseAttempt(const QByteArray &name, const QByteArray &owner, LockKind kind,
    const QByteArray &requestId, int attempt, Callback<ReleaseResult> done)
{
    const QByteArray latch = LockNames::unlockLatch(name, requestId);
    ReleaseCall call;
    call.name = name;
    call.owner = owner;
    call.latch = latch;
    call.leaseMs = m_watchdog->leaseOf(name, owner);
    call.publish = publishCommand();
    call.latchTtlMs = m_options.latchTtlMs;
    call.nowMs = QDateTime::currentMSecsSinceEpoch();
    const ScriptCall script = LockLayouts::forMode(kind).release(kind, call);
    QPointer<LockClient> self(this);
    m_connection->eval(*script.script, script.keys, script.args,
        [self, name, owner, kind, requestId, attempt, latch, done](const RedisResult &reply) {
            if (!self)
                return;
            ReleaseResult r;
            r.name = name;
            r.owner = owner;
            const auto failure = reply.error.kind();
            if ((failure == RedisError::Kind::Io || failure == RedisError::Kind::Timeout)
                && attempt < self->m_options.releaseAttempts) {
                QTimer::singleShot(
                    self->m_options.releaseRetryDelayMs, self, [self, name, owner, kind, requestId, attempt, done] {
                        self->releaseAttempt(name, owner, kind, requestId, attempt + 1, done);
                    });
                return;
            }
            if (!reply.ok()) {
                r.error = cleanScriptError(reply.error);
                if (r.error.code() == "WRONGTYPE") {
                    self->explainWrongType(name, [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
                done(r);
                return;
            }
            if (reply.value.isNil()) {
                QByteArray client, token;
                if (!LockNames::splitOwner(owner, &client, &token))
                    token = owner;
                if (token.endsWith(":write"))
                    token.chop(6);
                r.outcome = ReleaseResult::Outcome::NotHeld;
                r.message = tr("attempt to unlock lock, not locked by current thread by node id: %1 thread-id: %2")
                                .arg(QString::fromUtf8(client.isEmpty() ? self->m_options.clientId : client),
                                    QString::fromUtf8(token));
                self->m_watchdog->released(name, owner, true);
            } else if (reply.value.toInteger() == 1) {
                r.outcome = ReleaseResult::Outcome::Released;
                self->m_watchdog->released(name, owner, true);
            } else {
                r.outcome = ReleaseResult::Outcome::StillHeld;
                self->m_watchdog->released(name, owner, false);
            }
            // The latch only matters while this call might be retried; it is done now. Nobody waits for the DEL,
            // so it travels with the next command instead of costing a write and a wake-up of its own.
            self->m_connection->commandDeferred({ "DEL", latch });
            done(r);
        });
}

void LockClient::forceRelease(
    const QByteArray &name, const QByteArray &expectOwner, Callback<ForceReleaseResult> done, LockKind kind)
{
    forceRelease(name, expectOwner.isEmpty() ? ForceGuard {} : ForceGuard::owner(expectOwner), std::move(done), kind);
}

void LockClient::forceRelease(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockKind kind)
{
    ForceReleaseResult r;
    r.name = name;
    if (const RedisError error = checkWrite("force-release", name)) {
        r.error = error;
        later(this, done, r);
        return;
    }
    QPointer<LockClient> self(this);
    whenPublishKnown([self, name, guard, done, kind] {
        if (!self)
            return;
        if (const RedisError refusal = self->publishRefusal()) {
            ForceReleaseResult r;
            r.name = name;
            r.error = refusal;
            done(r);
            return;
        }
        self->forceReleaseNow(name, guard, done, kind);
    });
}

void LockClient::forceReleaseNow(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockKind kind)
{
    ForceReleaseResult r;
    r.name = name;
    ForceReleaseCall call;
    call.name = name;
    call.publish = publishCommand();
    call.nowMs = QDateTime::currentMSecsSinceEpoch();
    call.guard = guard;
    const ScriptCall script = LockLayouts::forMode(kind).forceRelease(call);
    QPointer<LockClient> self(this);
    m_connection->eval(*script.script, script.keys, script.args, [self, r, done](const RedisResult &reply) mutable {
        if (!self)
            return;
        if (!reply.ok()) {
            r.error = cleanScriptError(reply.error);
        } else {
            const qint64 outcome = reply.value.toInteger();
            r.deleted = outcome == 1;
            r.guardFailed = outcome == -1;
            if (r.deleted)
                self->m_watchdog->forget(r.name);
        }
        if (!r.guardFailed) {
            done(r);
            return;
        }
        // Say what changed: who holds it now (read after the refusal, so it may have moved on again).
        self->m_connection->command({ "HKEYS", r.name }, [r, done](const RedisResult &fields) mutable {
            for (const RedisValue &f : fields.value.elements())
                if (f.bytes() != "mode")
                    r.holdersNow << f.bytes();
            done(r);
        });
    });
}

void LockClient::explainWrongType(const QByteArray &name, std::function<void(const RedisError &)> done)
{
    // Only on the error path: the hot scripts leave the type check to Redis, so ask which type it is.
    m_connection->command({ "TYPE", name }, [done](const RedisResult &type) {
        const QString what
            = type.ok() ? QString::fromUtf8(type.value.bytes()) : QStringLiteral("value of another type");
        done(RedisError(
            RedisError::Kind::Reply, QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(what)));
    });
}

} // namespace LockScope
