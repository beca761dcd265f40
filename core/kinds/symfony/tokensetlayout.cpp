#include "kinds/symfony/tokensetlayout.h"

#include "kinds/hashreading.h"
#include <algorithm>

namespace LockScope {

bool TokenSetLayout::memberFits(const QByteArray &member)
{
    // base64_encode(random_bytes(32)): 43 characters of the standard alphabet and one '='.
    if (member == kWriteMarker)
        return true;
    if (member.size() != 44 || !member.endsWith('='))
        return false;
    return std::all_of(member.cbegin(), member.cend() - 1, [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '/';
    });
}

bool TokenSetLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    if (!isCandidate(key))
        return false;
    if (!std::all_of(key.members.cbegin(), key.members.cend(), [](const auto &m) { return memberFits(m.first); }))
        return false;
    describeSet(key, info);
    bool exclusive = false;
    int expired = 0;
    for (const auto &[member, score] : key.members) {
        if (member == kWriteMarker) {
            exclusive = true;
            continue;
        }
        LockHolder h;
        h.owner = member;
        h.count = 1;
        h.expiresMs = score;
        if (score <= key.nowMs)
            ++expired;
        info.holders << h;
    }
    if (info.holders.isEmpty()) {
        info.kind = LockInfo::Kind::NotALock; // a lone marker: nothing holds it
        return true;
    }
    info.mode = exclusive ? "write" : "read";
    info.evidence << ClassifierText::tr(
        "a sorted set of base64 tokens scored by their expiry: Symfony's RedisStore (\"__write__\" marks an exclusive "
        "hold)");
    if (expired > 0)
        info.warnings << ClassifierText::tr(
            "%n hold(s) expired: Symfony drops them at the next acquire, not before", nullptr, expired);
    info.confidence = key.pttlMs >= 0 ? LockInfo::Confidence::High : LockInfo::Confidence::Medium;
    return true;
}

} // namespace LockScope
