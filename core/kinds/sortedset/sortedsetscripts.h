#pragma once

#include "redis/redisscript.h"

namespace LockScope::SortedSetScripts {
// KEYS [N]; ARGV [member] -> 1 removed | nil not a member.
const RedisScript &release();
// KEYS [N]; ARGV [guard marker, members...] -> 1 removed | 0 no set | the members now (up to 100) when the guard
// failed.
const RedisScript &forceRelease();
} // namespace LockScope::SortedSetScripts
