#pragma once

#include "kinds/locktypes.h"

#include <functional>

namespace LockScope {

class RedisCommander;

// What Redis says a lock is at this moment, read right before a release or force release so that the script that
// runs, and whom it wakes, never comes from an older snapshot (a monitor's last scan, a prompt read minutes ago).
struct LockKindProbe
{
    RedisError error; // the read failed, or the name holds something that is no lock (WRONGTYPE ..., naming it)
    QByteArray type; // TYPE of the lock name: "hash", "none", "string", ...
    // For a hash, or a name with nothing there: the release script to run. A read-write lock (a "mode" field) is
    // released as Write for an owner ending in ":write", else as Read; a fair queue or deadline set makes it Fair;
    // a fencing token Fenced (released as Reentrant, which it is underneath).
    LockMode kind = LockMode::Reentrant;
    // A string (SET NX PX) lock: error names it for callers that only take lock hashes.
    bool stringLock() const { return type == "string"; }
    // Holds kept in a sorted set (kinds/sortedset/): the same.
    bool sortedSet() const { return type == "zset"; }
    // A release or force release acts on whatever layout the lock has: a string lock is given back by the
    // compare-and-delete of its token, a sorted set's hold by the ZREM of its member, so they are no error for them.
    RedisError actionError() const { return stringLock() || sortedSet() ? RedisError() : error; }
    LockMode actionMode() const { return stringLock() ? LockMode::String : sortedSet() ? LockMode::SortedSet : kind; }
};

namespace LockKindProber {
// One pipeline: TYPE of name and the reads of the layouts' marks (HashRecognition::reads: the hash's mode field,
// whether the fencing token, the fair queue and its deadline set exist; docs/protocol/README.md#kind-check), judged
// as the acquire scripts' kind check and the classifier judge them. owner: the field to release (empty for a force
// release). done runs later.
void probe(RedisCommander *connection, const QByteArray &name, const QByteArray &owner,
    std::function<void(const LockKindProbe &)> done);
// Only the decision, from the replies: type, and whether each of HashRecognition::reads() holds.
LockKindProbe decide(const QByteArray &type, const QList<bool> &marks, const QByteArray &owner);
} // namespace LockKindProber

} // namespace LockScope
