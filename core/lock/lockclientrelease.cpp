#include "lock/lockclient.h"

#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "lock/lockclientinternal.h"
#include "lock/lockwatchdog.h"
#include "lock/replicasync.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QTimer>

// Release and force release: one level of an owner's hold as its own unlock would, or the whole lock under a guard.
namespace LockScope {

using LockClientInternal::cleanScriptError;
using LockClientInternal::later;

void LockClient::release(const QByteArray &name, const QByteArray &owner, Callback<ReleaseResult> done, LockMode kind)
{
    RedisError error = checkWrite("release", name);
    if (!error)
        error = LockLayouts::actionsFor(kind).checkRelease(name, owner);
    if (error) {
        ReleaseResult r;
        r.error = error;
        r.name = name;
        r.owner = owner;
        r.kind = kind;
        later(this, done, r);
        return;
    }
    // One request id for every retry of this unlock, so a retry after a lost reply is answered from the latch.
    QPointer<LockClient> self(this);
    m_publishing->whenKnown([self, name, owner, kind, done = m_replicas->syncedRelease(std::move(done))] {
        if (!self)
            return;
        if (const RedisError refusal = self->m_publishing->refusal()) {
            ReleaseResult r;
            r.error = refusal;
            r.name = name;
            r.owner = owner;
            r.kind = kind;
            done(r);
            return;
        }
        self->releaseAttempt(name, owner, kind, LockNames::newRequestId(), 1, done);
    });
}

void LockClient::releaseAttempt(const QByteArray &name, const QByteArray &owner, LockMode kind,
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
    call.patterns = &m_options.stringPatterns;
    call.cluster = m_connection->isCluster();
    const ScriptCall script = LockLayouts::actionsFor(kind).release(kind, call);
    QPointer<LockClient> self(this);
    m_connection->eval(*script.script, script.keys, script.args,
        [self, name, owner, kind, requestId, attempt, latch, done, wakes = script.wakes](const RedisResult &reply) {
            if (!self)
                return;
            ReleaseResult r;
            r.name = name;
            r.owner = owner;
            r.kind = kind;
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
                    self->explainWrongType(name, LockLayouts::actionsFor(kind), [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
                done(r);
                return;
            }
            LockLayouts::actionsFor(kind).decodeRelease(reply.value, &r);
            if (r.outcome == ReleaseResult::Outcome::Released)
                r.wokeVia = wakes;
            if (r.outcome == ReleaseResult::Outcome::NotHeld) {
                QByteArray client, token;
                if (!LockNames::splitOwner(owner, &client, &token))
                    token = owner;
                if (token.endsWith(":write"))
                    token.chop(6);
                r.message = tr("attempt to unlock lock, not locked by current thread by node id: %1 thread-id: %2")
                                .arg(QString::fromUtf8(client.isEmpty() ? self->m_options.clientId : client),
                                    QString::fromUtf8(token));
                self->m_watchdog->released(name, owner, true);
            } else {
                self->m_watchdog->released(name, owner, r.outcome == ReleaseResult::Outcome::Released);
            }
            // The latch only matters while this call might be retried; it is done now. Nobody waits for the DEL,
            // so it travels with the next command instead of costing a write and a wake-up of its own.
            self->m_connection->commandDeferred({ "DEL", latch });
            done(r);
        });
}

void LockClient::forceRelease(
    const QByteArray &name, const QByteArray &expectOwner, Callback<ForceReleaseResult> done, LockMode kind)
{
    forceRelease(name, expectOwner.isEmpty() ? ForceGuard {} : ForceGuard::owner(expectOwner), std::move(done), kind);
}

void LockClient::forceRelease(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockMode kind)
{
    ForceReleaseResult r;
    r.name = name;
    RedisError error = checkWrite("force-release", name);
    if (!error) {
        r.kind = kind;
        error = LockLayouts::actionsFor(kind).checkForceRelease(name, guard);
    }
    if (error) {
        r.error = error;
        later(this, done, r);
        return;
    }
    QPointer<LockClient> self(this);
    m_publishing->whenKnown([self, name, guard, done, kind] {
        if (!self)
            return;
        if (const RedisError refusal = self->m_publishing->refusal()) {
            ForceReleaseResult r;
            r.name = name;
            r.kind = kind;
            r.error = refusal;
            done(r);
            return;
        }
        self->forceReleaseNow(name, guard, done, kind);
    });
}

void LockClient::forceReleaseNow(
    const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockMode kind)
{
    ForceReleaseResult r;
    r.name = name;
    r.kind = kind;
    ForceReleaseCall call;
    call.name = name;
    call.publish = publishCommand();
    call.nowMs = QDateTime::currentMSecsSinceEpoch();
    call.guard = guard;
    call.patterns = &m_options.stringPatterns;
    call.cluster = m_connection->isCluster();
    const LockActions &layout = LockLayouts::actionsFor(kind);
    const ScriptCall script = layout.forceRelease(call);
    QPointer<LockClient> self(this);
    m_connection->eval(*script.script, script.keys, script.args,
        [self, r, &layout, done, wakes = script.wakes](const RedisResult &reply) mutable {
            if (!self)
                return;
            if (!reply.ok()) {
                r.error = cleanScriptError(reply.error);
                if (r.error.code() == "WRONGTYPE") {
                    self->explainWrongType(r.name, layout, [r, done](const RedisError &e) mutable {
                        r.error = e;
                        done(r);
                    });
                    return;
                }
            } else {
                layout.decodeForceRelease(reply.value, &r);
                if (r.deleted)
                    self->m_watchdog->forget(r.name);
                if (r.deleted)
                    r.wokeVia = wakes;
            }
            const QList<QByteArray> holdersQuery = layout.holdersQuery(r.name);
            if (!r.guardFailed || holdersQuery.isEmpty()) {
                done(r);
                return;
            }
            // Say what changed: who holds it now (read after the refusal, so it may have moved on again).
            self->m_connection->command(holdersQuery, [r, done](const RedisResult &fields) mutable {
                for (const RedisValue &f : fields.value.elements())
                    if (f.bytes() != "mode")
                        r.holdersNow << f.bytes();
                done(r);
            });
        });
}

void LockClient::explainWrongType(
    const QByteArray &name, const LockActions &layout, std::function<void(const RedisError &)> done)
{
    // Only on the error path: the hot scripts leave the type check to Redis, so ask which type it is.
    m_connection->command({ "TYPE", name }, [name, &layout, done](const RedisResult &type) {
        done(layout.wrongType(name, type.ok() ? type.value.bytes() : QByteArray("value of another type")));
    });
}

} // namespace LockScope
