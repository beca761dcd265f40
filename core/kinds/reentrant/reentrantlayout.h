#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// Redisson's RLock: a hash N whose field "<uuid>:<thread>" counts reentry, a lease renewed by the watchdog, and a
// release that publishes on redisson_lock__channel:{N} (docs/protocol/reentrant.md).
class ReentrantLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::Reentrant; }
    const char *id() const override { return "reentrant"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "reentrant"); }
    LockCapabilities capabilities() const override;
    // A fair lock nobody waits on looks like this one (FairRecogniser::idleKind), so its queue may be repaired too: the
    // repair then finds nobody queued.
    bool allows(LockAction action) const override
    {
        return action == LockAction::Release || action == LockAction::ForceRelease || action == LockAction::RepairQueue;
    }
    QList<AcquireMode> modes() const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const override;
    QByteArray releaseChannel(const QByteArray &name) const override { return waitChannel(name, {}); }
    QList<QByteArray> releaseChannelPatterns() const override;
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    // The plain lock hash: any hash that no other layout's mark claims.
    std::optional<HashMark> hashMark() const override
    {
        return HashMark { 100, {}, {}, nullptr,
            QT_TRANSLATE_NOOP(
                "AcquireCheck", "a reentrant lock (a lock hash with no mode field, fencing token or fair queue)") };
    }
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
