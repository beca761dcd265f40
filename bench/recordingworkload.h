#pragma once

// The rows bench_recording and bench_recording_postgres record: the same workload, so their figures compare.
#include "monitor/lockrecord.h"

namespace LockScope::Bench {

// The i-th event of a workload over `locks` locks: each lock acquired, renewed eight times, released, by one of a
// handful of owners per lock, as a fleet of watchdogs makes them (a release is seen before the next acquire).
inline LockEvent eventAt(qint64 i, int locks, qint64 timeMs)
{
    LockEvent e;
    const qint64 lock = i % locks, round = i / locks;
    const int step = int((round + lock) % 10); // the locks out of step: at any moment most are held
    e.timeMs = timeMs;
    e.name = "bench:rec:orders:" + QByteArray::number(lock);
    e.owner = "6e3d30b7-83b1-433a-9335-" + QByteArray::number(100000000000 + ((round + lock) / 10) % 7) + ':'
        + QByteArray::number(lock % 97);
    e.type = step == 0 ? LockEvent::Type::Acquired : step == 9 ? LockEvent::Type::Released : LockEvent::Type::Renewed;
    e.count = step == 9 ? 0 : 1;
    e.ttlMs = step == 9 ? -2 : 30000;
    return e;
}

} // namespace LockScope::Bench
