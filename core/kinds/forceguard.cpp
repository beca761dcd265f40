#include "kinds/forceguard.h"

namespace LockScope {

QList<QByteArray> ForceGuard::scriptArgs() const
{
    switch (kind) {
    case Kind::None:
        return { "" };
    case Kind::Owner:
        return { "owner", fields.value(0) };
    case Kind::Exact:
        return QList<QByteArray> { "exact" } + fields;
    }
    return { "" };
}

namespace ForceGuardLua {
// The read-write lock's "mode" field is state, not a holder, so it never counts.
const char *const function = R"LUA(
local function guardHolds(g)
    local kind = ARGV[g]
    if kind == nil or kind == '' then
        return true
    end
    if kind == 'owner' then
        return redis.call('hexists', KEYS[1], ARGV[g + 1]) == 1
    end
    local wanted, count = {}, 0
    for i = g + 1, #ARGV do
        wanted[ARGV[i]] = true
        count = count + 1
    end
    local seen = 0
    for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
        if field ~= 'mode' then
            if not wanted[field] then
                return false
            end
            seen = seen + 1
        end
    end
    return seen == count
end
)LUA";
} // namespace ForceGuardLua

} // namespace LockScope
