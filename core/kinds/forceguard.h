#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope {

// What must still be true for a force release to go ahead, checked inside the same script that deletes.
struct ForceGuard
{
    enum class Kind {
        None, // delete whoever holds it
        Owner, // only if this owner still holds it (lockscope-cli --expect-owner)
        Exact, // only if the holders are exactly these: what the person confirming was shown
    };
    Kind kind = Kind::None;
    QList<QByteArray> fields;
    // The layout the reading found, for a Redisson lock hash (its HashMark's id: "reentrant", "fair", ...): the
    // script refuses when the kind check finds another now (a waiter queued behind a lock shown as reentrant makes it
    // fair, whose release wakes the head of the queue instead). Several ids joined by '|' are each accepted (a fair
    // lock whose queue emptied is judged reentrant, and its script still fits). Empty: not checked (a layout without
    // a hash mark). With a layout, every holder's value must also still be a positive whole count (an application's
    // hash written over the name, keeping the holder's field, is refused).
    QByteArray layout;
    QList<QByteArray> auxKeys; // the kind check's aux keys for the lock (HashRecognition::auxKeys)

    static ForceGuard owner(const QByteArray &field) { return { Kind::Owner, { field }, {}, {} }; }
    static ForceGuard exact(QList<QByteArray> fields) { return { Kind::Exact, std::move(fields), {}, {} }; }
    // The same guard, also holding only while the kind check finds layout (with its aux keys).
    ForceGuard withLayout(const QByteArray &id, const QList<QByteArray> &aux) const;
    // The script arguments that encode it: with a layout, "layout=<id>", the number of aux keys and the keys; then a
    // marker ("", "owner", "exact") and the fields. Without one, only the marker and the fields (what a script that
    // reads the fields itself, such as a sorted set's, expects).
    QList<QByteArray> scriptArgs() const;
};

namespace ForceGuardLua {
// Lua defining guardHolds(g): true when the guard encoded from ARGV[g] on holds for hash KEYS[1] (with the kind check
// of kinds/hashrecognition.h, when it names a layout). A kind check that cannot read an aux key raises the check's own
// error (TRYAGAIN during a slot migration).
// Built on first use (from the layouts' marks), never during static initialisation.
QByteArray function();
} // namespace ForceGuardLua

} // namespace LockScope
