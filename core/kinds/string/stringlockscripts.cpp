#include "kinds/string/stringlockscripts.h"

#include "kinds/acquirecheck.h"

namespace LockScope::StringLockScripts {

// SET NX PX, only where Redis holds no other kind of lock: a Redisson lock hash, or an idle fenced or fair lock's
// aux keys, is refused (LOCKKIND). KEYS [N]; ARGV [token, leaseMs, aux keys...] -> 1 acquired | [token, its PTTL]
const RedisScript &acquire()
{
    static const RedisScript script(AcquireCheck::lua() + R"LUA(
local found = lockKindAt(KEYS[1], unpack(ARGV, 3))
if found == 'none' or found == 'string' then
    if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
        return 1
    end
    return {redis.call('get', KEYS[1]), redis.call('pttl', KEYS[1])}
end
if found == 'unreadable' then
    return refuseKind(found)
end
return redis.error_reply('LOCKKIND ' .. found)
)LUA");
    return script;
}

// Returns the token found when it is not ours (false: no lock), 1 when deleted: one round trip says both.
const RedisScript &compareAndDelete()
{
    static const RedisScript script(R"LUA(
local v = redis.call('get', KEYS[1])
if v == ARGV[1] then
    redis.call('del', KEYS[1])
    return 1
end
return v
)LUA");
    return script;
}

const RedisScript &setLease()
{
    static const RedisScript script(R"LUA(
local v = redis.call('get', KEYS[1])
if not v then
    return 0
end
if v ~= ARGV[2] then
    return -1
end
if redis.call('pttl', KEYS[1]) >= tonumber(ARGV[1]) then
    return -2
end
redis.call('pexpire', KEYS[1], ARGV[1])
return 1
)LUA");
    return script;
}

const RedisScript &compareDeleteAndWake()
{
    static const RedisScript script(R"LUA(
local v = redis.call('get', KEYS[1])
if v ~= ARGV[1] then
    return v
end
redis.call('del', KEYS[1])
for i = 2, #KEYS do
    redis.call('del', KEYS[i])
    redis.call('lpush', KEYS[i], 1)
    redis.call('pexpire', KEYS[i], 1000)
end
for i = 2, #ARGV - 1, 2 do
    redis.call('publish', ARGV[i], ARGV[i + 1])
end
return 1
)LUA");
    return script;
}

const RedisScript &compareAndExpire()
{
    static const RedisScript script(R"LUA(
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
)LUA");
    return script;
}

const RedisScript &renewBatch()
{
    // TYPE first: GET on a key that became another type would fail the whole batch.
    static const RedisScript script(R"LUA(
local out = {}
for i = 1, #KEYS do
    local lease = tonumber(ARGV[3 * i - 2])
    out[i] = 0
    if redis.call('type', KEYS[i])['ok'] == 'string' and redis.call('get', KEYS[i]) == ARGV[3 * i - 1] then
        if lease > 0 then
            redis.call('pexpire', KEYS[i], lease)
        end
        out[i] = 1
    end
end
return out
)LUA");
    return script;
}

} // namespace LockScope::StringLockScripts
