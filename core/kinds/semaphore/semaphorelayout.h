#pragma once

#include "kinds/semaphore/counterlayout.h"

namespace LockScope {

// Redisson's RSemaphore: the string N holds the free permits; an acquire takes some (DECRBY while enough are free), a
// release or "add permits" gives some (INCRBY) and publishes the new count on redisson_sc:{N}, where its waiters
// listen. Nobody is recorded as holding a permit.
class SemaphoreLayout : public CounterLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::Semaphore; }
    const char *id() const override { return "semaphore"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "semaphore"); }
    LockCapabilities capabilities() const override;
    // Permits are added to it; a latch nobody waits on looks the same (the classifier says so), so it may be opened
    // as one; a permit given back finds none taken (an expirable semaphore with permits out is listed as one).
    bool allows(LockAction action) const override
    {
        return action == LockAction::AddPermits || action == LockAction::OpenLatch
            || action == LockAction::ReleasePermit;
    }
    QByteArray releaseChannel(const QByteArray &name) const override { return channel(name); }
    // Its waiters' channel names it: a semaphore someone waits on is found without a declared pattern.
    QList<QByteArray> vouchingChannelPatterns() const override { return { QByteArrayLiteral("redisson_sc:*") }; }
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish) const override;
    void readStringAux(AuxReader &reader) const override;
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;

    static QByteArray channel(const QByteArray &name); // redisson_sc:{N}
    // "Add permits" (an RSemaphore's or an expirable one's): permits more are free, and the waiters told.
    static ScriptCall addPermits(const QByteArray &name, qint64 permits, const QByteArray &publish);

protected:
    // The listeners on redisson_sc:{N}: its waiters (the expirable semaphore's too).
    void describeWaiters(const KeySnapshot &key, LockInfo &info) const;
};

} // namespace LockScope
