#include "kinds/semaphore/counterscripts.h"

// Lua that answers at once unless KEYS[1] holds an integer string, then has it in `count`.
#define LOCKSCOPE_COUNTER_CHECK                                                                                        \
    "local found = redis.call('type', KEYS[1])['ok']\n"                                                                \
    "if found == 'none' then return {-2, ''} end\n"                                                                    \
    "if found ~= 'string' then return {-3, found} end\n"                                                               \
    "local count = redis.call('get', KEYS[1])\n"                                                                       \
    "if not string.match(count, '^%-?%d+$') then return {-3, 'string'} end\n"

namespace LockScope::CounterScripts {

const RedisScript &addPermits()
{
    static const RedisScript script(LOCKSCOPE_COUNTER_CHECK R"LUA(
local now = redis.call('incrby', KEYS[1], ARGV[1])
for cmd in string.gmatch(ARGV[2], '[^,]+') do redis.call(cmd, KEYS[2], now) end
return {1, now}
)LUA");
    return script;
}

const RedisScript &releasePermit()
{
    static const RedisScript script(LOCKSCOPE_COUNTER_CHECK R"LUA(
local removed = redis.call('zrem', KEYS[3], ARGV[1])
if removed == 0 and ARGV[3] ~= '' then
    removed = redis.call('zrem', KEYS[3], ARGV[3])
end
if removed == 0 then
    return {0, count}
end
local now = redis.call('incrby', KEYS[1], 1)
for cmd in string.gmatch(ARGV[2], '[^,]+') do redis.call(cmd, KEYS[2], now) end
return {1, now}
)LUA");
    return script;
}

const RedisScript &open()
{
    static const RedisScript script(LOCKSCOPE_COUNTER_CHECK R"LUA(
if ARGV[1] ~= '' and count ~= ARGV[1] then
    return {-1, count}
end
redis.call('del', KEYS[1])
for cmd in string.gmatch(ARGV[2], '[^,]+') do redis.call(cmd, KEYS[2], '0') end
return {1, count}
)LUA");
    return script;
}

} // namespace LockScope::CounterScripts

#undef LOCKSCOPE_COUNTER_CHECK
