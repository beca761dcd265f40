#pragma once

#include "redis/redisscript.h"

namespace LockScope::StringLockScripts {

// The single-key lock of redlock and redis-semaphore's mutex (docs/protocol/string.md): SET NX PX with a random
// token, given back only by compare-and-delete. Our Lua text; none of it publishes, as nobody listens.
// KEYS [N]; ARGV [token, leaseMs, aux keys...] -> 1 acquired | [token, its PTTL]; LOCKKIND <kind> on a Redisson lock
const RedisScript &acquire();
// KEYS [N]; ARGV [token] -> 1 deleted | the token found instead | nil (no lock)
const RedisScript &compareAndDelete();
// KEYS [N]; ARGV [token, leaseMs] -> 1 renewed | 0 not ours any more
const RedisScript &compareAndExpire();
// The lock client watchdog's batch: KEYS [N1..Nk]; ARGV [lease1, token1, "", ...] -> 1 | 0 each (lease 0: only check
// that the key still holds the token)
const RedisScript &renewBatch();

} // namespace LockScope::StringLockScripts
