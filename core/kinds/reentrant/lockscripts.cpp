#include "kinds/reentrant/lockscripts.h"

#include "kinds/acquirecheck.h"
#include "kinds/forceguard.h"

namespace LockScope::LockScripts {

// A lock name that already holds a string, list or set (Redisson #5565) must fail loudly and change nothing; a
// force release would otherwise DEL the application's data.
#define LOCKSCOPE_REFUSE_NON_HASH(key)                                                                                 \
    "local kt = redis.call('type', " key ")['ok'] "                                                                    \
    "if kt ~= 'none' and kt ~= 'hash' then "                                                                           \
    "return redis.error_reply('WRONGTYPE the lock name holds a ' .. kt .. ', not a lock hash') end "

const RedisScript &acquire()
{
    // The kind check comes first (and fails WRONGTYPE on a non-hash) before anything is written.
    static const RedisScript script(AcquireCheck::lua() + R"LUA(
local found = lockKindAt(KEYS[1], unpack(ARGV, 3))
if found ~= 'none' and found ~= 'reentrant' then
    return refuseKind(found)
end
if found == 'none' or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
)LUA");
    return script;
}

const RedisScript &release()
{
    static const RedisScript script(R"LUA(
local latched = redis.call('get', KEYS[3])
if latched then
    return tonumber(latched)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
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
redis.call('del', KEYS[1])
for cmd in string.gmatch(ARGV[4], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
)LUA");
    return script;
}

const RedisScript &forceRelease()
{
    // ARGV ["0", publishCmd, guard...] -> 1 deleted | 0 nothing there | -1 the guard failed, nothing changed
    static const RedisScript script(ForceGuardLua::function() + LOCKSCOPE_REFUSE_NON_HASH("KEYS[1]") R"LUA(
if redis.call('exists', KEYS[1]) == 0 then
    return 0
end
if not guardHolds(3) then
    return -1
end
redis.call('del', KEYS[1])
for cmd in string.gmatch(ARGV[2], '[^,]+') do redis.call(cmd, KEYS[2], ARGV[1]) end
return 1
)LUA");
    return script;
}

const RedisScript &setLease()
{
    // The same guard as a force release's: the holders (and kind) shown. Never shortens: a lease running out sooner
    // than its holder expects breaks the exclusion it relies on.
    static const RedisScript script(ForceGuardLua::function() + LOCKSCOPE_REFUSE_NON_HASH("KEYS[1]") R"LUA(
if redis.call('exists', KEYS[1]) == 0 then
    return 0
end
if not guardHolds(2) then
    return -1
end
local ttl = redis.call('pttl', KEYS[1])
if ttl >= tonumber(ARGV[1]) then
    return -2
end
redis.call('pexpire', KEYS[1], ARGV[1])
return 1
)LUA");
    return script;
}

const RedisScript &renew()
{
    // A read hold also keeps its own timeout keys alive (Redisson 4.4+: only this reader's, never others').
    static const RedisScript script(R"LUA(
local out = {}
for i = 1, #KEYS do
    local lease = tonumber(ARGV[3 * i - 2])
    local field = ARGV[3 * i - 1]
    local timeouts = ARGV[3 * i]
    out[i] = 0
    if redis.call('type', KEYS[i])['ok'] == 'hash' and redis.call('hexists', KEYS[i], field) == 1 then
        if lease > 0 then
            if timeouts ~= '' then
                local count = tonumber(redis.call('hget', KEYS[i], field)) or 0
                for k = count, 1, -1 do
                    redis.call('pexpire', timeouts .. ':' .. k, lease)
                end
            end
            redis.call('pexpire', KEYS[i], lease)
        end
        out[i] = 1
    end
end
return out
)LUA");
    return script;
}

#undef LOCKSCOPE_REFUSE_NON_HASH

} // namespace LockScope::LockScripts
