#pragma once

#include "redis/redisscript.h"

namespace LockScope::FairLockScripts {

// The fair lock's scripts, with the effects docs/protocol/fair.md describes (our Lua text). Every script first
// purges stale heads (docs/protocol/fair.md#stale-purge): waiters at the front of the queue whose deadline (epoch ms,
// on the waiting client's clock) has passed.
// KEYS [N, queue, zset]; ARGV [leaseMs, field, waitMs, nowMs, aux keys...] -> nil acquired | ms to sleep (enqueues
// the caller)
const RedisScript &acquire();
// The no-wait form: the same, but never enqueues -> nil acquired | PTTL
const RedisScript &tryAcquire();
// A waiter gives up: KEYS [queue, zset]; ARGV [field, waitMs]
const RedisScript &giveUp();
// KEYS [N, queue, zset, channelBase, latch]; ARGV ["0", leaseMs, field, nowMs, publishCmd, latchTtlMs]
const RedisScript &release();
// KEYS [N, queue, zset, channelBase]; ARGV ["0", nowMs, publishCmd, guard...] -> 1 | 0 | -1 guard failed
const RedisScript &forceRelease();

// Queue repair: removes the named members as if each had given up, then tells the new head when the lock is free.
// KEYS [N, queue, zset, channelBase]; ARGV [publishCmd, member...] -> number removed
const RedisScript &removeWaiters();

} // namespace LockScope::FairLockScripts
