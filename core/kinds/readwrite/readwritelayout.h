#pragma once

#include "kinds/locklayout.h"
#include "kinds/readwrite/readwriterecogniser.h"

namespace LockScope {

// Redisson's RReadWriteLock: one hash N with a "mode" field, many readers (each with timeout keys of its own) or one
// writer whose field ends in ":write"; releases publish on redisson_rwlock:{N} (docs/protocol/readwrite.md). Its
// recogniser is a class of its own (readwriterecogniser.h); this is its identity and its scripts.
class ReadWriteLayout : public LockLayout, public LockActions
{
public:
    const LockRecogniser &recogniser() const override { return m_recogniser; }
    const LockActions *lockActions() const override { return this; }
    LockInfo::Kind kind() const override { return LockInfo::Kind::ReadWrite; }
    const char *id() const override { return "readwrite"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "read-write"); }
    LockCapabilities capabilities() const override;
    QList<AcquireMode> modes() const override;
    QByteArray ownerField(LockMode mode, const QByteArray &owner) const override;
    ScriptCall acquire(LockMode mode, const AcquireCall &call) const override;
    ScriptCall release(LockMode mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    QByteArray waitChannel(const QByteArray &name, const QByteArray &owner) const override;
    QByteArray renewalPrefix(LockMode mode, const QByteArray &name, const QByteArray &owner) const override;
    std::optional<LockMode> releaseMode(const QByteArray &owner) const override
    {
        return owner.endsWith(":write") ? LockMode::Write : LockMode::Read;
    }

private:
    ReadWriteRecogniser m_recogniser;
};

} // namespace LockScope
