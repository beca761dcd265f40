#include "lock/replicasync.h"

#include "redis/rediscommander.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <climits>

namespace LockScope {

namespace {
// Replicas come and go rarely; reading INFO before every write would double the round trips of a replicated lock.
constexpr int kReplicaCountMaxAgeMs = 5000;
} // namespace

ReplicaSync::ReplicaSync(RedisCommander *connection, int timeoutMs, bool undoUnsynced, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_timeoutMs(timeoutMs)
    , m_undoUnsynced(undoUnsynced)
{ }

// A failover right after an acquire no replica acknowledged would hand that lock to a replica that never heard of
// it: two holders. So, as Redisson does, the acquire is undone. The texts are the lock client's, whose answers they
// are: their translations stay under its name.
ReplicaSync::Callback<AcquireResult> ReplicaSync::checkedAcquire(Callback<AcquireResult> done, Undo undo)
{
    QPointer<ReplicaSync> self(this);
    return [self, done, undo](const AcquireResult &result) {
        if (!self || !result.acquired || !self->mayWait(result.name)) {
            done(result);
            return;
        }
        self->afterWrite(result.name, [self, undo, result, done](const Ack &ack) {
            if (!self)
                return;
            if (!ack.noneSynced() || !self->m_undoUnsynced) {
                done(result);
                return;
            }
            // The undo is one level of an unlock: a re-entry leaves the levels before it. What is reported is what
            // the undo did: a failed undo may leave the hold in place, and the caller must know.
            const int replicas = ack.replicas;
            const int timeoutMs = self->m_timeoutMs;
            undo(result, [done, result, replicas, timeoutMs](const ReleaseResult &undone) {
                AcquireResult r = result;
                r.acquired = false;
                const QString unsynced = QCoreApplication::translate("LockScope::LockClient",
                    "none of the %n replica(s) acknowledged the acquire within %1 ms", nullptr, replicas)
                                             .arg(timeoutMs);
                if (!undone.error.isError()) {
                    // Released or one level fewer: undone. Not held: already gone (expired, force-released), so
                    // nothing of it is held either.
                    r.error = RedisError(RedisError::Kind::NotSynced,
                        undone.outcome == ReleaseResult::Outcome::NotHeld
                            ? QCoreApplication::translate("LockScope::LockClient",
                                "%1, and it was already gone when it was to be undone: nothing of it is held "
                                "(a failover now would give the lock to a replica that never saw it)")
                                  .arg(unsynced)
                            : QCoreApplication::translate("LockScope::LockClient",
                                "%1, so it was undone (a failover now would give the lock to a replica that "
                                "never saw it)")
                                  .arg(unsynced));
                    done(r);
                    return;
                }
                // The caller holds nothing it could release, but is told the hold may still be there, and for how
                // long at most.
                r.error = RedisError(RedisError::Kind::NotSynced,
                    QCoreApplication::translate("LockScope::LockClient",
                        "%1, and undoing it failed (%2): the hold may still be in place on the master until its "
                        "lease of %3 ms runs out")
                        .arg(unsynced, undone.error.message())
                        .arg(result.leaseMs),
                    "UNDO_FAILED", undone.error.toString().toUtf8());
                done(r);
            });
        });
    };
}

ReplicaSync::Callback<ReleaseResult> ReplicaSync::syncedRelease(Callback<ReleaseResult> done)
{
    QPointer<ReplicaSync> self(this);
    return [self, done](const ReleaseResult &result) {
        if (!self || result.error.isError() || result.outcome == ReleaseResult::Outcome::NotHeld
            || !self->mayWait(result.name)) {
            done(result);
            return;
        }
        // A release is not undone; the WAIT only keeps a failover from bringing the lock back.
        self->afterWrite(result.name, [done, result](const Ack &) { done(result); });
    };
}

int ReplicaSync::onlineReplicas(const QByteArray &info)
{
    // "slave0:ip=127.0.0.1,port=7001,state=online,offset=42,lag=0": a replica still in its first sync cannot
    // acknowledge anything, so WAIT counts only the online ones.
    int online = 0;
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith("slave") && line.contains(":ip=") && line.contains("state=online"))
            ++online;
    }
    return online;
}

bool ReplicaSync::mayWait(const QByteArray &key)
{
    if (m_timeoutMs <= 0)
        return false;
    const auto it = m_nodes.constFind(m_connection->connectionForKey(key));
    return it == m_nodes.cend() || it->replicas != 0 || !it->readAt.isValid()
        || it->readAt.elapsed() >= kReplicaCountMaxAgeMs;
}

void ReplicaSync::afterWrite(const QByteArray &key, Done done)
{
    const QPointer<ReplicaSync> self(this);
    if (m_timeoutMs <= 0) {
        QMetaObject::invokeMethod(
            this, [done] { done({}); }, Qt::QueuedConnection);
        return;
    }
    RedisCommander *node = m_connection->connectionForKey(key);
    const NodeState state = m_nodes.value(node);
    if (state.replicas >= 0 && state.readAt.isValid() && state.readAt.elapsed() < kReplicaCountMaxAgeMs) {
        waitOn(node, state.replicas, std::move(done));
        return;
    }
    const QPointer<RedisCommander> target(node);
    node->command({ "INFO", "replication" }, [self, target, done](const RedisResult &r) {
        if (!self || !target)
            return;
        if (!r.ok()) {
            Ack ack;
            ack.error = r.error;
            done(ack);
            return;
        }
        NodeState &s = self->m_nodes[target.data()];
        s.replicas = onlineReplicas(r.value.bytes());
        s.readAt.start();
        self->waitOn(target, s.replicas, done);
    });
}

void ReplicaSync::waitOn(RedisCommander *node, int replicas, Done done)
{
    if (replicas <= 0) {
        QMetaObject::invokeMethod(
            this, [done] { done({}); }, Qt::QueuedConnection);
        return;
    }
    // WAIT covers every write this connection made before it, the lock script's included, though its reply is in.
    const QPointer<ReplicaSync> self(this);
    const QPointer<RedisCommander> target(node);
    node->command({ "WAIT", QByteArray::number(replicas), QByteArray::number(m_timeoutMs) },
        [self, target, replicas, done](const RedisResult &r) {
            Ack ack;
            ack.replicas = replicas;
            if (!r.ok())
                ack.error = r.error;
            else if (!r.value.isInteger() || r.value.toInteger() < 0)
                // WAIT answers a count. Anything else says nothing of the replicas: read as 0 it would undo an
                // acquire they may have (found by fuzz_replies).
                ack.error = RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected WAIT reply"));
            else
                ack.acknowledged = int(qMin(r.value.toInteger(), qint64(INT_MAX)));
            if (!ack.noneSynced() || !self || !target) {
                done(ack);
                return;
            }
            // The count may be up to a few seconds old: a replica that went away since cannot acknowledge, nor be
            // promoted with a stale copy. Only replicas the master still has make the write unsynced.
            target->command({ "INFO", "replication" }, [self, target, ack, done](const RedisResult &info) mutable {
                if (self && target && info.ok()) {
                    NodeState &s = self->m_nodes[target.data()];
                    s.replicas = onlineReplicas(info.value.bytes());
                    s.readAt.start();
                    if (s.replicas == 0)
                        ack.replicas = 0;
                }
                done(ack);
            });
        });
}

} // namespace LockScope
