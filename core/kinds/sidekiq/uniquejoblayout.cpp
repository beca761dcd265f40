#include "kinds/sidekiq/uniquejoblayout.h"

#include "kinds/forceguard.h"
#include "kinds/hashreading.h"
#include "redis/bytesformat.h"
#include "redis/redisscript.h"
#include "redis/redisvalue.h"
#include "redis/slotmap.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>

namespace LockScope {

namespace {

// KEYS [locked, digest, queued, primed, info, digests] (or only locked); ARGV [jid, digest]: its unlock.
const RedisScript &releaseScript()
{
    static const RedisScript script(R"LUA(
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
redis.call('hdel', KEYS[1], ARGV[1])
if #KEYS < 6 then
    return 1
end
if redis.call('hlen', KEYS[1]) == 0 then
    redis.call('del', KEYS[1], KEYS[2], KEYS[4], KEYS[5])
    redis.call('zrem', KEYS[6], ARGV[2])
else
    redis.call('del', KEYS[2], KEYS[5])
end
redis.call('lpush', KEYS[3], '1')
redis.call('pexpire', KEYS[3], 5000)
return 1
)LUA");
    return script;
}

// The same keys; ARGV [digest, guard...]: delete-by-digest while the guard holds, then the sentinel on :QUEUED.
const RedisScript &forceReleaseScript()
{
    static const RedisScript script(ForceGuardLua::function() + R"LUA(
if redis.call('exists', KEYS[1]) == 0 then
    return 0
end
if not guardHolds(2) then
    return -1
end
redis.call('del', KEYS[1])
if #KEYS == 6 then
    redis.call('del', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
    redis.call('zrem', KEYS[6], ARGV[1])
    redis.call('lpush', KEYS[3], '1')
    redis.call('pexpire', KEYS[3], 5000)
end
return 1
)LUA");
    return script;
}

} // namespace

LockCapabilities UniqueJobLayout::capabilities() const
{
    LockCapabilities c;
    c.holderSet = true; // a lock with a limit above one has several jobs
    c.tokenHolder = true; // a job id says nothing of the process running it
    c.releaseOnlyDeletes = true; // its unlock deletes the LOCKED hash, with nothing a monitor hears
    return c;
}

bool UniqueJobLayout::isJobId(const QByteArray &field)
{
    return field.size() == 24 && std::all_of(field.cbegin(), field.cend(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

bool UniqueJobLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    if (key.type != "hash" || key.fields.isEmpty())
        return false;
    const bool declared = key.library == library();
    if (!declared && (!key.library.isEmpty() || !globMatch(kDefaultPattern, key.name)))
        return false;
    for (const auto &[field, value] : key.fields) {
        bool number = false;
        value.toDouble(&number);
        if (!isJobId(field) || !number)
            return false; // some other hash under the prefix
    }
    info.kind = kind();
    info.library = library();
    for (const auto &[field, value] : key.fields) {
        LockHolder h;
        h.owner = field;
        h.count = 1;
        h.sinceMs = qint64(value.toDouble() * 1000); // seconds, with microseconds
        info.holders << h;
    }
    info.evidence << (declared ? ClassifierText::tr("its name was declared as %1's").arg(QLatin1String(library()))
                               : ClassifierText::tr("its name has sidekiq-unique-jobs' prefix and :LOCKED suffix"))
                  << ClassifierText::tr("its fields are Sidekiq job ids with the time each was locked");
    if (key.pttlMs >= 0) {
        info.evidence << ClassifierText::tr("has a TTL");
    } else {
        info.warnings << ClassifierText::tr(
            "never expires: the job's lock_ttl is not set, so if the job died without unlocking, every later job "
            "with the same arguments is dropped as a duplicate until someone deletes the digest");
    }
    info.confidence = LockInfo::Confidence::High;
    return true;
}

QByteArray UniqueJobLayout::digestOf(const QByteArray &locked)
{
    return locked.endsWith(":LOCKED") ? locked.chopped(7) : locked;
}

QList<QByteArray> UniqueJobLayout::digestKeys(const QByteArray &locked, bool cluster)
{
    const QByteArray digest = digestOf(locked);
    const int colon = digest.lastIndexOf(':');
    const QByteArray digests = (colon > 0 ? digest.left(colon) : QByteArray("uniquejobs")) + ":digests";
    const QList<QByteArray> keys { digest, digest + ":QUEUED", digest + ":PRIMED", digest + ":INFO", digests };
    // The library's own scripts need all of them in one slot; in a cluster they seldom are, and only the hash goes.
    const int slot = keySlot(locked);
    if (cluster && !std::all_of(keys.cbegin(), keys.cend(), [slot](const QByteArray &k) { return keySlot(k) == slot; }))
        return {};
    return keys;
}

ScriptCall UniqueJobLayout::acquire(LockMode, const AcquireCall &) const
{
    return {}; // no acquire mode leads here: jobs take these locks when they are pushed
}

ScriptCall UniqueJobLayout::release(LockMode, const ReleaseCall &call) const
{
    const QList<QByteArray> keys = digestKeys(call.name, call.cluster);
    return { &releaseScript(), QList<QByteArray> { call.name } + keys, { call.owner, digestOf(call.name) },
        keys.isEmpty() ? QList<QByteArray>() : QList<QByteArray> { keys.at(1) } };
}

ScriptCall UniqueJobLayout::forceRelease(const ForceReleaseCall &call) const
{
    const QList<QByteArray> keys = digestKeys(call.name, call.cluster);
    return { &forceReleaseScript(), QList<QByteArray> { call.name } + keys,
        QList<QByteArray> { digestOf(call.name) } + call.guard.scriptArgs(),
        keys.isEmpty() ? QList<QByteArray>() : QList<QByteArray> { keys.at(1) } };
}

RedisError UniqueJobLayout::wrongType(const QByteArray &name, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QCoreApplication::translate(
            "LockScope::UniqueJobLayout", "%1 is not a sidekiq-unique-jobs lock: the key holds another type (%2)")
            .arg(escapeBytes(name, 200), QString::fromUtf8(type)),
        "WRONGTYPE");
}

RedisError UniqueJobLayout::checkRelease(const QByteArray &name, const QByteArray &holder) const
{
    if (isJobId(holder))
        return {};
    return RedisError(RedisError::Kind::InvalidArgument,
        QCoreApplication::translate("LockScope::UniqueJobLayout",
            "%1 is held by Sidekiq jobs: name the job id (24 hex digits) to release, not \"%2\"; nothing changed")
            .arg(escapeBytes(name, 200), escapeBytes(holder, 40)));
}

} // namespace LockScope
