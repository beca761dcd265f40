#pragma once

#include "redis/redisscript.h"

// The scripts of the actions on Redisson's semaphores and latches (docs/protocol/semaphores.md#actions). Each first
// checks that N still holds an integer string, so that no action turns some other key into a counter, and answers
// {status, value}: 1 done (value: the count now, or for open the count it had), 0 a permit that is not taken, -1
// open's guard failed (value: the count now), -2 nothing there, -3 not a counter (value: the type found).
namespace LockScope::CounterScripts {
// KEYS [N, redisson_sc:{N}]; ARGV [permits, publishCmd]: INCRBY, then the new count published, as Redisson's own
// release and addPermits do.
const RedisScript &addPermits();
// KEYS [N, redisson_sc:{N}, {N}:timeout]; ARGV [permit id as text, publishCmd, its 16 bytes or ""]: the member the
// text is, or else the one the bytes are, leaves the set and its permit is free again, the count now published on
// the channel as Redisson's own release of it does.
const RedisScript &releasePermit();
// KEYS [N, redisson_countdownlatch__channel__{N}]; ARGV [count shown or "", publishCmd]: deletes N while it still
// holds the count shown and publishes "0", which every waiter of the latch takes as "opened".
const RedisScript &open();
} // namespace LockScope::CounterScripts
