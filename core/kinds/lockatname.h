#pragma once

#include "base/rediserror.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "kinds/locktypes.h"

#include <QByteArray>

#include <functional>
#include <optional>

namespace LockScope {

class RedisCommander;

// One name as show and list judge it right now: the scanner's reads and the classifier, nothing of its own.
struct NameReading
{
    RedisError error; // the read itself failed
    QByteArray name;
    std::optional<LockInfo> lock; // as it would be listed; empty: no lock is there
    QByteArray type; // TYPE's answer, read when no lock is there, to say what is there instead ("none": nothing)
    bool integer = false; // a string holding an integer (a Redisson counter nobody waits on looks so)
};

namespace LockAtName {
struct Options
{
    StringLockPatterns patterns;
    bool shardWaiters = false; // count the listeners on the shard channel too (PUBSUB SHARDNUMSUB; Redis 7)
};
// Reads name with the same reads and classification as list and show (LockScanner::readKeys), then, when no lock
// is there, its TYPE. done runs later in connection's thread.
void read(RedisCommander *connection, const QByteArray &name, const StringLockPatterns &patterns,
    std::function<void(const NameReading &)> done);
void read(RedisCommander *connection, const QByteArray &name, const Options &options,
    std::function<void(const NameReading &)> done);
// Why what is at name is not listed as a lock, as show says it: "user:42 is not a lock (it holds a hash)".
// integer: the string holds an integer, which may be a Redisson counter nobody waits on: the text names the option
// that declares it.
QString notALockText(
    const QByteArray &name, const QByteArray &type, const StringLockPatterns &patterns, bool integer = false);
// The same, for a name a scan did not list: reads its TYPE. done gets the text, or the read's error as text.
void explainNotALock(RedisCommander *connection, const QByteArray &name, const StringLockPatterns &patterns,
    std::function<void(const QString &why)> done);
// The refusal of action on what reading found: the read's own error; what is there is no lock (its reason, as
// above); or it is a lock of a layout that action does not apply to. Empty when action may run: a lock of a layout
// that allows it, or nothing at all there (the action's own script then finds nothing to change). Every refusal is
// a KindMismatch error: nothing was written.
RedisError refusal(const NameReading &reading, LockAction action, const StringLockPatterns &patterns);
// The action's word in messages and the audit log: "release", "force-release", "add-permits", ...
QString actionName(LockAction action);
} // namespace LockAtName

} // namespace LockScope
