#pragma once

#include "kinds/semaphore/semaphorelayout.h"

namespace LockScope {

// Redisson's RPermitExpirableSemaphore: the string N holds the free permits, like an RSemaphore, and the sorted set
// {N}:timeout one member per permit taken (its random id) scored with the time it expires. A permit past its time is
// given back by the next acquire, not by Redis: until then it is shown as expired. Its waiters listen on
// redisson_sc:{N}, as an RSemaphore's do.
class ExpirableSemaphoreLayout : public SemaphoreLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::ExpirableSemaphore; }
    const char *id() const override { return "expirable-semaphore"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "expirable semaphore"); }
    LockCapabilities capabilities() const override;
    bool allows(LockAction action) const override
    {
        return action == LockAction::AddPermits || action == LockAction::ReleasePermit;
    }
    // Its permit set's size and first page (the listeners are the semaphore layout's read).
    void readStringAux(AuxReader &reader) const override;
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;

    static QByteArray permitSet(const QByteArray &name); // {N}:timeout
    // Gives back one permit taken, as its holder's own release would: out of the set, free again, waiters told.
    static ScriptCall releasePermit(const QByteArray &name, const QByteArray &permitId, const QByteArray &publish);
    // The score Redisson gives a permit taken without a lease.
    static constexpr qint64 kNeverExpires = 922337203685477LL;
    // The permits shown per semaphore; the rest are counted.
    static constexpr int kPermitsRead = 100;
};

} // namespace LockScope
