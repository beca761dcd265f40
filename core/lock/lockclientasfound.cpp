// LockClient's releases that read the kind from Redis at the moment of the action (kinds/lockkindprobe.h): the
// console and the CLI hold no kind logic of their own for these actions.
#include "lock/lockclient.h"

#include "kinds/locklayouts.h"
#include "redis/redisrouter.h"

namespace LockScope {

void LockClient::probeKind(const QByteArray &name, const QByteArray &owner, Callback<LockKindProbe> done)
{
    if (const RedisError error = validateName(name)) {
        LockKindProbe p;
        p.error = error;
        QMetaObject::invokeMethod(
            this, [done, p] { done(p); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> self(this);
    LockKindProber::probe(m_connection, name, owner, [self, name, done](LockKindProbe p) {
        if (!self)
            return;
        // A hash under another library's name (sidekiq-unique-jobs) is released by that library's scripts.
        if (const auto claimed = LockLayouts::kindClaiming(name, p.type, self->m_options.stringPatterns))
            p.kind = *claimed;
        done(p);
    });
}

void LockClient::releaseAsFound(const QByteArray &name, const QByteArray &owner, Callback<ReleaseResult> done)
{
    if (const RedisError error = checkWrite("release", name)) {
        release(name, owner, std::move(done)); // reports the same refusal, writing nothing
        return;
    }
    QPointer<LockClient> self(this);
    probeKind(name, owner, [self, name, owner, done](const LockKindProbe &p) {
        if (!self)
            return;
        if (const RedisError error = p.actionError()) {
            ReleaseResult r;
            r.error = error;
            r.name = name;
            r.owner = owner;
            r.kind = p.kind;
            done(r);
            return;
        }
        self->release(name, owner, done, p.actionKind());
    });
}

void LockClient::forceReleaseAsFound(const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done)
{
    if (const RedisError error = checkWrite("force-release", name)) {
        forceRelease(name, guard, std::move(done));
        return;
    }
    QPointer<LockClient> self(this);
    probeKind(name, QByteArray(), [self, name, guard, done](const LockKindProbe &p) {
        if (!self)
            return;
        if (const RedisError error = p.actionError()) {
            ForceReleaseResult r;
            r.error = error;
            r.name = name;
            done(r);
            return;
        }
        // The guard is still what the person saw; only the script, and so whom it wakes, comes from this read.
        self->forceRelease(name, guard, done, p.actionKind());
    });
}

} // namespace LockScope
