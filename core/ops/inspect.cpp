#include "ops/inspect.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/releaseasfound.h"
#include "redis/redisrouter.h"

#include <QPointer>

#include <memory>

namespace LockScope {

QList<QByteArray> LockNow::owners() const
{
    QList<QByteArray> out;
    for (const LockHolder &h : holders)
        out << h.owner;
    return out;
}

namespace Ops {

namespace {

// Whom a release of name would wake: the subscribers of its layout's release channel in both pub/sub namespaces.
// A server without sharded pub/sub (before 7.0) answers SHARDNUMSUB with an error: none there.
void countListeners(
    RedisRouter *connection, const LockLayout &layout, const QByteArray &name, const std::shared_ptr<int> &count)
{
    const LockCapabilities caps = layout.capabilities();
    const QByteArray channel
        = caps.wakeChannel && !caps.queue ? layout.recogniser().releaseChannel(name) : QByteArray();
    if (channel.isEmpty())
        return;
    const auto add = [count](bool required) {
        return [count, required](const RedisResult &r) {
            const bool read = r.ok() && r.value.size() == 2;
            if (!read) {
                if (required)
                    *count = -2; // not known: the sum is not claimed
                return;
            }
            if (*count == -1)
                *count = 0;
            if (*count >= 0)
                *count += int(r.value.at(1).toInteger());
        };
    };
    connection->command({ "PUBSUB", "NUMSUB", channel }, add(true));
    connection->command({ "PUBSUB", "SHARDNUMSUB", channel }, add(false));
}

// The layout as the kind probe finds it now, then its holders by its own read, with the PTTL.
void probeAndRead(LockClient *client, const QByteArray &name, std::function<void(const LockNow &)> done)
{
    QPointer<LockClient> guard(client);
    probeKind(client, name, QByteArray(), [guard, name, done](const LockKindProbe &found) {
        LockNow now;
        now.name = name;
        now.error = found.actionError();
        if (now.error.isError() || !guard) {
            done(now);
            return;
        }
        now.kind = found.actionMode();
        now.layout = &LockLayouts::forMode(now.kind);
        auto holders = std::make_shared<RedisResult>();
        auto listeners = std::make_shared<int>(-1);
        RedisRouter *connection = guard->connection();
        connection->cork();
        connection->command(
            now.layout->lockActions()->inspectQuery(name), [holders](const RedisResult &r) { *holders = r; });
        countListeners(connection, *now.layout, name, listeners);
        // Our own subscribers (the console's monitor listening on the shard channel) are no waiters.
        const QByteArray channel = now.layout->recogniser().releaseChannel(name);
        const int own = channel.isEmpty() ? 0 : guard->ownListeners(channel);
        connection->command({ "PTTL", name }, [now, holders, listeners, own, done](const RedisResult &ttl) mutable {
            now.listeners = *listeners >= 0 ? qMax(0, *listeners - own) : qMax(-1, *listeners);
            if (!holders->ok()) {
                now.error = holders->error;
                done(now);
                return;
            }
            now.layout->lockActions()->decodeInspect(holders->value, &now.holders, &now.mode);
            now.ttlMs = ttl.value.toInteger();
            // A value the layout would never release (a counter under a string lock's name) is no lock to show.
            for (const LockHolder &h : std::as_const(now.holders))
                if (const RedisError refusal = now.layout->lockActions()->checkRelease(now.name, h.owner);
                    refusal && !now.error)
                    now.error = refusal;
            done(now);
        });
        connection->uncork();
    });
}

} // namespace

void inspect(LockClient *client, const QByteArray &name, std::function<void(const LockNow &)> done, LockAction action)
{
    QPointer<LockClient> guard(client);
    // Only what list and show would call a lock is shown for a person to act on: anything else is refused here, with
    // the reason show gives, before any prompt.
    client->checkTarget(name, action, [guard, name, done](const RedisError &refusal) {
        if (!guard)
            return;
        if (refusal) {
            LockNow now;
            now.name = name;
            now.error = refusal;
            done(now);
            return;
        }
        probeAndRead(guard, name, done);
    });
}

} // namespace Ops

} // namespace LockScope
