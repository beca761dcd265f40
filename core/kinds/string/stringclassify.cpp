// What a string lock looks like to the classifier: a string inside a configured pattern, leased, holding a token.
#include "kinds/string/stringlayout.h"

#include "kinds/hashreading.h"

namespace LockScope {

namespace {
// Redisson's own string keys (docs/protocol/classification.md#redisson-helper-keys) sit beside its locks and are
// never locks themselves, whatever pattern a user configured.
bool redissonStringKey(const QByteArray &name)
{
    return name.startsWith("redisson_lock_token:") || name.startsWith("redisson_unlock_latch:")
        || name.contains(":rwlock_timeout:");
}

} // namespace

bool StringLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    // Only inside the string lock patterns: elsewhere a string is application data.
    if (key.type != "string" || !key.stringPattern)
        return false;
    // A value of any length is some application's data, as is a key that never expires: a lock has a lease. An
    // integer is a counter (Redisson's semaphore permits, a count-down latch), never a holder's token.
    if (!key.stringPattern || key.pttlMs <= 0 || key.value.isEmpty() || key.value.size() > kMaxStringToken
        || redissonStringKey(key.name) || isCounterValue(key.value))
        return true;
    info.kind = LockInfo::Kind::String;
    LockHolder h;
    h.owner = key.value;
    h.count = 1;
    info.holders << h;
    info.confidence = LockInfo::Confidence::Medium;
    info.evidence << ClassifierText::tr("a string inside a configured string lock pattern")
                  << ClassifierText::tr("has a TTL (%1 ms)").arg(key.pttlMs)
                  << ClassifierText::tr("its value is the holder's token");
    return true;
}

} // namespace LockScope
