#include "ops/releaseasfound.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/redisrouter.h"

#include <QPointer>

namespace LockScope::Ops {

void probeKind(LockClient *client, const QByteArray &name, const QByteArray &owner,
    std::function<void(const LockKindProbe &)> done)
{
    if (const RedisError error = client->validateName(name)) {
        LockKindProbe p;
        p.error = error;
        QMetaObject::invokeMethod(
            client, [done, p] { done(p); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> self(client);
    LockKindProber::probe(client->connection(), name, owner, [self, name, done](LockKindProbe p) {
        if (!self)
            return;
        // A hash under another library's name (sidekiq-unique-jobs) is released by that library's scripts.
        if (const auto claimed = LockLayouts::kindClaiming(name, p.type, self->options().stringPatterns))
            p.kind = *claimed;
        done(p);
    });
}

void releaseAsFound(LockClient *client, const QByteArray &name, const QByteArray &owner,
    std::function<void(const ReleaseResult &)> done)
{
    if (const RedisError error = client->checkWrite("release", name)) {
        // Reports the same refusal, writing nothing: no kind was read, and none is needed for a refusal.
        client->release(name, owner, std::move(done), LockMode::Reentrant);
        return;
    }
    QPointer<LockClient> self(client);
    auto refuse = [name, owner, done](const RedisError &error, LockMode kind) {
        ReleaseResult r;
        r.error = error;
        r.name = name;
        r.owner = owner;
        r.kind = kind;
        done(r);
    };
    auto run = [self, name, owner, done, refuse] {
        probeKind(self, name, owner, [self, name, owner, done, refuse](const LockKindProbe &p) {
            if (!self)
                return;
            if (const RedisError error = p.actionError()) {
                refuse(error, p.kind);
                return;
            }
            self->release(name, owner, done, p.actionMode());
        });
    };
    // A string lock of this client's own is a lock whatever the patterns say (taken outside them): its release
    // compares our own random token, which no application data holds. A hold whose holder is a hash field is not
    // spared the check: an application's hash written over the name may keep our field beside its own (a release
    // would delete its data with the last level), and a sorted set our member.
    if (client->tracksHold(name, owner)) {
        for (const HoldEvent &hold : client->holds())
            if (hold.name == name && hold.owner == owner
                && LockLayouts::forMode(hold.kind).capabilities().tokenHolder) {
                run();
                return;
            }
    }
    client->checkTarget(name, LockAction::Release, [self, run, refuse](const RedisError &refusal) {
        if (!self)
            return;
        if (refusal)
            refuse(refusal, LockMode::Reentrant);
        else
            run();
    });
}

void forceReleaseAsFound(LockClient *client, const QByteArray &name, const ForceGuard &guard,
    std::function<void(const ForceReleaseResult &)> done)
{
    if (const RedisError error = client->checkWrite("force-release", name)) {
        client->forceRelease(name, guard, std::move(done), LockMode::Reentrant); // the refusal, writing nothing
        return;
    }
    QPointer<LockClient> self(client);
    auto refuse = [name, done](const RedisError &error) {
        ForceReleaseResult r;
        r.error = error;
        r.name = name;
        done(r);
    };
    client->checkTarget(name, LockAction::ForceRelease, [self, name, guard, done, refuse](const RedisError &refusal) {
        if (!self)
            return;
        if (refusal) {
            refuse(refusal);
            return;
        }
        probeKind(self, name, QByteArray(), [self, name, guard, done, refuse](const LockKindProbe &p) {
            if (!self)
                return;
            if (const RedisError error = p.actionError()) {
                refuse(error);
                return;
            }
            // The guard is still what the person saw; only the script, and so whom it wakes, comes from this read.
            self->forceRelease(name, guard, done, p.actionMode());
        });
    });
}

} // namespace LockScope::Ops
