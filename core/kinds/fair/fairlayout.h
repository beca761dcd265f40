#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// Redisson's RFairLock: the reentrant hash plus a queue of waiters (redisson_lock_queue:{N}) and their deadlines
// (redisson_lock_timeout:{N}); a release wakes only the head, on its own channel (docs/protocol/fair.md).
// What discovery read of a fair lock's queue keys: the queue in order, and the deadline set's scores (epoch ms).
struct FairQueueAux
{
    QList<QByteArray> queue; // redisson_lock_queue:{N}
    QHash<QByteArray, qint64> deadlines; // redisson_lock_timeout:{N}
    bool exists() const { return !queue.isEmpty() || !deadlines.isEmpty(); }
};

class FairLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
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
    ScriptCall acquire(LockKind mode, const AcquireCall &call) const override;
    ScriptCall release(LockKind mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const override;
    QList<QByteArray> releaseChannelPatterns() const override;
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    // Besides the lock hashes, Redisson's queue keys: a queue whose lock hash is gone still blocks every fair acquire.
    QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const override;
    void readAux(AuxReader &reader) const override; // the queue and its deadlines
    AuxEvidence auxEvidence(const KeySnapshot &key) const override;
    // Its queue and a jammed head, beside any lock hash.
    void describeAux(const KeySnapshot &key, LockInfo &info) const override;
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // its queue and deadline set
    // An orphaned queue (fairorphans.cpp): its lock hash gone, its queue still blocks every fair acquire.
    bool mayOutliveItsKey(const QByteArray &name) const override;
    void readKeyless(AuxReader &reader) const override;
    // Its queue and deadline set vanish whenever nobody waits.
    std::optional<LockInfo::Kind> idleKind() const override { return LockInfo::Kind::Reentrant; }
    const char *idleEvidence() const override
    {
        return QT_TRANSLATE_NOOP(
            "LockScope::LockTracker", "seen with a fair queue before (an idle fair lock looks like a reentrant one)");
    }
    // The base channel: a release tells the new head on the base plus its field, other kinds' clients on the base.
    QByteArray releaseChannel(const QByteArray &name) const override;
    std::optional<ScriptCall> giveUp(
        const QByteArray &name, const QByteArray &owner, qint64 queueWaitMs) const override;
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override; // an orphaned queue
    // Its wait queue or timeout set (an idle fair lock has neither, and is a plain lock hash until someone queues).
    std::optional<HashMark> hashMark() const override;
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
