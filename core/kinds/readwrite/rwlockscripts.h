#pragma once

#include "redis/redisscript.h"

namespace LockScope::RwLockScripts {

// The read-write lock's scripts, with the effects docs/protocol/readwrite.md describes (our Lua text).
// KEYS [N, timeoutPrefix]; ARGV [leaseMs, readerField, writerField, aux keys...] -> nil acquired | PTTL
const RedisScript &acquireRead();
// KEYS [N, channel, timeoutPrefix, keyPrefix, latch]; ARGV ["0", readerField, publishCmd, latchTtlMs]
const RedisScript &releaseRead();
// KEYS [N]; ARGV [leaseMs, writerField, aux keys...] -> nil acquired | PTTL
const RedisScript &acquireWrite();
// KEYS [N, channel, latch]; ARGV ["1", leaseMs, writerField, publishCmd, latchTtlMs]
const RedisScript &releaseWrite();
// KEYS [N, channel]; ARGV [publishCmd, guard...] -> 1 | 0 | -1 guard failed; "0" after read mode, "1" after write
const RedisScript &forceRelease();

} // namespace LockScope::RwLockScripts
