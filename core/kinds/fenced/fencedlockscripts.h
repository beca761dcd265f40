#pragma once

#include "redis/redisscript.h"

namespace LockScope::FencedLockScripts {

// A fenced lock is a reentrant lock hash whose every acquisition also draws the next token from a counter key; its
// release, force release and renewal are the reentrant lock's (kinds/reentrant/lockscripts.h).
// KEYS [N, tokenKey]; ARGV [leaseMs, field, aux keys...] -> [token] acquired | PTTL; error LOCKTOKEN <type> when
// the token key cannot count. The token key, written, is also a key; the kind check reads it from the aux keys.
const RedisScript &acquire();

} // namespace LockScope::FencedLockScripts
