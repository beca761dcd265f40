#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// Redisson's RReadWriteLock: one hash N with a "mode" field, many readers (each with timeout keys of its own) or one
// writer whose field ends in ":write"; releases publish on redisson_rwlock:{N} (docs/protocol/readwrite.md).
// What discovery read beside a read-write lock: for each reader field, how many of its rwlock_timeout keys exist.
struct ReaderTimeoutsAux
{
    QHash<QByteArray, int> live;
};

class ReadWriteLayout : public LockLayout, public LockRecogniser, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::ReadWrite; }
    const char *id() const override { return "readwrite"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "read-write"); }
    LockCapabilities capabilities() const override;
    QList<AcquireMode> modes() const override;
    QByteArray ownerField(LockKind mode, const QByteArray &owner) const override;
    ScriptCall acquire(LockKind mode, const AcquireCall &call) const override;
    ScriptCall release(LockKind mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const override;
    QByteArray releaseChannel(const QByteArray &name) const override { return waitChannel(name, {}); }
    QList<QByteArray> releaseChannelPatterns() const override;
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    void readAux(AuxReader &reader) const override; // how many of each reader's timeout keys are alive
    AuxEvidence auxEvidence(const KeySnapshot &key) const override;
    void describeAux(const KeySnapshot &key, LockInfo &info) const override; // its readers' timeout keys exist
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // a reader's timeout key
    QByteArray renewalPrefix(LockKind mode, const QByteArray &name, const QByteArray &owner) const override;
    // The mode field is in the lock's own hash: the strongest evidence, ahead of aux keys that may be leftovers.
    std::optional<HashMark> hashMark() const override;
    std::optional<LockKind> releaseMode(const QByteArray &owner) const override
    {
        return owner.endsWith(":write") ? LockKind::Write : LockKind::Read;
    }
    void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const override;
};

} // namespace LockScope
