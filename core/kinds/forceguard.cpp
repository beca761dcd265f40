#include "kinds/forceguard.h"

#include "kinds/hashrecognition.h"

namespace LockScope {

ForceGuard ForceGuard::withLayout(const QByteArray &id, const QList<QByteArray> &aux) const
{
    ForceGuard g = *this;
    g.layout = id;
    g.auxKeys = aux;
    return g;
}

QList<QByteArray> ForceGuard::scriptArgs() const
{
    QList<QByteArray> args;
    if (!layout.isEmpty())
        args << "layout=" + layout << QByteArray::number(auxKeys.size()) << auxKeys;
    switch (kind) {
    case Kind::None:
        return args << "";
    case Kind::Owner:
        return args << "owner" << fields.value(0);
    case Kind::Exact:
        return args << "exact" << fields;
    }
    return args << "";
}

namespace ForceGuardLua {
// The read-write lock's "mode" field is state, not a holder, so it never counts.
QByteArray function()
{
    static const QByteArray text = HashRecognition::lua() + R"LUA(
local function guardHolds(g)
    local kind = ARGV[g]
    if kind ~= nil and string.sub(kind, 1, 7) == 'layout=' then
        local n = tonumber(ARGV[g + 1])
        local found = lockKindAt(KEYS[1], unpack(ARGV, g + 2, g + 1 + n))
        if found == 'unreadable' then
            error(refuseKind(found))
        end
        local accepted = false
        for id in string.gmatch(string.sub(kind, 8), '[^|]+') do
            accepted = accepted or id == found
        end
        if found ~= 'none' and not accepted then
            return false
        end
        -- Still lock-shaped: every holder's value a positive whole count, as Redisson writes it. A hash an application
        -- wrote over the name may keep the holder's field with a value of its own; it is data, and stays.
        local all = redis.call('hgetall', KEYS[1])
        for i = 1, #all, 2 do
            if all[i] ~= 'mode' then
                local count = tonumber(all[i + 1])
                if count == nil or count < 1 or count ~= math.floor(count) then
                    return false
                end
            end
        end
        g = g + 2 + n
        kind = ARGV[g]
    end
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
    return text;
}
} // namespace ForceGuardLua

} // namespace LockScope
