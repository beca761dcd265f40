// The kind a release or force release must use, read from Redis at the moment of the action.
#include "kinds/lockkindprobe.h"

#include "kinds/locknames.h"
#include "redis/redisrouter.h"
#include "redis/replyjoin.h"

#include <memory>

namespace LockScope {

LockKindProbe LockKindProber::decide(const QByteArray &type, const QByteArray &mode, bool fairQueue, bool fairTimeouts,
    bool fencingToken, const QByteArray &owner)
{
    LockKindProbe p;
    p.type = type;
    // A string (SET NX) lock is no error for a release or force release (actionError()); the hash scripts must not
    // touch it, nor anything else that is not a hash.
    if (type != "hash" && type != "none") {
        p.error = RedisError(RedisError::Kind::Reply,
            QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(QString::fromUtf8(type)));
        return p;
    }
    // The mode field is in the lock's own hash: the strongest evidence, ahead of aux keys that may be leftovers.
    if (mode == "read" || mode == "write")
        p.kind = owner.endsWith(":write") ? LockKind::Write : LockKind::Read;
    else if (fairQueue || fairTimeouts)
        p.kind = LockKind::Fair; // its release must tell the head of the queue, on that waiter's own channel
    else if (fencingToken)
        p.kind = LockKind::Fenced;
    return p;
}

void LockKindProber::probe(RedisCommander *connection, const QByteArray &name, const QByteArray &owner,
    std::function<void(const LockKindProbe &)> done)
{
    struct Replies
    {
        RedisResult type, mode, queue, timeouts, token;
    };
    auto replies = std::make_shared<Replies>();
    auto join = ReplyJoin::create([replies, owner, done](const RedisError &lost) {
        LockKindProbe p;
        const Replies &r = *replies;
        // HGET fails with WRONGTYPE on a non-hash; TYPE names what is there instead.
        for (const RedisResult *reply : { &r.type, &r.queue, &r.timeouts, &r.token })
            if (!reply->ok() && !p.error.isError())
                p.error = reply->error;
        if (lost.isError())
            p.error = lost;
        if (p.error.isError()) {
            done(p);
            return;
        }
        done(decide(r.type.value.bytes(), r.mode.ok() && !r.mode.value.isNil() ? r.mode.value.bytes() : QByteArray(),
            r.queue.value.toInteger() == 1, r.timeouts.value.toInteger() == 1, r.token.value.toInteger() == 1, owner));
    });
    auto into = [](RedisResult *slot) { return [slot](const RedisResult &r) { *slot = r; }; };
    connection->cork();
    connection->command({ "TYPE", name }, join->track(into(&replies->type)));
    connection->command({ "HGET", name, "mode" }, join->track(into(&replies->mode)));
    connection->command({ "EXISTS", LockNames::fairQueue(name) }, join->track(into(&replies->queue)));
    connection->command({ "EXISTS", LockNames::fairTimeouts(name) }, join->track(into(&replies->timeouts)));
    connection->command({ "EXISTS", LockNames::fencingToken(name) }, join->track(into(&replies->token)));
    connection->uncork();
    join->seal(connection);
}

} // namespace LockScope
