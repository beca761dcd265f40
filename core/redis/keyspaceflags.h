#pragma once

#include <QByteArray>

// The keyspace notifications a lock monitor follows: the classes of every lock layout's writes (h hash, $ string,
// z sorted set, g generic such as DEL and EXPIRE, x expired), under K (keyspace channels). Shared by the monitor that
// reads the setting and the operation that changes it.
namespace LockScope::KeyspaceFlags {

inline QByteArray lockEventClasses()
{
    return QByteArrayLiteral("h$zgx");
}

// flags with K and every lock event class added; A stands for every class but K, E, m and n.
inline QByteArray withLockEvents(QByteArray flags)
{
    for (char c : QByteArray("K") + lockEventClasses())
        if (!flags.contains(c) && !(c != 'K' && flags.contains('A')))
            flags += c;
    return flags;
}

} // namespace LockScope::KeyspaceFlags
