#include "kinds/readwrite/rwlockscripts.h"

#include "kinds/acquirecheck.h"
#include "kinds/forceguard.h"

namespace LockScope::RwLockScripts {

#define LOCKSCOPE_LATCH_CHECK(key)                                                                                     \
    "local latched = redis.call('get', " key ") if latched then return tonumber(latched) end "

const RedisScript &acquireRead()
{
    // Readers are admitted whenever the mode is read, and a writer may take read holds (downgrade).
    static const RedisScript script(AcquireCheck::lua() + R"LUA(
local found = lockKindAt(KEYS[1], unpack(ARGV, 4))
if found ~= 'none' and found ~= 'readwrite' then
    return refuseKind(found)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    redis.call('hset', KEYS[1], 'mode', 'read', ARGV[2], 1)
    redis.call('set', KEYS[2] .. ':1', 1, 'px', ARGV[1])
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
if mode == 'read' or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
    local k = redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('set', KEYS[2] .. ':' .. k, 1, 'px', ARGV[1])
    redis.call('pexpire', KEYS[1], math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
    return nil
end
return redis.call('pttl', KEYS[1])
)LUA");
    return script;
}

const RedisScript &releaseRead()
{
    // The hash lives as long as the longest live reader's timeout key; dead readers (keys expired) do not count.
    static const RedisScript script(LOCKSCOPE_LATCH_CHECK("KEYS[5]") R"LUA(
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    for cmd in string.gmatch(ARGV[3], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
    redis.call('set', KEYS[5], 1, 'px', ARGV[4])
    return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[2], -1)
if left == 0 then
    redis.call('hdel', KEYS[1], ARGV[2])
end
redis.call('del', KEYS[3] .. ':' .. (left + 1))
if redis.call('hlen', KEYS[1]) > 1 then
    local longest = -3
    for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
        local count = tonumber(redis.call('hget', KEYS[1], field))
        if count then
            for i = count, 1, -1 do
                longest = math.max(longest, redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. i))
            end
        end
    end
    if longest > 0 then
        redis.call('pexpire', KEYS[1], longest)
        redis.call('set', KEYS[5], 0, 'px', ARGV[4])
        return 0
    end
    if mode == 'write' then
        redis.call('set', KEYS[5], 0, 'px', ARGV[4])
        return 0
    end
end
redis.call('del', KEYS[1])
for cmd in string.gmatch(ARGV[3], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
redis.call('set', KEYS[5], 1, 'px', ARGV[4])
return 1
)LUA");
    return script;
}

const RedisScript &acquireWrite()
{
    // Write reentry adds the lease to the remaining TTL, unlike RLock's reset.
    static const RedisScript script(AcquireCheck::lua() + R"LUA(
local found = lockKindAt(KEYS[1], unpack(ARGV, 3))
if found ~= 'none' and found ~= 'readwrite' then
    return refuseKind(found)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    redis.call('hset', KEYS[1], 'mode', 'write', ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
if mode == 'write' and redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], redis.call('pttl', KEYS[1]) + tonumber(ARGV[1]))
    return nil
end
return redis.call('pttl', KEYS[1])
)LUA");
    return script;
}

const RedisScript &releaseWrite()
{
    // The last write level leaves the lock in read mode when the writer still has read holds (downgrade).
    static const RedisScript script(LOCKSCOPE_LATCH_CHECK("KEYS[3]") R"LUA(
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    for cmd in string.gmatch(ARGV[4], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
    redis.call('set', KEYS[3], 1, 'px', ARGV[5])
    return nil
end
if mode ~= 'write' or redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    if tonumber(ARGV[2]) > 0 then
        redis.call('pexpire', KEYS[1], ARGV[2])
    end
    redis.call('set', KEYS[3], 0, 'px', ARGV[5])
    return 0
end
redis.call('hdel', KEYS[1], ARGV[3])
if redis.call('hlen', KEYS[1]) == 1 then
    redis.call('del', KEYS[1])
    for cmd in string.gmatch(ARGV[4], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
else
    redis.call('hset', KEYS[1], 'mode', 'read')
end
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
)LUA");
    return script;
}

const RedisScript &forceRelease()
{
    // ARGV [publishCmd, guard...] -> 1 deleted | 0 nothing there | -1 the guard failed, nothing changed
    static const RedisScript script(ForceGuardLua::function() + R"LUA(
local kt = redis.call('type', KEYS[1])['ok']
if kt ~= 'none' and kt ~= 'hash' then
    return redis.error_reply('WRONGTYPE the lock name holds a ' .. kt .. ', not a lock hash')
end
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    return 0
end
if not guardHolds(2) then
    return -1
end
redis.call('del', KEYS[1])
for cmd in string.gmatch(ARGV[1], '[^,]+') do redis.call(cmd, KEYS[2], mode == 'write' and '1' or '0') end
return 1
)LUA");
    return script;
}

#undef LOCKSCOPE_LATCH_CHECK

} // namespace LockScope::RwLockScripts
