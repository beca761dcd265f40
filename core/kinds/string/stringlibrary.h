#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace LockScope {

class StringLockPatterns;

// What a force release does beyond the compare-and-delete, so that the waiters of the library that owns the lock wake
// as its own release would wake them (docs/protocol/libraries.md#waking-waiters).
struct StringWakeUps
{
    QList<QByteArray> signalLists; // python-redis-lock: DEL, LPUSH 1, PEXPIRE 1000 (one waiter per push)
    QList<QPair<QByteArray, QByteArray>> publishes; // channel, message (Spring's pub/sub registries)
    bool isEmpty() const { return signalLists.isEmpty() && publishes.isEmpty(); }
};

// One library that keeps a lock as a single string key: SET name token NX PX, given back by compare-and-delete. They
// share the string layout's scripts (kinds/string/) and differ in where their keys live, the shape of their tokens,
// what a token tells of its holder, and whom a release wakes. Each lives in its own folder of kinds/ and is listed in
// StringLibraries::all() (docs/protocol/libraries.md).
class StringLibrary
{
public:
    virtual ~StringLibrary() = default;

    // Its name in JSON ("library"), --layout-pattern, --library and the library filter: stable.
    virtual const char *id() const = 0;
    // The key patterns it writes with no configuration (a fixed prefix); empty for a library that takes the name as
    // the application gives it, whose names are declared (--layout-pattern LIBRARY=GLOB).
    virtual QList<QByteArray> defaultPatterns() const { return {}; }
    // Whether token has the shape this library draws (its fingerprint) ...
    virtual bool tokenFits(const QByteArray &token) const = 0;
    // ... and that shape in words, for the evidence (translated in the ClassifierText context).
    virtual const char *tokenShape() const = 0;
    // What the token tells of its holder (host, process, when it was taken), filled into holder.
    virtual void describeHolder(const QByteArray &token, LockHolder &holder) const
    {
        Q_UNUSED(token);
        Q_UNUSED(holder);
    }
    // The library takes locks without a TTL by default (redis-py, python-redis-lock): such a key is still a lock
    // when its name and token agree, shown with a warning that it never expires.
    virtual bool mayNeverExpire() const { return false; }
    // Its unlock may keep the key, cutting its TTL to what is left of a minimum hold (ShedLock's lockAtLeastFor): the
    // key's expiry after that is the lock's normal end, not a holder that died.
    virtual bool coolsDownAfterUnlock() const { return false; }
    // What its own release does to wake waiters, for a lock name (declaredGlob: the user's pattern that named it as
    // this library's, when one did).
    virtual void wakeUps(const QByteArray &name, const QByteArray &declaredGlob, StringWakeUps &out) const
    {
        Q_UNUSED(name);
        Q_UNUSED(declaredGlob);
        Q_UNUSED(out);
    }
};

// Token shapes several libraries share, for their fingerprints.
namespace TokenShape {
bool hex(const QByteArray &token, int length); // lowercase hex digits
bool base64(const QByteArray &token, int length, bool urlSafe); // exactly length characters of that alphabet
bool uuid(const QByteArray &token); // 8-4-4-4-12 hex, either case
bool alphanumeric(const QByteArray &token, int length);
} // namespace TokenShape

// Which library wrote a string lock, as far as its name and token say.
struct StringIdentity
{
    const StringLibrary *library = nullptr; // nullptr: a generic SET NX PX lock ("string")
    bool named = false; // its name is in one of library's patterns (a fixed prefix, or declared)
    bool declared = false; // the user declared its name as library's
    bool fits = false; // its token has library's shape
    QList<const StringLibrary *> others; // libraries the same shape fits as well (a bare UUID, 32 hex)
};

namespace StringLibraries {
// Every library that keeps string locks, most specific shape first: where shapes are shared, the earlier is named.
const QList<const StringLibrary *> &all();
const StringLibrary *byId(const QByteArray &id);
// Every library's default key patterns, in the registry's order.
QList<QByteArray> defaultPatterns();
// The library a string key most likely belongs to: a declared pattern first, then a fixed prefix whose token fits,
// then any token shape that fits (inside a string lock pattern, where names are the application's own).
StringIdentity identify(const QByteArray &name, const QByteArray &token, const QByteArray &declaredLibrary);
// What a force release of name must do to wake the waiters of every library it may belong to: the union, each part
// harmless to the others (a signal list that expires in a second, a message nobody else listens to).
StringWakeUps wakeUps(const QByteArray &name, const QByteArray &token, const StringLockPatterns &patterns);
} // namespace StringLibraries

} // namespace LockScope
