#include "lock/lockclient.h"

#include "lock/replicasync.h"
#include "redis/redisrouter.h"

// What Redisson does after lock writes on a master with replicas (docs/protocol/README.md#replica-acknowledgement):
// WAIT for the replicas, and with checkLockSyncedSlaves undo an acquire that none of them acknowledged, since a
// failover would hand that lock to a replica that never heard of it: two holders.
namespace LockScope {

LockClient::Callback<AcquireResult> LockClient::replicaCheckedAcquire(LockKind kind, Callback<AcquireResult> done)
{
    QPointer<LockClient> self(this);
    return [self, kind, done](const AcquireResult &result) {
        if (!self || !result.acquired || !self->m_replicas->mayWait(result.name)) {
            done(result);
            return;
        }
        self->m_replicas->afterWrite(result.name, [self, kind, result, done](const ReplicaSync::Ack &ack) {
            if (!self)
                return;
            if (!ack.noneSynced() || !self->m_connection->options().checkSyncedReplicas) {
                done(result);
                return;
            }
            AcquireResult undone = result;
            undone.acquired = false;
            undone.error = RedisError(RedisError::Kind::NotSynced,
                tr("none of the %n replica(s) acknowledged the acquire within %1 ms, so it was undone (a failover "
                   "now would give the lock to a replica that never saw it)",
                    nullptr, ack.replicas)
                    .arg(self->m_replicas->timeoutMs()));
            // The undo is one level of an unlock, as Redisson runs it: a re-entry leaves the levels before it.
            self->release(
                result.name, result.owner, [done, undone](const ReleaseResult &) { done(undone); }, kind);
        });
    };
}

LockClient::Callback<ReleaseResult> LockClient::replicaSyncedRelease(Callback<ReleaseResult> done)
{
    QPointer<LockClient> self(this);
    return [self, done](const ReleaseResult &result) {
        if (!self || result.error.isError() || result.outcome == ReleaseResult::Outcome::NotHeld
            || !self->m_replicas->mayWait(result.name)) {
            done(result);
            return;
        }
        // A release is not undone; the WAIT only keeps a failover from bringing the lock back.
        self->m_replicas->afterWrite(result.name, [done, result](const ReplicaSync::Ack &) { done(result); });
    };
}

} // namespace LockScope
