// The kind a release or force release must use, read from Redis at the moment of the action.
#include "kinds/lockkindprobe.h"

#include "kinds/hashrecognition.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "redis/redisrouter.h"
#include "redis/replyjoin.h"

#include <memory>

namespace LockScope {

LockKindProbe LockKindProber::decide(const QByteArray &type, const QList<bool> &marks, const QByteArray &owner)
{
    LockKindProbe p;
    p.type = type;
    bool notAHash = false;
    const LockLayout *layout = HashRecognition::decide(type, marks, &notAHash);
    // A string (SET NX) lock is no error for a release or force release (actionError()); the hash scripts must not
    // touch it, nor anything else that is not a hash.
    if (notAHash) {
        p.error = RedisError(RedisError::Kind::Reply,
            QStringLiteral("WRONGTYPE the lock name holds a %1, not a lock hash").arg(QString::fromUtf8(type)));
        return p;
    }
    // A fair lock's release must tell the head of its queue, on that waiter's own channel; a fenced lock is released
    // as the reentrant lock it is underneath; a read-write lock as its owner's mode.
    if (layout)
        p.kind = LockLayouts::releaseMode(*layout, owner);
    return p;
}

void LockKindProber::probe(RedisCommander *connection, const QByteArray &name, const QByteArray &owner,
    std::function<void(const LockKindProbe &)> done)
{
    const QList<HashRecognition::Read> &reads = HashRecognition::reads();
    struct Replies
    {
        RedisResult type;
        QList<RedisResult> marks;
    };
    auto replies = std::make_shared<Replies>();
    replies->marks.resize(reads.size());
    auto join = ReplyJoin::create([replies, owner, done](const RedisError &lost) {
        LockKindProbe p;
        const Replies &r = *replies;
        // HEXISTS fails with WRONGTYPE on a non-hash; TYPE names what is there instead.
        if (!r.type.ok())
            p.error = r.type.error;
        QList<bool> marks;
        for (qsizetype i = 0; i < r.marks.size(); ++i) {
            const bool field = !HashRecognition::reads().at(i).field.isEmpty();
            if (!r.marks.at(i).ok() && !p.error.isError() && !field)
                p.error = r.marks.at(i).error;
            marks << (r.marks.at(i).ok() && r.marks.at(i).value.toInteger() == 1);
        }
        if (lost.isError())
            p.error = lost;
        if (p.error.isError()) {
            done(p);
            return;
        }
        done(decide(r.type.value.bytes(), marks, owner));
    });
    auto into = [](RedisResult *slot) { return [slot](const RedisResult &r) { *slot = r; }; };
    connection->cork();
    connection->command({ "TYPE", name }, join->track(into(&replies->type)));
    for (qsizetype i = 0; i < reads.size(); ++i) {
        const HashRecognition::Read &read = reads.at(i);
        const QList<QByteArray> argv = read.auxKey ? QList<QByteArray> { "EXISTS", read.auxKey(name) }
                                                   : QList<QByteArray> { "HEXISTS", name, read.field };
        connection->command(argv, join->track(into(&replies->marks[i])));
    }
    connection->uncork();
    join->seal(connection);
}

} // namespace LockScope
