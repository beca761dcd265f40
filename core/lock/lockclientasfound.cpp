// LockClient's releases that read the kind from Redis at the moment of the action (kinds/lockkindprobe.h): the
// console and the CLI hold no kind logic of their own for these actions.
#include "lock/lockclient.h"

#include "kinds/lockatname.h"
#include "kinds/locklayouts.h"
#include "lock/lockwatchdog.h"
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
        // Reports the same refusal, writing nothing: no kind was read, and none is needed for a refusal.
        release(name, owner, std::move(done), LockKind::Reentrant);
        return;
    }
    QPointer<LockClient> self(this);
    auto refuse = [name, owner, done](const RedisError &error, LockKind kind) {
        ReleaseResult r;
        r.error = error;
        r.name = name;
        r.owner = owner;
        r.kind = kind;
        done(r);
    };
    auto run = [self, name, owner, done, refuse] {
        self->probeKind(name, owner, [self, name, owner, done, refuse](const LockKindProbe &p) {
            if (!self)
                return;
            if (const RedisError error = p.actionError()) {
                refuse(error, p.kind);
                return;
            }
            self->release(name, owner, done, p.actionKind());
        });
    };
    // A hold of this client's own is a lock whatever the patterns say (a string lock taken outside them): its
    // release compares our own random token or field, which no application data holds.
    if (m_watchdog->isTracked(name, owner)) {
        run();
        return;
    }
    checkTarget(name, LockAction::Release, [self, run, refuse](const RedisError &refusal) {
        if (!self)
            return;
        if (refusal)
            refuse(refusal, LockKind::Reentrant);
        else
            run();
    });
}

void LockClient::forceReleaseAsFound(const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done)
{
    if (const RedisError error = checkWrite("force-release", name)) {
        forceRelease(name, guard, std::move(done), LockKind::Reentrant); // the refusal, writing nothing
        return;
    }
    QPointer<LockClient> self(this);
    auto refuse = [name, done](const RedisError &error) {
        ForceReleaseResult r;
        r.error = error;
        r.name = name;
        done(r);
    };
    checkTarget(name, LockAction::ForceRelease, [self, name, guard, done, refuse](const RedisError &refusal) {
        if (!self)
            return;
        if (refusal) {
            refuse(refusal);
            return;
        }
        self->probeKind(name, QByteArray(), [self, name, guard, done, refuse](const LockKindProbe &p) {
            if (!self)
                return;
            if (const RedisError error = p.actionError()) {
                refuse(error);
                return;
            }
            // The guard is still what the person saw; only the script, and so whom it wakes, comes from this read.
            self->forceRelease(name, guard, done, p.actionKind());
        });
    });
}

void LockClient::checkTarget(const QByteArray &name, LockAction action, Callback<RedisError> done)
{
    if (const RedisError error = validateName(name)) {
        QMetaObject::invokeMethod(
            this, [done, error] { done(error); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> self(this);
    LockAtName::read(m_connection, name, m_options.stringPatterns, [self, action, done](const NameReading &reading) {
        if (self)
            done(LockAtName::refusal(reading, action, self->m_options.stringPatterns));
    });
}

} // namespace LockScope
