#include "ops/release.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>

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
        d.wokeVia = r.wokeVia;
        if (r.error.isError()) {
            done(d);
            return;
        }
        d.outcome = r.outcome == ReleaseResult::Outcome::Released ? AuditRecord::Outcome::Released
            : r.outcome == ReleaseResult::Outcome::StillHeld      ? AuditRecord::Outcome::StillHeld
                                                                  : AuditRecord::Outcome::NotHeld;
        // A layout whose answer names the holder: say whose it is, rather than Redisson's words about threads.
        if (d.outcome == AuditRecord::Outcome::NotHeld && !r.holderNow.isEmpty())
            d.message
                = QCoreApplication::translate("LockScope::Ops", "%1 is held by token %2, not %3; it was left alone")
                      .arg(escapeBytes(name, 200), escapeBytes(r.holderNow, 200), escapeBytes(owner, 200));
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
