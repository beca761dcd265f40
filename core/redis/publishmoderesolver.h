#pragma once

#include "base/rediserror.h"
#include "redis/connectionoptions.h"
#include "redis/redissubscriptions.h"

#include <QList>
#include <QObject>

#include <functional>

namespace LockScope {

class RedisRouter;

// How a writer's releases wake waiters (docs/protocol/README.md#plain-and-sharded-publishing): the publish mode asked
// for, or Redisson's AUTO resolved once the server is known (sharded in a cluster that answers PUBSUB SHARDNUMSUB,
// plain everywhere else), and which namespaces listeners must cover. The lock client holds one; the monitor and the
// CLI's scans, which never write, ask only listenerKinds().
class PublishModeResolver : public QObject
{
    Q_OBJECT
public:
    // Starts resolving at once: from the options when they say, else once the router has decided what it talks to.
    explicit PublishModeResolver(RedisRouter *connection, QObject *parent = nullptr);

    PublishMode mode() const { return m_publish; } // Auto: not resolved yet
    // The publish command(s) a release script runs: "PUBLISH", "SPUBLISH" or "PUBLISH,SPUBLISH".
    QByteArray publishCommand() const;
    // The namespaces a waiter of this writer listens on: both in "both" mode, as a mixed fleet may publish on either.
    QList<RedisSubscriptions::Kind> waitKinds() const;
    // Whether an explicit sharded or both mode has been checked against the server (always, for auto and plain).
    bool serverChecked() const { return m_shardCheck == ShardCheck::Done; }
    // Runs now when the publish mode is known, else once it is (the first reply from the server). An explicit
    // sharded or both mode is first checked against the server, once (checkShardedPubSub).
    void whenKnown(std::function<void()> run);
    // The error a release, force release or wait reports instead of running (empty when none).
    RedisError refusal() const { return m_publishRefusal; }

    // The namespaces a listener that must hear every writer of the fleet covers: plain channels always, sharded ones
    // too in a cluster (writers there may resolve auto to sharded) or where the fleet was said to publish sharded.
    // Pure: a monitor never resolves by asking the server what a writer would.
    static QList<RedisSubscriptions::Kind> listenerKinds(PublishMode asked, bool cluster);

signals:
    void resolved(LockScope::PublishMode mode);
    // Something the user should know about how releases wake waiters (an explicit "both" on a server without
    // sharded pub/sub publishes plainly only).
    void notice(const QString &text);

private:
    void resolve();
    void setMode(PublishMode mode);
    // A server without sharded pub/sub (before Redis 7) runs a release script up to its SPUBLISH and stops there,
    // the lock deleted and nobody woken, as scripts are not rolled back. So before the first release: "sharded" is
    // refused (m_publishRefusal), "both" publishes plainly only. Read-only probes a monitor's ACL allows.
    void checkShardedPubSub();
    void runWaiting();

    RedisRouter *m_connection;
    PublishMode m_publish = PublishMode::Auto;
    QList<std::function<void()>> m_waiting;
    enum class ShardCheck { Needed, Running, Done };
    ShardCheck m_shardCheck = ShardCheck::Done;
    RedisError m_publishRefusal;
};

} // namespace LockScope
