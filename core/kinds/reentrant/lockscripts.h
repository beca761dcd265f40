#pragma once

#include "redis/redisscript.h"

namespace LockScope::LockScripts {

// Each script has the effects docs/protocol/reentrant.md describes; the Lua text is ours, so its SHA differs from
// Redisson's.
// Every acquire script first refuses a name that holds another kind of lock (AcquireCheck), writing nothing.
// KEYS [N]; ARGV [leaseMs, field, aux keys...] -> nil acquired | PTTL (-1: held with no TTL). The aux keys
// (AcquireCheck::auxKeys, all of them) are the tail of ARGV in every acquire script, for its kind check.
const RedisScript &acquire();
const RedisScript &release(); // KEYS [N, channel, latch]; ARGV ["0", leaseMs, field, publishCmd, latchTtlMs]
// KEYS [N, channel]; ARGV ["0", publishCmd, guard...] -> 1 deleted | 0 nothing there | -1 guard failed
const RedisScript &forceRelease();
// KEYS [N]; ARGV [leaseMs, guard...] -> 1 lease set | 0 nothing there | -1 guard failed | -2 already that long
const RedisScript &setLease();
// KEYS [N1..Nk]; ARGV [lease1, field1, readTimeoutPrefix1 or "", ...] -> array of 1 | 0 (lease 0: check only)
const RedisScript &renew();

} // namespace LockScope::LockScripts
