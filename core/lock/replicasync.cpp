#include "lock/replicasync.h"

#include "redis/rediscommander.h"

#include <QMetaObject>

namespace LockScope {

namespace {
// Replicas come and go rarely; reading INFO before every write would double the round trips of a replicated lock.
constexpr int kReplicaCountMaxAgeMs = 5000;
} // namespace

ReplicaSync::ReplicaSync(RedisCommander *connection, int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_timeoutMs(timeoutMs)
{ }

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
            else
                ack.acknowledged = int(r.value.toInteger());
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
