// A router's batches (RedisCommander::commandBatch): on one server, that server's; in a cluster, one per master, a
// redirected command sent again through command().
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/slotmap.h"

#include <QHash>
#include <QPointer>

#include <memory>

namespace LockScope {

namespace {
// A cluster batch on its way: replies land in their command's place, from the masters' own batches or, for a
// redirect, from the command sent again through the router.
struct ClusterBatch
{
    RedisCommander::BatchCallback callback;
    QList<QList<QByteArray>> commands;
    QList<RedisValue> replies;
    qsizetype remaining = 0; // node batches and single commands not answered yet
    bool failed = false;

    void fail(const RedisError &error)
    {
        if (failed)
            return;
        failed = true;
        callback(error, {});
    }
    void oneDone()
    {
        if (!failed && --remaining == 0)
            callback({}, replies);
    }
};

// What the router follows rather than hands back: a redirect, or a slot not served for a moment.
bool routerWork(const RedisValue &reply)
{
    if (!reply.isError())
        return false;
    const QByteArray code = reply.errorCode();
    return code == "MOVED" || code == "ASK" || code == "TRYAGAIN" || code == "CLUSTERDOWN";
}
} // namespace

void RedisRouter::commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback)
{
    if (m_mode == Mode::Standalone) {
        m_seed->commandBatch(commands, std::move(callback));
        return;
    }
    if (m_mode != Mode::Cluster || m_options.replicaReads || commands.isEmpty()) {
        RedisCommander::commandBatch(commands, std::move(callback));
        return;
    }
    // Each master gets the commands of the keys it serves as one batch of its own, sent as they are: the router's
    // per-command path keeps a copy of every command and callback for a redirect, and for a walk's million TYPEs
    // that bookkeeping was a third of list's CPU on three masters. A reply that redirects is sent again through
    // command(), which follows it: only a slot that moves meanwhile pays for the router.
    auto batch = std::make_shared<ClusterBatch>();
    batch->callback = std::move(callback);
    batch->commands = commands;
    batch->replies.resize(commands.size());
    QHash<RedisConnection *, QList<qsizetype>> byNode;
    QList<qsizetype> alone;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        const std::optional<QByteArray> key = routingKey(commands.at(i));
        RedisError error;
        RedisConnection *node = key ? nodeForSlot(keySlot(*key), &error) : nullptr;
        if (node)
            byNode[node] << i;
        else
            alone << i;
    }
    batch->remaining = byNode.size() + alone.size();
    QPointer<RedisRouter> self(this);
    const auto single = [batch](qsizetype i) {
        return [batch, i](const RedisResult &r) {
            if (r.error.isError() && !r.value.isError()) {
                batch->fail(r.error);
                return;
            }
            batch->replies[i] = r.value;
            batch->oneDone();
        };
    };
    for (auto it = byNode.cbegin(); it != byNode.cend(); ++it) {
        QList<QList<QByteArray>> part;
        part.reserve(it.value().size());
        for (qsizetype i : it.value())
            part << commands.at(i);
        it.key()->commandBatch(part,
            [batch, self, indexes = it.value(), single](const RedisError &error, const QList<RedisValue> &replies) {
                if (error.isError() || replies.size() != indexes.size()) {
                    batch->fail(error.isError()
                            ? error
                            : RedisError(RedisError::Kind::Protocol, tr("a batch came back short")));
                    return;
                }
                for (qsizetype k = 0; k < indexes.size(); ++k) {
                    const qsizetype i = indexes.at(k);
                    if (routerWork(replies.at(k)) && self) {
                        ++batch->remaining;
                        self->command(batch->commands.at(i), single(i));
                    } else {
                        batch->replies[i] = replies.at(k);
                    }
                }
                batch->oneDone();
            });
    }
    for (qsizetype i : alone)
        command(commands.at(i), single(i));
}

void RedisRouter::commandEach(
    const QList<QByteArray> &head, const QList<QByteArray> &keys, const QList<QByteArray> &tail, BatchCallback callback)
{
    if (m_mode == Mode::Standalone)
        m_seed->commandEach(head, keys, tail, std::move(callback));
    else
        RedisCommander::commandEach(head, keys, tail, std::move(callback)); // into commandBatch: by master
}

} // namespace LockScope
