// Events and lock reads the statistics tests feed the engine (no Redis, times given).
#pragma once

#include "stats/lockstatistics.h"

namespace LockScope::Test {

inline LockEvent ev(LockEvent::Type type, const QByteArray &name, const QByteArray &owner, qint64 at, qint64 count = 1)
{
    LockEvent e;
    e.type = type;
    e.name = name;
    e.owner = owner;
    e.timeMs = at;
    e.count = type == LockEvent::Type::Acquired || type == LockEvent::Type::Reentered ? count : 0;
    return e;
}

inline LockInfo lockInfo(const QByteArray &name, int holders, int waiters)
{
    LockInfo info;
    info.name = name;
    info.kind = LockInfo::Kind::Reentrant;
    info.library = "redisson";
    for (int i = 0; i < holders; ++i) {
        LockHolder h;
        h.owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:" + QByteArray::number(i);
        info.holders << h;
    }
    info.waiters = waiters;
    return info;
}

inline const QByteArray ownerA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
inline const QByteArray ownerB = "0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6:7";

} // namespace LockScope::Test
