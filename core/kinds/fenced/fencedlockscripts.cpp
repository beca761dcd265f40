#include "kinds/fenced/fencedlockscripts.h"

#include "kinds/acquirecheck.h"

namespace LockScope::FencedLockScripts {

const RedisScript &acquire()
{
    // Every successful acquire draws a token, reentry included, as Redisson's FencedLock does. The token is drawn
    // first: a counter that cannot count fails the script before the hash is touched (Redis never rolls back).
    static const RedisScript script(AcquireCheck::lua() + R"LUA(
local found = lockKindAt(KEYS[1], unpack(ARGV, 3))
if found ~= 'none' and found ~= 'fenced' then
    return refuseKind(found)
end
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    local tokenType = redis.call('type', KEYS[2])['ok']
    if tokenType ~= 'none' and tokenType ~= 'string' then
        return redis.error_reply('LOCKTOKEN ' .. tokenType)
    end
    local token = redis.pcall('incr', KEYS[2])
    if type(token) ~= 'number' then
        return redis.error_reply('LOCKTOKEN string')
    end
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return {token}
end
return redis.call('pttl', KEYS[1])
)LUA");
    return script;
}

} // namespace LockScope::FencedLockScripts
