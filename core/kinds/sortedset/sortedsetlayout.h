#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// Holds kept as members of one sorted set (docs/protocol/libraries.md#sorted-set-locks): redis-semaphore's semaphore
// (a member per permit, scored by when it was taken or last refreshed) and Symfony's RedisStore (a member per token,
// scored by when it expires, plus a "__write__" marker for an exclusive hold). Their names are found by the one walk
// over sorted sets (SCAN ... TYPE zset), inside each library's fixed prefix or the names declared as its own; nothing
// is taken here, and a release is the ZREM of one member, as the library's own release does. Their waiters poll: a
// release wakes nobody.
class SortedSetLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const LockActions *lockActions() const override { return this; }
    // The lock kind probe names a sorted set SortedSet: every sorted-set layout releases with the same scripts.
    QList<LockMode> actionModes() const override { return { LockMode::SortedSet }; }
    LockCapabilities capabilities() const override;
    // Its library's fixed key prefixes; none for a library whose names are only declared.
    virtual QList<QByteArray> defaultPatterns() const { return {}; }
    // One cursor over the sorted sets, shared with the other sorted-set layouts (LockLayouts::scanCursors).
    QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    // KEYS [N]; ARGV [member]: ZREM that member (and Symfony's "__write__" marker with it) -> 1 | nil not there.
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    // The members the person saw, those still there, each as its own release would: 1 | 0 no set | the members now,
    // when none of them is left (the guard failed).
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    // Each hold has its own expiry (a member's score, a job's lock_ttl): there is no one lease to set.
    std::optional<ScriptCall> setLease(const LeaseCall &) const override { return std::nullopt; }
    void decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const override;
    QList<QByteArray> holdersQuery(const QByteArray &) const override { return {}; }
    RedisError wrongType(const QByteArray &name, const QByteArray &type) const override;
    RedisError checkRelease(const QByteArray &name, const QByteArray &holder) const override;
    RedisError checkForceRelease(const QByteArray &name, const ForceGuard &guard) const override;

    // How many members a snapshot reads (the rest are counted, not listed).
    static constexpr int kMembersRead = 64;
    // Symfony's marker of an exclusive hold: a member, never a holder.
    static constexpr const char *kWriteMarker = "__write__";

protected:
    // Whether key is a sorted set inside this layout's patterns (a fixed prefix, or declared as its library's).
    bool isCandidate(const KeySnapshot &key) const;
    // Fills what both show: kind, library, TTL evidence, the count of members.
    void describeSet(const KeySnapshot &key, LockInfo &info) const;
};

} // namespace LockScope
