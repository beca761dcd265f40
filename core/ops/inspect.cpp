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
        RedisRouter *connection = guard->connection();
        connection->cork();
        connection->command(
            now.layout->lockActions()->inspectQuery(name), [holders](const RedisResult &r) { *holders = r; });
        connection->command({ "PTTL", name }, [now, holders, done](const RedisResult &ttl) mutable {
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
