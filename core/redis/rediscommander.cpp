#include "redis/rediscommander.h"

#include <memory>

namespace LockScope {

namespace {
struct BatchState
{
    RedisCommander::BatchCallback callback;
    QList<RedisValue> replies;
    qsizetype remaining = 0;
    bool failed = false;
};
} // namespace

void RedisCommander::commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback)
{
    if (commands.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [callback = std::move(callback)] { callback({}, {}); }, Qt::QueuedConnection);
        return;
    }
    auto state = std::make_shared<BatchState>();
    state->callback = std::move(callback);
    state->replies.resize(commands.size());
    state->remaining = commands.size();
    for (qsizetype i = 0; i < commands.size(); ++i) {
        command(commands.at(i), [state, i](const RedisResult &r) {
            if (state->failed)
                return;
            // A server's error reply is data (it arrives as an error value too); anything else failed the batch.
            if (r.error.isError() && !r.value.isError()) {
                state->failed = true;
                state->callback(r.error, {});
                return;
            }
            state->replies[i] = r.value;
            if (--state->remaining == 0)
                state->callback({}, state->replies);
        });
    }
}

void RedisCommander::commandEach(
    const QList<QByteArray> &head, const QList<QByteArray> &keys, const QList<QByteArray> &tail, BatchCallback callback)
{
    QList<QList<QByteArray>> commands;
    commands.reserve(keys.size());
    for (const QByteArray &key : keys)
        commands.append(head + QList<QByteArray> { key } + tail);
    commandBatch(commands, std::move(callback));
}

} // namespace LockScope
