#pragma once

#include "kinds/locktypes.h"

#include <QByteArray>
#include <QList>

namespace LockScope {

class LockLayout;
struct HashReading;
struct KeySnapshot;

// What tells a Redisson lock hash of one layout apart from the others' (docs/protocol/classification.md): a field of
// the hash itself ("mode"), or aux keys any of which exists (a fencing token, a fair queue). A layout answers its
// mark (LockLayout::hashMark); this reads every layout's, in rank order, and is the one judgement that the kind check
// every acquire script runs first (its Lua is generated here), the probe before a release or force release and the
// classifier all make, so they cannot disagree about what a name holds.
struct HashMark
{
    int rank = 0; // tried in rising rank: the first mark a hash has names its layout
    QByteArray field; // the hash has this field; or
    QList<QByteArray (*)(const QByteArray &name)> auxKeys; // any of these keys exists; or, with neither: any hash
    // The same mark judged from what discovery read of a candidate (its fields, its aux reads); nullptr: any hash.
    bool (*seen)(const KeySnapshot &key, const HashReading &hash) = nullptr;
    // What an acquire refused on such a lock says it is ("a fenced lock (its fencing token key %1 exists)"),
    // translated in the AcquireCheck context (QT_TRANSLATE_NOOP); %1, %2, ... are auxKeys of the name, in order.
    const char *found = nullptr;
};

namespace HashRecognition {

// One read the judgement needs: a field of the lock hash (HEXISTS), or one aux key (EXISTS).
struct Read
{
    QByteArray field; // empty: an aux key
    QByteArray (*auxKey)(const QByteArray &name) = nullptr;
};
// Every read, in the order the judgement takes them (marks in rank order, each mark's own reads in order).
const QList<Read> &reads();
// The aux keys the reads name for lock name: what the acquire scripts pass to lockKindAt, in this order, as the tail
// of their ARGV (lockKindAt(KEYS[1], unpack(ARGV, first))), so that a new mark's aux key needs no script edit.
QList<QByteArray> auxKeys(const QByteArray &name);
// The mark of the lock hash layout whose id is id (what lockKindAt answers for it), or nullptr: no such layout.
const HashMark *markOf(const QByteArray &id);

// The layout of a lock hash from the reads' answers (marks[i]: reads()[i] holds), or nullptr for none at all
// (type "none"). type: TYPE's answer; anything but "hash" and "none" is no lock hash (nullptr, and *notAHash set).
const LockLayout *decide(const QByteArray &type, const QList<bool> &marks, bool *notAHash = nullptr);

// The layout of a lock hash discovery read (the classifier's choice among the lock hash layouts).
const LockLayout *classify(const KeySnapshot &key, const HashReading &hash);

// Lua defining lockKindAt(n, aux...): the kind Redis holds under lock name n, read from n and the aux keys passed
// (auxKeys' order; missing ones are not read: a script passes them all as its ARGV's tail, or none at all): 'none', a
// layout's id ('reentrant' for a lock hash with no mark, which is also an idle fair lock), 'unreadable' (an aux key
// could not be read: on another cluster node during a migration, or denied by an ACL), or the Redis type of a key that
// is not a hash ('string', 'list', ...). And refuseKind(found): the error reply that refuses an acquire on it (code
// LOCKKIND and the layout's id, WRONGTYPE for a type, TRYAGAIN while migrating, else the read's own error).
QByteArray lua();

} // namespace HashRecognition

} // namespace LockScope
