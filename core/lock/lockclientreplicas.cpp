#include "lock/lockclient.h"

#include "lock/lockwatchdog.h"
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
            // The undo is one level of an unlock, as Redisson runs it: a re-entry leaves the levels before it. What is
            // reported is what the undo did: a failed undo may leave the hold in place, and the caller must know.
            const int replicas = ack.replicas;
            const int timeoutMs = self->m_replicas->timeoutMs();
            self->release(
                result.name, result.owner,
                [self, done, result, replicas, timeoutMs](const ReleaseResult &undo) {
                    AcquireResult r = result;
                    r.acquired = false;
                    const QString unsynced
                        = tr("none of the %n replica(s) acknowledged the acquire within %1 ms", nullptr, replicas)
                              .arg(timeoutMs);
                    if (!undo.error.isError()) {
                        // Released or one level fewer: undone. Not held: already gone (expired, force-released), so
                        // nothing of it is held either.
                        r.error = RedisError(RedisError::Kind::NotSynced,
                            undo.outcome == ReleaseResult::Outcome::NotHeld
                                ? tr("%1, and it was already gone when it was to be undone: nothing of it is held "
                                     "(a failover now would give the lock to a replica that never saw it)")
                                      .arg(unsynced)
                                : tr("%1, so it was undone (a failover now would give the lock to a replica that "
                                     "never saw it)")
                                      .arg(unsynced));
                        done(r);
                        return;
                    }
                    // Not renewed any more, so the hold left behind ends with its lease; the caller holds nothing it
                    // could release, but is told the hold may still be there, and for how long at most.
                    if (self)
                        self->m_watchdog->released(result.name, result.owner, false);
                    r.error = RedisError(RedisError::Kind::NotSynced,
                        tr("%1, and undoing it failed (%2): the hold may still be in place on the master until its "
                           "lease of %3 ms runs out")
                            .arg(unsynced, undo.error.message())
                            .arg(result.leaseMs),
                        "UNDO_FAILED", undo.error.toString().toUtf8());
                    done(r);
                },
                kind);
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
