#include "ops/release.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/redisrouter.h"

#include <QPointer>

#include <memory>

namespace LockScope {

namespace Ops {

void release(
    LockClient *client, const QByteArray &name, const QByteArray &owner, std::function<void(const ReleaseDone &)> done)
{
    QPointer<LockClient> guard(client);
    client->releaseAsFound(name, owner, [guard, name, owner, done](const ReleaseResult &r) {
        ReleaseDone d;
        d.error = r.error;
        d.message = r.message;
        d.kind = r.kind;
        d.holderNow = r.holderNow;
        if (r.error.isError()) {
            done(d);
            return;
        }
        d.outcome = r.outcome == ReleaseResult::Outcome::Released ? AuditRecord::Outcome::Released
            : r.outcome == ReleaseResult::Outcome::StillHeld      ? AuditRecord::Outcome::StillHeld
                                                                  : AuditRecord::Outcome::NotHeld;
        // Only a hold that goes on has a count and a lease worth reading; the two travel in one round trip.
        if (d.outcome != AuditRecord::Outcome::StillHeld || !guard
            || !LockLayouts::forMode(r.kind).capabilities().reentrant) {
            done(d);
            return;
        }
        auto count = std::make_shared<RedisResult>();
        guard->connection()->command({ "HGET", name, owner }, [count](const RedisResult &c) { *count = c; });
        guard->connection()->command({ "PTTL", name }, [d, count, done](const RedisResult &ttl) mutable {
            d.levelsLeft = count->value.toInteger();
            d.ttlMs = ttl.value.toInteger();
            done(d);
        });
    });
}

} // namespace Ops

} // namespace LockScope
