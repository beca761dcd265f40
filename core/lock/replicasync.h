#pragma once

#include "base/rediserror.h"
#include "kinds/locktypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

namespace LockScope {

class RedisCommander;

// What Redisson does after a lock write on a master with replicas (docs/protocol/README.md#replica-acknowledgement):
// WAIT for the replicas the master has, at most replicaSyncTimeoutMs, so that a failover right after an acquire does
// not hand the lock to a replica that never heard of it. Without replicas (or with the timeout 0) nothing is sent, as
// in Redisson's single-server mode. The replica count is the master's own (INFO replication), read again every few
// seconds. The lock client passes its acquire and release answers through it (checkedAcquire, syncedRelease).
class ReplicaSync : public QObject
{
    Q_OBJECT
public:
    struct Ack
    {
        RedisError error; // the INFO or WAIT failed (the write itself was made)
        int replicas = 0; // replicas the master had when the WAIT was sent; 0: nothing was waited for
        int acknowledged = 0;
        // Redisson's checkLockSyncedSlaves: replicas there were, and none confirmed the write in time.
        bool noneSynced() const { return !error.isError() && replicas > 0 && acknowledged == 0; }
    };
    using Done = std::function<void(const Ack &)>;

    template <typename T> using Callback = std::function<void(const T &)>;
    // Gives back one level of a hold just taken; undone gets the release's answer.
    using Undo = std::function<void(const AcquireResult &held, Callback<ReleaseResult> undone)>;

    // undoUnsynced: Redisson's checkLockSyncedSlaves (ConnectionOptions::checkSyncedReplicas).
    ReplicaSync(RedisCommander *connection, int timeoutMs, bool undoUnsynced, QObject *parent = nullptr);

    int timeoutMs() const { return m_timeoutMs; }
    // Whether a write to key's node may have replicas to wait for: false when waiting is off, or the node had none
    // at its last count (then the caller goes on at once: the lock hot path costs nothing without replicas).
    bool mayWait(const QByteArray &key);
    // After a write to key's node has been answered: waits until the node's replicas have it, or the timeout.
    void afterWrite(const QByteArray &key, Done done);

    // done, called once a won acquire's node has waited for its replicas: an acquire none of them acknowledged is
    // given back with undo (when undoUnsynced) and reported as NotSynced, with what the undo did.
    Callback<AcquireResult> checkedAcquire(Callback<AcquireResult> done, Undo undo);
    // done, called once a release's node has waited for its replicas (a release is not undone).
    Callback<ReleaseResult> syncedRelease(Callback<ReleaseResult> done);

    // connected_slaves of an INFO replication reply, counting only replicas whose link is online.
    static int onlineReplicas(const QByteArray &info);

private:
    struct NodeState
    {
        int replicas = -1; // -1: not read yet
        QElapsedTimer readAt;
    };
    void waitOn(RedisCommander *node, int replicas, Done done);

    RedisCommander *m_connection;
    int m_timeoutMs;
    bool m_undoUnsynced;
    QHash<RedisCommander *, NodeState> m_nodes;
};

} // namespace LockScope
