#include "kinds/sortedset/sortedsetlayout.h"

#include "kinds/hashreading.h"
#include "kinds/sortedset/sortedsetscripts.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

LockCapabilities SortedSetLayout::capabilities() const
{
    LockCapabilities c;
    c.holderSet = true;
    c.tokenHolder = true; // a member is a random id: whose it is cannot be read off it
    c.releaseOnlyDeletes = true; // ZREM of the last member deletes the set, as a force release's DEL does
    return c;
}

QList<ScanCursor> SortedSetLayout::scanCursors(const DiscoveryScope &scope) const
{
    QList<QByteArray> globs = defaultPatterns();
    for (const auto &[library, glob] : scope.stringPatterns.declared())
        if (library == this->library() && !globs.contains(glob))
            globs << glob;
    if (globs.isEmpty())
        return {};
    // Every sorted-set layout asks for the same walk with its own globs: LockLayouts::scanCursors makes it one.
    return { { scope.pattern, "zset", ScanCursor::Read::SortedSet, globs } };
}

bool SortedSetLayout::isCandidate(const KeySnapshot &key) const
{
    if (key.type != "zset" || key.members.isEmpty())
        return false;
    if (!key.library.isEmpty())
        return key.library == library(); // declared: that library's, and no other's
    const QList<QByteArray> globs = defaultPatterns();
    return std::any_of(globs.cbegin(), globs.cend(), [&key](const QByteArray &g) { return globMatch(g, key.name); });
}

void SortedSetLayout::describeSet(const KeySnapshot &key, LockInfo &info) const
{
    info.kind = kind();
    info.library = library();
    if (!key.library.isEmpty())
        info.evidence << ClassifierText::tr("its name was declared as %1's").arg(QString::fromLatin1(library()));
    if (key.pttlMs >= 0)
        info.evidence << ClassifierText::tr("has a TTL");
    else
        info.warnings << ClassifierText::tr(
            "no TTL: the set never expires; its library sets one on every acquire, so something removed it");
    if (key.memberCount > key.members.size())
        info.warnings << ClassifierText::tr("only the first %1 of its %2 members are shown")
                             .arg(key.members.size())
                             .arg(key.memberCount);
}

ScriptCall SortedSetLayout::acquire(LockMode, const AcquireCall &) const
{
    return {}; // no acquire mode leads here
}

ScriptCall SortedSetLayout::release(LockMode, const ReleaseCall &call) const
{
    return { &SortedSetScripts::release(), { call.name }, { call.owner } };
}

ScriptCall SortedSetLayout::forceRelease(const ForceReleaseCall &call) const
{
    return { &SortedSetScripts::forceRelease(), { call.name }, call.guard.scriptArgs() };
}

void SortedSetLayout::decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const
{
    result->deleted = reply.type() == RedisValue::Type::Integer && reply.toInteger() == 1;
    result->guardFailed = reply.isArray();
    for (const RedisValue &member : reply.elements())
        result->holdersNow << member.bytes();
}

RedisError SortedSetLayout::wrongType(const QByteArray &name, const QByteArray &type) const
{
    return RedisError(RedisError::Kind::Reply,
        QCoreApplication::translate(
            "LockScope::SortedSetLayout", "%1 is not a sorted-set lock: the key holds another type (%2)")
            .arg(escapeBytes(name, 200), QString::fromUtf8(type)),
        "WRONGTYPE");
}

RedisError SortedSetLayout::checkRelease(const QByteArray &name, const QByteArray &holder) const
{
    if (!holder.isEmpty() && holder != kWriteMarker)
        return {};
    return RedisError(RedisError::Kind::InvalidArgument,
        QCoreApplication::translate("LockScope::SortedSetLayout",
            "%1 keeps its holders as members of a sorted set: name the member to release (\"%2\" is no holder); "
            "nothing changed")
            .arg(escapeBytes(name, 200), escapeBytes(holder, 40)));
}

RedisError SortedSetLayout::checkForceRelease(const QByteArray &name, const ForceGuard &guard) const
{
    // Deleting the whole set would also take the permits of holders nobody saw: only the members shown (or named) go.
    if (guard.kind == ForceGuard::Kind::None || guard.fields.isEmpty())
        return RedisError(RedisError::Kind::InvalidArgument,
            QCoreApplication::translate("LockScope::SortedSetLayout",
                "%1 keeps its holders as members of a sorted set: a force release removes only the members seen")
                .arg(escapeBytes(name, 200)));
    for (const QByteArray &field : guard.fields)
        if (const RedisError error = checkRelease(name, field))
            return error;
    return {};
}

} // namespace LockScope
