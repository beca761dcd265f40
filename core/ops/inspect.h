#pragma once

#include "kinds/lockclassifier.h"
#include "kinds/locktypes.h"

#include <QByteArray>
#include <QList>

#include <functional>
#include <optional>

namespace LockScope {

class LockClient;
class LockLayout;

// One reading of a name, the only one an action makes before it writes (docs/design.md#the-write-path): what list and
// show would say is there (LockAtName::read: the scanner's reads and the classifier), and so the layout whose script
// the action runs, the holders its guard compares against and the listeners it wakes. A person about to act is shown
// this reading, and the action then runs on it, not on a newer one: what changed since is for the script's guard to
// refuse.
struct LockNow
{
    RedisError error; // the read failed, or what is there is no lock the action applies to (the reason show gives)
    QByteArray name;
    std::optional<LockInfo> lock; // as list shows it; none: nothing there (or error)
    const LockLayout *layout = nullptr; // the lock's layout; nullptr: nothing there (or error)
    QList<LockHolder> holders; // empty: not locked
    QByteArray mode; // a read-write lock's "read" or "write"
    qint64 ttlMs = -2; // -1: no TTL
    // The connections subscribed to its release channel, plain and sharded (PUBSUB NUMSUB and SHARDNUMSUB), this
    // process's own aside: whom a release would wake. -1: not counted (a layout without a channel, one whose waiters
    // queue and listen each on a channel of their own, or a read that was denied).
    int listeners = -1;
    QList<QByteArray> owners() const;
    // The script a release of owner's hold runs as, and a force release's (owner empty): the layout's, from this
    // reading (a read-write lock's write owners end in ":write"). Nothing there: the reentrant lock's, whose script
    // then finds nothing to change.
    LockMode actionMode(const QByteArray &owner = {}) const;
};

namespace Ops {
// done runs later in the client's thread. action: what the reading is for; what it does not apply to is refused in
// its words ("user:42 is not a lock (it holds a hash); force-release refused, nothing changed"), and a bad name before
// anything is sent.
void inspect(LockClient *client, const QByteArray &name, std::function<void(const LockNow &)> done,
    LockAction action = LockAction::ForceRelease);
// The same judgement of a lock a pass over many found (a scan's LockInfo): that pass is its reading.
LockNow readingOf(const LockInfo &lock, const LockClient &client, LockAction action);
} // namespace Ops

} // namespace LockScope
