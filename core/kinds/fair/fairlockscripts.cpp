#include "kinds/fair/fairlockscripts.h"

#include "kinds/acquirecheck.h"
#include "kinds/forceguard.h"

namespace LockScope::FairLockScripts {

// Stale heads go first: a waiter that died keeps everyone behind it out until its own deadline passes.
#define LOCKSCOPE_PURGE(now)                                                                                           \
    "while true do "                                                                                                   \
    "local head = redis.call('lindex', KEYS[2], 0) "                                                                   \
    "if head == false then break end "                                                                                 \
    "local deadline = redis.call('zscore', KEYS[3], head) "                                                            \
    "if deadline == false or tonumber(deadline) > tonumber(" now ") then break end "                                   \
    "redis.call('zrem', KEYS[3], head) "                                                                               \
    "redis.call('lpop', KEYS[2]) "                                                                                     \
    "end "

// Before the purge, the first write: a held lock with no queue is a fair lock with nobody waiting.
#define LOCKSCOPE_KIND_CHECK                                                                                           \
    "local found = lockKindAt(KEYS[1], unpack(ARGV, 5)) "                                                              \
    "if found ~= 'none' and found ~= 'reentrant' and found ~= 'fair' then return refuseKind(found) end "

// Free and either nobody queued or the caller at the head: take it, and everyone behind waits `wait` less.
#define LOCKSCOPE_TAKE_OR_REENTER                                                                                      \
    "if redis.call('exists', KEYS[1]) == 0 and (redis.call('exists', KEYS[2]) == 0 "                                   \
    "or redis.call('lindex', KEYS[2], 0) == ARGV[2]) then "                                                            \
    "redis.call('lpop', KEYS[2]) "                                                                                     \
    "redis.call('zrem', KEYS[3], ARGV[2]) "                                                                            \
    "for _, member in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do "                                                \
    "redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), member) end "                                                  \
    "redis.call('hset', KEYS[1], ARGV[2], 1) "                                                                         \
    "redis.call('pexpire', KEYS[1], ARGV[1]) "                                                                         \
    "return nil end "                                                                                                  \
    "if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then "                                                            \
    "redis.call('hincrby', KEYS[1], ARGV[2], 1) "                                                                      \
    "redis.call('pexpire', KEYS[1], ARGV[1]) "                                                                         \
    "return nil end "

const RedisScript &acquire()
{
    static const RedisScript script(
        AcquireCheck::lua() + LOCKSCOPE_KIND_CHECK LOCKSCOPE_PURGE("ARGV[4]") LOCKSCOPE_TAKE_OR_REENTER R"LUA(
local mine = redis.call('zscore', KEYS[3], ARGV[2])
if mine ~= false then
    -- Already queued: sleep while the lock is held, else until the one ahead of us would time out.
    local ttl = redis.call('pttl', KEYS[1])
    if ttl > 0 then
        return ttl
    end
    return math.max(0, tonumber(mine) - tonumber(ARGV[3]) - tonumber(ARGV[4]))
end
local tail = redis.call('lindex', KEYS[2], -1)
local base
if tail ~= false and tail ~= ARGV[2] and redis.call('zscore', KEYS[3], tail) ~= false then
    base = tonumber(redis.call('zscore', KEYS[3], tail)) - tonumber(ARGV[4])
else
    base = redis.call('pttl', KEYS[1])
end
if redis.call('zadd', KEYS[3], base + tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[2]) == 1 then
    redis.call('rpush', KEYS[2], ARGV[2])
end
return base
)LUA");
    return script;
}

const RedisScript &tryAcquire()
{
    static const RedisScript script(
        AcquireCheck::lua() + LOCKSCOPE_KIND_CHECK LOCKSCOPE_PURGE("ARGV[4]") LOCKSCOPE_TAKE_OR_REENTER R"LUA(
return redis.call('pttl', KEYS[1])
)LUA");
    return script;
}

const RedisScript &giveUp()
{
    // Everyone behind the leaver moves up by one wait, as Redisson shifts them.
    static const RedisScript script(R"LUA(
local behind = false
for _, member in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
    if behind then
        redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), member)
    elseif member == ARGV[1] then
        behind = true
    end
end
redis.call('zrem', KEYS[2], ARGV[1])
redis.call('lrem', KEYS[1], 0, ARGV[1])
return behind and 1 or 0
)LUA");
    return script;
}

const RedisScript &release()
{
    // The lock is not handed over: the head is told, and still has to win its own acquire.
    static const RedisScript script(
        "local latched = redis.call('get', KEYS[5]) if latched then return tonumber(latched) end " LOCKSCOPE_PURGE(
            "ARGV[4]") R"LUA(
local function notifyHead()
    local head = redis.call('lindex', KEYS[2], 0)
    if head ~= false then
        for cmd in string.gmatch(ARGV[5], '[^,]+') do redis.call(cmd, KEYS[4] .. ':' .. head, ARGV[1]) end
    end
end
if redis.call('exists', KEYS[1]) == 0 then
    notifyHead()
    redis.call('set', KEYS[5], 1, 'px', ARGV[6])
    return 1
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    if tonumber(ARGV[2]) > 0 then
        redis.call('pexpire', KEYS[1], ARGV[2])
    end
    redis.call('set', KEYS[5], 0, 'px', ARGV[6])
    return 0
end
redis.call('del', KEYS[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[6])
notifyHead()
return 1
)LUA");
    return script;
}

const RedisScript &forceRelease()
{
    // ARGV ["0", nowMs, publishCmd, guard...] -> 1 deleted | 0 nothing there | -1 the guard failed
    static const RedisScript script(ForceGuardLua::function() + R"LUA(
local kt = redis.call('type', KEYS[1])['ok']
if kt ~= 'none' and kt ~= 'hash' then
    return redis.error_reply('WRONGTYPE the lock name holds a ' .. kt .. ', not a lock hash')
end
)LUA" LOCKSCOPE_PURGE("ARGV[2]") R"LUA(
if redis.call('exists', KEYS[1]) == 0 then
    return 0
end
if not guardHolds(4) then
    return -1
end
redis.call('del', KEYS[1])
local head = redis.call('lindex', KEYS[2], 0)
if head ~= false then
    for cmd in string.gmatch(ARGV[3], '[^,]+') do redis.call(cmd, KEYS[4] .. ':' .. head, ARGV[1]) end
end
return 1
)LUA");
    return script;
}

const RedisScript &removeWaiters()
{
    // Redisson shifts everyone behind a leaver by the leaver's wait. For a member queued behind another, that wait
    // is its deadline minus its predecessor's, the only part Redis still knows; a head's own wait is not recorded
    // anywhere, so removing a head shifts nothing, exactly like the stale-head purge.
    static const RedisScript script(R"LUA(
local doomed = {}
for i = 2, #ARGV do
    doomed[ARGV[i]] = true
end
local shift, removed, previous = 0, 0, nil
for _, member in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do
    local score = redis.call('zscore', KEYS[3], member)
    score = score and tonumber(score) or nil
    if doomed[member] then
        if previous and score then
            shift = shift + (score - previous)
        end
        redis.call('zrem', KEYS[3], member)
        redis.call('lrem', KEYS[2], 0, member)
        removed = removed + 1
    elseif score and shift > 0 then
        redis.call('zincrby', KEYS[3], -shift, member)
    end
    if score then
        previous = score
    end
end
if removed > 0 and redis.call('exists', KEYS[1]) == 0 then
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        for cmd in string.gmatch(ARGV[1], '[^,]+') do redis.call(cmd, KEYS[4] .. ':' .. head, '0') end
    end
end
return removed
)LUA");
    return script;
}

#undef LOCKSCOPE_PURGE
#undef LOCKSCOPE_TAKE_OR_REENTER
#undef LOCKSCOPE_KIND_CHECK

} // namespace LockScope::FairLockScripts
