#pragma once

#include "kinds/fair/fairrecogniser.h"
#include "kinds/locklayout.h"

namespace LockScope {

// Redisson's RFairLock: the reentrant hash plus a queue of waiters (redisson_lock_queue:{N}) and their deadlines
// (redisson_lock_timeout:{N}); a release wakes only the head, on its own channel (docs/protocol/fair.md). Its
// recogniser is a class of its own (fairrecogniser.h); this is its identity and its scripts.
class FairLayout : public LockLayout, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return m_recogniser; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::Fair; }
    const char *id() const override { return "fair"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "fair"); }
    LockCapabilities capabilities() const override;
    bool allows(LockAction action) const override
    {
        return action == LockAction::Release || action == LockAction::ForceRelease || action == LockAction::RepairQueue;
    }
    QList<AcquireMode> modes() const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const override;
    std::optional<ScriptCall> giveUp(
        const QByteArray &name, const QByteArray &owner, qint64 queueWaitMs) const override;

private:
    FairRecogniser m_recogniser;
};

} // namespace LockScope
