#include "guide/guidescripts.h"

#include <array>

namespace LockScope::Guide {

namespace {

// KEYS[1] the lock; ARGV[1] the lease in ms, ARGV[2] the owner field. A free lock or the owner's own reentry
// takes one more level and restarts the lease: nil. Anyone else is told how long the lease still runs.
const char acquireLua[] = R"LUA(-- guided acquire: the effect of Redisson's tryLockInnerAsync (3.19.0 to 4.x)
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
)LUA";

// KEYS: lock, channel, unlock latch. ARGV: message, lease, owner, publish command, latch lifetime.
// A latch left by an earlier run of the same request answers for it; otherwise one level goes, and the last one
// deletes the lock and wakes the waiters. The result is kept in the latch for a retry of this request.
const char unlock4Lua[] = R"LUA(-- guided unlock: the effect of Redisson's unlockInnerAsync (3.24.0 to 4.x)
local earlier = redis.call('get', KEYS[3])
if earlier ~= false then
    return tonumber(earlier)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    redis.call('set', KEYS[3], 0, 'px', ARGV[5])
    return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
)LUA";

// KEYS: lock, channel. ARGV: message, lease, owner, publish command. No latch.
const char unlock322Lua[] = R"LUA(-- guided unlock: the effect of Redisson 3.22 to 3.23
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
return 1
)LUA";

// KEYS: lock, channel. ARGV: message, lease, owner. The publish is always PUBLISH.
const char unlock3Lua[] = R"LUA(-- guided unlock: the effect of Redisson 3.10.6 to 3.21.x
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[1])
return 1
)LUA";

// As 3.10.6+, but a lock that is not there counts as released, and the waiters are told so.
const char unlock2Lua[] = R"LUA(-- guided unlock: the effect of Redisson up to 3.10.5 and the 2.x line
if redis.call('exists', KEYS[1]) == 0 then
    redis.call('publish', KEYS[2], ARGV[1])
    return 1
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[1])
return 1
)LUA";

// KEYS[1] the lock; ARGV: lease, owner. 1 when the owner still held it and its lease restarted.
const char renew1Lua[] = R"LUA(-- guided renewal: the effect of Redisson's renewExpirationAsync (up to 3.43)
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('pexpire', KEYS[1], ARGV[1])
    return 1
end
return 0
)LUA";

// KEYS: the client's locks; ARGV[1] the lease, ARGV[i + 1] the owner renewed on KEYS[i]. One 0 or 1 per lock.
const char renewBatchLua[] = R"LUA(-- guided renewal: the effect of Redisson's batched LockTask (3.44+ and 4.x)
local renewed = {}
for i = 1, #KEYS do
    if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
        redis.call('pexpire', KEYS[i], ARGV[1])
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
)LUA";

// KEYS: lock, channel. ARGV: message, publish command. Deletes whoever holds it, and wakes the waiters.
const char forceUnlockLua[] = R"LUA(-- guided force unlock: the effect of Redisson's forceUnlockAsync (4.x)
if redis.call('del', KEYS[1]) == 1 then
    redis.call(ARGV[2], KEYS[2], ARGV[1])
    return 1
end
return 0
)LUA";

const std::array<GuideScript, 8> &all()
{
    static const std::array<GuideScript, 8> scripts { {
        { ScriptId::Acquire, "acquire", acquireLua, QStringLiteral("Redisson 3.19.0 to 4.x") },
        { ScriptId::Unlock4, "unlock-4", unlock4Lua, QStringLiteral("Redisson 3.24.0 to 4.x") },
        { ScriptId::Unlock322, "unlock-3.22", unlock322Lua, QStringLiteral("Redisson 3.22 to 3.23") },
        { ScriptId::Unlock3, "unlock-3", unlock3Lua, QStringLiteral("Redisson 3.10.6 to 3.21.x") },
        { ScriptId::Unlock2, "unlock-2", unlock2Lua, QStringLiteral("Redisson 2.x to 3.10.5") },
        { ScriptId::Renew1, "renew-1", renew1Lua, QStringLiteral("Redisson up to 3.43") },
        { ScriptId::RenewBatch, "renew-batch", renewBatchLua, QStringLiteral("Redisson 3.44 to 4.x") },
        { ScriptId::ForceUnlock, "force-unlock", forceUnlockLua, QStringLiteral("Redisson 4.x") },
    } };
    return scripts;
}

} // namespace

const GuideScript &script(ScriptId id)
{
    return all()[size_t(id)];
}

ScriptId unlockScript(UnlockEffect effect)
{
    switch (effect) {
    case UnlockEffect::V322:
        return ScriptId::Unlock322;
    case UnlockEffect::V321:
        return ScriptId::Unlock3;
    case UnlockEffect::V2:
        return ScriptId::Unlock2;
    case UnlockEffect::V4:
        break;
    }
    return ScriptId::Unlock4;
}

bool parseUnlockEffect(const QString &text, UnlockEffect *effect)
{
    if (text == QLatin1String("4"))
        *effect = UnlockEffect::V4;
    else if (text == QLatin1String("3.22"))
        *effect = UnlockEffect::V322;
    else if (text == QLatin1String("3.21"))
        *effect = UnlockEffect::V321;
    else if (text == QLatin1String("3.10.5"))
        *effect = UnlockEffect::V2;
    else
        return false;
    return true;
}

QString unlockEffectText(UnlockEffect effect)
{
    switch (effect) {
    case UnlockEffect::V322:
        return QStringLiteral("3.22");
    case UnlockEffect::V321:
        return QStringLiteral("3.21");
    case UnlockEffect::V2:
        return QStringLiteral("3.10.5");
    case UnlockEffect::V4:
        break;
    }
    return QStringLiteral("4");
}

const GuideScript *scriptBySource(const QByteArray &source)
{
    for (const GuideScript &s : all()) {
        if (s.source == source)
            return &s;
    }
    return nullptr;
}

} // namespace LockScope::Guide
