#pragma once

#include "monitorraw.h"

namespace LockScope::Bench {

// Reference plans bench_list runs beside lockscope-cli list, as raw hiredis loops on the same keyspace.
struct PlanRun
{
    double wallMs = 0;
    double serverCpuMs = 0;
    qint64 candidates = 0; // lock-shaped hashes found
    qint64 calls = 0; // SCAN pages, or script calls
    // How long each call blocked the server (SLOWLOG, microseconds), and the same for the SCAN COUNT 1000 calls of a
    // bare walk measured right after: a server-side plan must not block longer per call than a SCAN does.
    double blockAvgUs = 0;
    double blockMaxUs = 0;
    double scanBlockAvgUs = 0;
    double scanBlockMaxUs = 0;
};

// The least any plan that reads from the client must send for the keyspace: the walk (SCAN COUNT 1000), a TYPE for
// every key, the first page of every hash (HSCAN key 0 COUNT 64), each page's commands pipelined. No PTTL, no aux key,
// no waiter count: list does all of that on top.
PlanRun typedWalk(RawPipe &raw);

// The server-side plan (Redis 7+): a read-only script per SCAN page (EVALSHA_RO) that asks each key's TYPE and returns
// only the lock-shaped hashes, with their first page of fields and their PTTL; count keys per call. It is let off
// lightly: it returns no string or sorted-set candidate, which a real plan would have to. With SLOWLOG on for the run.
PlanRun scriptWalk(RawPipe &raw, int count);

} // namespace LockScope::Bench
