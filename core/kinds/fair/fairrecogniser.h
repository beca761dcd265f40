#pragma once

#include "kinds/lockrecogniser.h"

namespace LockScope {

// What discovery read of a fair lock's queue keys: the queue in order, and the deadline set's scores (epoch ms).
struct FairQueueAux
{
    QList<QByteArray> queue; // redisson_lock_queue:{N}
    QHash<QByteArray, qint64> deadlines; // redisson_lock_timeout:{N}
    bool exists() const { return !queue.isEmpty() || !deadlines.isEmpty(); }
};

// How a fair lock is found and told from the other layouts (docs/protocol/fair.md): its queue keys beside the lock
// hash, a queue whose hash is gone (an orphaned queue still blocks every fair acquire), and the channels its releases
// are heard on.
class FairRecogniser : public LockRecogniser
{
public:
    // Besides the lock hashes, Redisson's queue keys: a queue whose lock hash is gone still blocks every fair acquire.
    QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const override;
    void readAux(AuxReader &reader) const override; // the queue and its deadlines
    AuxEvidence auxEvidence(const KeySnapshot &key) const override;
    // Its queue and a jammed head, beside any lock hash.
    void describeAux(const KeySnapshot &key, LockInfo &info) const override;
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // its queue and deadline set
    // An orphaned queue: its lock hash gone, its queue still blocks every fair acquire.
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
    QList<QByteArray> releaseChannelPatterns() const override;
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override; // an orphaned queue
    // Its wait queue or timeout set (an idle fair lock has neither, and is a plain lock hash until someone queues).
    std::optional<HashMark> hashMark() const override;
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
