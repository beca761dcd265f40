#include "kinds/sortedset/sortedsetscripts.h"

namespace LockScope::SortedSetScripts {

// Both libraries' own releases: redis-semaphore ZREMs its member; Symfony ZREMs its token and the "__write__" marker
// (harmless to the other, which never writes one). The key's TTL is left as it is: Symfony would set it to the
// longest remaining expiry, which is never later than the TTL already there.
const RedisScript &release()
{
    static const RedisScript script(R"LUA(
if not redis.call('zscore', KEYS[1], ARGV[1]) then
    return nil
end
redis.call('zrem', KEYS[1], ARGV[1], '__write__')
return 1
)LUA");
    return script;
}

// The guard is the members the person saw (or the one named): those still there are released, each as its own release
// would, and members that came since stay. None of them left: nothing changes, and the answer lists who is there now.
const RedisScript &forceRelease()
{
    static const RedisScript script(R"LUA(
if redis.call('exists', KEYS[1]) == 0 then
    return 0
end
local present = {}
for i = 2, #ARGV do
    if redis.call('zscore', KEYS[1], ARGV[i]) then
        present[#present + 1] = ARGV[i]
    end
end
if #present == 0 then
    local now = {}
    for _, member in ipairs(redis.call('zrange', KEYS[1], 0, 99)) do
        if member ~= '__write__' then
            now[#now + 1] = member
        end
    end
    return now
end
for _, member in ipairs(present) do
    redis.call('zrem', KEYS[1], member)
end
redis.call('zrem', KEYS[1], '__write__')
return 1
)LUA");
    return script;
}

} // namespace LockScope::SortedSetScripts
