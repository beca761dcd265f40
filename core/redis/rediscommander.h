#pragma once

#include "redis/connectionoptions.h"
#include "redis/redisresult.h"

#include <QObject>

#include <functional>

namespace LockScope {

class RedisScript;

// Where lock clients and monitors send their commands: one node (RedisConnection), or a router that sends each
// command to the node serving its key (RedisRouter). Callbacks always run later, in the object's thread.
class RedisCommander : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const RedisResult &)>;
    // A batch's replies, in the order of its commands; a server's error reply is an error value among them. error is
    // set only when the batch as a whole failed (connection lost, deadline): replies is then empty.
    using BatchCallback = std::function<void(const RedisError &error, const QList<RedisValue> &replies)>;
    using QObject::QObject;

    virtual const ConnectionOptions &options() const = 0;
    virtual bool isReady() const = 0;
    // Commands sent or waiting whose replies have not come back yet.
    virtual int pendingCount() const = 0;
    virtual void open() = 0;
    virtual void command(QList<QByteArray> argv, Callback callback = {}) = 0;
    // EVAL the first time on a connection, EVALSHA after; EVAL again if the server answers NOSCRIPT.
    virtual void eval(
        const RedisScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args, Callback callback)
        = 0;
    // Many commands whose replies are wanted together: one callback with all of them. A walk sends a TYPE for each of
    // a million keys; one callback, one pending entry and one reply list per batch instead of per command is most of
    // what a command costs this process. Like command(), the callback runs later, never inside the call, and a
    // read-only connection refuses the whole batch when one command in it writes. This default sends each command
    // on its own (a router does: each goes to its key's node, redirections followed); a single connection overrides it.
    virtual void commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback);
    // The same command for each key: head, then the key, then tail ({"TYPE"}, keys, {}).
    virtual void commandEach(const QList<QByteArray> &head, const QList<QByteArray> &keys,
        const QList<QByteArray> &tail, BatchCallback callback);
    // A command whose reply nobody needs: it leaves with the next write.
    virtual void commandDeferred(const QList<QByteArray> &argv) = 0;
    virtual void flushDeferred() = 0;
    // While corked, commands are buffered and leave in one write per node when the last uncork() comes.
    virtual void cork() = 0;
    virtual void uncork() = 0;
    // Milliseconds on a monotonic clock shared by the deadlines.
    virtual qint64 nowMs() const = 0;
    // Commands about keys in different slots must go separately (a Redis Cluster).
    virtual bool routesBySlot() const { return false; }
    // The connection a key's commands end up on: keys that share one can share a multi-key command.
    virtual RedisCommander *connectionForKey(const QByteArray &key)
    {
        Q_UNUSED(key);
        return this;
    }

    // Once disconnected() was emitted: the ms until the next attempt to connect, NoRetry when none will be made (wrong
    // credentials, an unknown host key, reconnecting switched off), RetryUnknown when this commander cannot tell.
    static constexpr int NoRetry = -1;
    static constexpr int RetryUnknown = -2;
    virtual int retryDelayMs() const { return RetryUnknown; }

signals:
    void ready();
    void disconnected(const LockScope::RedisError &error);
};

} // namespace LockScope
