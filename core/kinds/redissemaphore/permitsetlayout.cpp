#include "kinds/redissemaphore/permitsetlayout.h"

#include "kinds/hashreading.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

QString PermitSetLayout::counterText(qint64 value) const
{
    return QCoreApplication::translate("LockScope::PermitSetLayout", "%n permit(s) taken", nullptr, int(value));
}

bool PermitSetLayout::memberFits(const QByteArray &member)
{
    const QByteArray id = member.left(36);
    if (!TokenShape::uuid(id) || id.at(14) != '4')
        return false;
    if (member.size() == 36)
        return true;
    // A MultiSemaphore's "_<i>", or the identifierSuffix option's "-<suffix>".
    bool ok = false;
    member.mid(37).toUInt(&ok);
    return (member.at(36) == '_' && ok) || (member.at(36) == '-' && member.size() > 37);
}

bool PermitSetLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    if (!isCandidate(key))
        return false;
    if (!std::all_of(key.members.cbegin(), key.members.cend(), [](const auto &m) { return memberFits(m.first); }))
        return false; // some application's sorted set under the same prefix
    describeSet(key, info);
    info.counter = qMax<qint64>(key.memberCount, key.members.size());
    info.evidence << ClassifierText::tr(
        "a sorted set of random UUIDs scored by the time each was taken: redis-semaphore's semaphore (its limit is the "
        "clients' setting, not kept in Redis)");
    int stale = 0;
    for (const auto &[member, score] : key.members) {
        LockHolder h;
        h.owner = member;
        h.count = 1;
        h.sinceMs = score;
        if (key.nowMs - score > kLockTimeoutMs)
            ++stale;
        info.holders << h;
    }
    if (stale > 0)
        info.warnings << ClassifierText::tr(
            "%n permit(s) not refreshed for over 10 s: with the default lockTimeout their holder is gone, and the "
            "next acquire drops them",
            nullptr, stale);
    info.confidence = key.pttlMs >= 0 ? LockInfo::Confidence::High : LockInfo::Confidence::Medium;
    return true;
}

} // namespace LockScope
