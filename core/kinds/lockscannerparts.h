#pragma once

// What the scanner's files share (kinds/lockscanner.cpp reads keys, kinds/lockscanneraux.cpp reads what is beside
// lock hashes and classifies): internal to the scanner.
#include "kinds/lockclassifier.h"
#include "kinds/locknames.h"

#include <limits>

namespace LockScope::ScannerParts {

// Worth reading aux keys for: every field seen is an owner (a writer's included) or a read-write lock's "mode".
inline bool lockShaped(const KeySnapshot &s)
{
    bool anyOwner = false;
    for (const auto &field : s.fields) {
        const bool owner = isOwnerField(field.first) || field.first.endsWith(":write") || field.first.count(':') >= 2;
        if (!owner && field.first != "mode")
            return false;
        anyOwner = anyOwner || owner;
    }
    return anyOwner;
}

// A hash candidate of the hash cursor whose PTTL is not read yet: it is read with the aux keys, for the hashes that
// turned out worth it only (a walk's hashes are mostly user data).
constexpr qint64 kPttlUnread = std::numeric_limits<qint64>::min();

} // namespace LockScope::ScannerParts
