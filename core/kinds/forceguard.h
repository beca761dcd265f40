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

    static ForceGuard owner(const QByteArray &field) { return { Kind::Owner, { field } }; }
    static ForceGuard exact(QList<QByteArray> fields) { return { Kind::Exact, std::move(fields) }; }
    // The script arguments that encode it: a marker ("", "owner", "exact"), then the fields.
    QList<QByteArray> scriptArgs() const;
};

namespace ForceGuardLua {
// Lua defining guardHolds(g): true when the guard encoded from ARGV[g] on holds for hash KEYS[1].
extern const char *const function;
} // namespace ForceGuardLua

} // namespace LockScope
