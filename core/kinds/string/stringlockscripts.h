#pragma once

#include "redis/redisscript.h"

namespace LockScope::StringLockScripts {

// The single-key lock of redlock and redis-semaphore's mutex (docs/protocol/string.md): SET NX PX with a random
// token, given back only by compare-and-delete. Our Lua text.
// KEYS [N]; ARGV [token, leaseMs, aux keys...] -> 1 acquired | [token, its PTTL]; LOCKKIND <kind> on a Redisson lock
const RedisScript &acquire();
// KEYS [N]; ARGV [token] -> 1 deleted | the token found instead | nil (no lock)
const RedisScript &compareAndDelete();
// The same, then the wake-ups of the library that owns it (docs/protocol/libraries.md#waking-waiters): each signal
// list is emptied, pushed one element and expires in a second (python-redis-lock); each channel hears its message
// (Spring). KEYS [N, signal lists...]; ARGV [token, channel1, message1, ...] -> as compareAndDelete
const RedisScript &compareDeleteAndWake();
// KEYS [N]; ARGV [token, leaseMs] -> 1 renewed | 0 not ours any more
const RedisScript &compareAndExpire();
// KEYS [N]; ARGV [leaseMs, token] -> 1 lease set | 0 nothing there | -1 another token | -2 already that long
const RedisScript &setLease();
// The lock client watchdog's batch: KEYS [N1..Nk]; ARGV [lease1, token1, "", ...] -> 1 | 0 each (lease 0: only check
// that the key still holds the token)
const RedisScript &renewBatch();

} // namespace LockScope::StringLockScripts
