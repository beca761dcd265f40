#pragma once

#include "kinds/semaphore/semaphorelayout.h"

namespace LockScope {

// Redisson's RPermitExpirableSemaphore: the string N holds the free permits, like an RSemaphore, and the sorted set
// {N}:timeout one member per permit taken (its random id: 16 raw bytes since Redisson 3.17, 32 hex characters before)
// scored with the time it expires. A permit past its time is given back by the next acquire, not by Redis: until then
// it is shown as expired. Its waiters listen on redisson_sc:{N}, as an RSemaphore's do.
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
    QList<QByteArray> namesFromAuxKey(const QByteArray &key) const override; // its permit set
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;
    // Adding permits as the plain semaphore does; giving one back.
    std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish) const override;

    static QByteArray permitSet(const QByteArray &name); // {N}:timeout
    // The permit id Java's acquire() returned for a member of the permit set, as every front-end shows it. Since
    // Redisson 3.17 a member is the 16 raw bytes that the id's 32 hex digits spell: shown as those digits, in
    // lowercase as Java writes them. An older Redisson's member is the id's text itself, shown as it is.
    static QByteArray permitIdText(const QByteArray &member);
    // For an id of 32 hex digits (either case, as Java's decodeHexDump takes them), the 16 bytes a Redisson 3.17+
    // member holds; empty for any other id.
    static QByteArray permitIdBytes(const QByteArray &id);
    // Gives back one permit taken, as its holder's own release would: out of the set, free again, waiters told.
    // permitId is the id as shown or as Java has it. The member tried first is that text exactly (an older Redisson's
    // member, or any id that is no 32 hex digits), then, when nothing has it, the 16 bytes it spells (Redisson
    // 3.17+): both in one script, so the choice is made on what the set holds at that moment.
    static ScriptCall releasePermit(const QByteArray &name, const QByteArray &permitId, const QByteArray &publish);
    // The score Redisson gives a permit taken without a lease.
    static constexpr qint64 kNeverExpires = 922337203685477LL;
    // The permits shown per semaphore; the rest are counted.
    static constexpr int kPermitsRead = 100;
};

} // namespace LockScope
