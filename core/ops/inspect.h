#pragma once

#include "kinds/lockclassifier.h"
#include "kinds/locktypes.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace LockScope {

class LockClient;
class LockLayout;

// One lock as Redis holds it right now, read for a person about to act on it (a force release's prompt): its layout
// decided by the kind check of the moment, its holders and mode by that layout's own read, its lease.
struct LockNow
{
    RedisError error; // the read failed, or the name holds something that is no lock (a list, a counter, ...)
    QByteArray name;
    LockMode kind = LockMode::Reentrant;
    const LockLayout *layout = nullptr; // set unless error
    QList<LockHolder> holders; // empty: not locked
    QByteArray mode; // a read-write lock's "read" or "write"
    qint64 ttlMs = -2; // -1: no TTL
    // The connections subscribed to its release channel, plain and sharded (PUBSUB NUMSUB and SHARDNUMSUB): whom a
    // release would wake. -1: not counted (a layout without a channel, one whose waiters queue and listen each on a
    // channel of their own, or a read that failed).
    int listeners = -1;
    QList<QByteArray> owners() const;
};

namespace Ops {
// done runs later in the client's thread.
// action: what the reading is for; a name that is no lock is refused in its words ("acquire refused").
void inspect(LockClient *client, const QByteArray &name, std::function<void(const LockNow &)> done,
    LockAction action = LockAction::ForceRelease);
} // namespace Ops

} // namespace LockScope
