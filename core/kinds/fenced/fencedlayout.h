#pragma once

#include "kinds/reentrant/reentrantlayout.h"

namespace LockScope {

// Redisson's RFencedLock: a reentrant lock whose every acquisition, reentry included, also draws the next number
// from redisson_lock_token:{N}; released, renewed and woken as the reentrant lock it is underneath
// (docs/protocol/fenced.md).
// What discovery read beside a lock hash for the fenced layout: does its token key exist.
struct FencedAux
{
    bool tokenKeyExists = false; // redisson_lock_token:{N}
};

class FencedLayout : public ReentrantLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::Fenced; }
    const char *id() const override { return "fenced"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "fenced"); }
    LockCapabilities capabilities() const override;
    QList<AcquireMode> modes() const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    void readAux(AuxReader &reader) const override; // does its token key exist
    AuxEvidence auxEvidence(const KeySnapshot &key) const override;
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // its token key
    // Its token key outlives every release, so it is there whenever the lock hash is; a fenced lock's name may also
    // have had a fair waiter, never the other way round, so the token is tried first.
    std::optional<HashMark> hashMark() const override;
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
