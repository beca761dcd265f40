#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// A plain string lock (SET NX PX <random token>): no reentrancy, no wake-up channel, given back by compare-and-delete
// so that nobody deletes a lock that changed hands (docs/protocol/string.md). Its owner is the token itself.
class StringLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::String; }
    const char *id() const override { return "string"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "string"); }
    // Each lock's own library is named by classification (kinds/string/stringlibrary.h); "string" when unknown.
    const char *library() const override { return "string"; }
    LockCapabilities capabilities() const override;
    // As its library says (StringLibrary::coolsDownAfterUnlock).
    bool coolsDownAfterUnlock(const LockInfo &info) const override;
    QList<AcquireMode> modes() const override;
    // One cursor over the strings (TYPE string) for all the string lock patterns, and none over hashes: a string
    // outside them is data.
    QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const override;
    // KEYS [N]; ARGV [token, leaseMs, aux...]: the aux keys tell an idle Redisson lock, when they share N's slot.
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    // Deletes N only while it holds call.owner, the token, and wakes the waiters of the libraries N may belong to.
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    // The same compare-and-delete, with the token the person saw (the guard's one field) in place of ours.
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    std::optional<ScriptCall> setLease(const LeaseCall &call) const override;
    static ScriptCall compareAndDelete(
        const QByteArray &name, const QByteArray &token, const StringLockPatterns *patterns, bool cluster);
    // Extends N's lease while it still holds token.
    static ScriptCall renew(const QByteArray &name, const QByteArray &token, qint64 leaseMs);

    // 1 acquired | [token, PTTL] held by another.
    bool decodeAcquire(const RedisValue &reply, AcquireResult *result) const override;
    // 1 deleted | the token found | nil: no lock. The token found is the holder now.
    void decodeRelease(const RedisValue &reply, ReleaseResult *result) const override;
    void decodeForceRelease(const RedisValue &reply, ForceReleaseResult *result) const override;
    QList<QByteArray> holdersQuery(const QByteArray &) const override { return {}; }
    RedisError wrongType(const QByteArray &name, const QByteArray &type) const override;
    // A counter's value (semaphore permits, a latch) is never a token: deleting by it would destroy the counter.
    RedisError checkRelease(const QByteArray &name, const QByteArray &holder) const override;
    // Only the one token the person saw, or named, can guard the compare-and-delete.
    RedisError checkForceRelease(const QByteArray &name, const ForceGuard &guard) const override;
    const RedisScript &renewal() const override;
    int pollIntervalMs() const override { return 100; }
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;
    // A name declared with an owner template: its holder as the template reads the value (kinds/custom/).
    static bool classifyTemplated(const KeySnapshot &key, LockInfo &info);
};

} // namespace LockScope
