#pragma once

#include "kinds/lockrecogniser.h"

namespace LockScope {

// What discovery read beside a read-write lock: for each reader field, how many of its rwlock_timeout keys exist.
struct ReaderTimeoutsAux
{
    QHash<QByteArray, int> live;
};

// How a read-write lock is found and told from the other layouts (docs/protocol/readwrite.md): its "mode" field,
// its readers' timeout keys (a reader whose keys are all gone is dead), and its release channel.
class ReadWriteRecogniser : public LockRecogniser
{
public:
    QByteArray releaseChannel(const QByteArray &name) const override;
    QList<QByteArray> releaseChannelPatterns() const override;
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    void readAux(AuxReader &reader) const override; // how many of each reader's timeout keys are alive
    AuxEvidence auxEvidence(const KeySnapshot &key) const override;
    void describeAux(const KeySnapshot &key, LockInfo &info) const override; // its readers' timeout keys exist
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // a reader's timeout key
    // The mode field is in the lock's own hash: the strongest evidence, ahead of aux keys that may be leftovers.
    std::optional<HashMark> hashMark() const override;
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
