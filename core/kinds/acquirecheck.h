#pragma once

#include "kinds/locktypes.h"

#include <QList>

namespace LockScope {

class RedisValue;

// What every acquire script checks before it writes, and how its answers read. An acquire must never turn one kind
// of lock into another (docs/protocol/README.md#kind-check): a Java client of the kind Redis holds would then meet a
// layout it does not know, and two holders could follow. The check runs inside the acquire script, so nothing can
// change in between.
namespace AcquireCheck {

// Lua defining lockKindAt(n, aux...) and refuseKind(found), generated from the layouts' marks
// (HashRecognition::lua): the kind Redis holds under lock name n, and the error that refuses an acquire on it.
QByteArray lua();

// The aux keys lockKindAt reads, in the order it takes them (HashRecognition::auxKeys: today the fencing token, the
// fair queue and the fair timeout set; in N's slot unless the name holds a stray '{',
// docs/protocol/README.md#key-naming-and-hash-tags). Passed as script arguments where the script only reads them.
QList<QByteArray> auxKeys(const QByteArray &name);

// Our acquire scripts' answers: nil, or [token] for a fenced lock: acquired; an integer: not acquired, the holder's
// PTTL (-1: held with no TTL). Sets acquired, fencingToken and ttlMs; false for any other shape.
bool decode(const RedisValue &reply, AcquireResult *result);

// The refusals the scripts raise (codes LOCKKIND, LOCKTOKEN), as typed errors that say what Redis holds; any other
// error comes back unchanged. wanted: what the caller tried to take, as LockLayouts::wantedText() words it.
RedisError explain(const RedisError &error, const QByteArray &name, const QString &wanted);

} // namespace AcquireCheck

} // namespace LockScope
