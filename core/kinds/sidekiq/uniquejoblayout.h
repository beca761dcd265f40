#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// sidekiq-unique-jobs (v7 and v8, Ruby): a job's lock is the hash <digest>:LOCKED, one field per job id holding it
// (24 hex digits) with the time it was locked (seconds, a decimal), beside the lists <digest>:QUEUED and :PRIMED its
// waiting jobs move through, <digest>:INFO, and the digest's entry in the sorted set <prefix>:digests
// (docs/protocol/libraries.md#sidekiq-unique-jobs). Found under uniquejobs:*:LOCKED, the default prefix, or names
// declared sidekiq-unique-jobs=GLOB. A release is the library's unlock for that job; a force release its
// delete-by-digest, then the sentinel push on :QUEUED that wakes a job blocked waiting for the lock.
class UniqueJobLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::UniqueJob; }
    const char *id() const override { return "unique-job"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "unique job"); }
    const char *library() const override { return "sidekiq-unique-jobs"; }
    LockCapabilities capabilities() const override;
    QList<LockMode> actionModes() const override { return { LockMode::UniqueJob }; }
    // Read by the walk over hashes the Redisson layouts share: no walk of its own.
    QList<ScanCursor> scanCursors(const DiscoveryScope &) const override { return {}; }
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    // Each hold has its own expiry (a member's score, a job's lock_ttl): there is no one lease to set.
    std::optional<ScriptCall> setLease(const LeaseCall &) const override { return std::nullopt; }
    RedisError wrongType(const QByteArray &name, const QByteArray &type) const override;
    RedisError checkRelease(const QByteArray &name, const QByteArray &holder) const override;

    static constexpr const char *kDefaultPattern = "uniquejobs:*:LOCKED";
    // A Sidekiq job id: 24 lowercase hex digits.
    static bool isJobId(const QByteArray &field);

private:
    // The digest's keys a script touches beside the LOCKED hash: the digest, :QUEUED, :PRIMED, :INFO and the
    // digests set, when they share its slot (always, outside a cluster); otherwise none.
    static QList<QByteArray> digestKeys(const QByteArray &locked, bool cluster);
    static QByteArray digestOf(const QByteArray &locked);
};

} // namespace LockScope
