#pragma once

#include "guide/guiderecord.h"
#include "guide/guidescripts.h"

#include <QObject>

#include <optional>

namespace LockScope::Guide {

// One emulated Redisson client as the player drives it: in the player's own process (RedissonClient), or in a child
// process of its own (ProcessClient) for the scenarios whose point is a holder that crashes or freezes.
class GuideClient : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual QByteArray owner(qint64 thread) const = 0;
    // The Java calls (RedissonClient says how each behaves). Each reports its commands and its threads' events as
    // GuideRecords through record().
    virtual void lock(qint64 thread, const QByteArray &name, qint64 leaseMs) = 0;
    virtual void tryLock(qint64 thread, const QByteArray &name, qint64 waitMs, qint64 leaseMs) = 0;
    virtual void unlock(qint64 thread, const QByteArray &name, bool dropReply, std::optional<UnlockEffect> effect) = 0;
    virtual void retryUnlock(qint64 thread, const QByteArray &name) = 0;
    virtual void forceUnlock(qint64 thread, const QByteArray &name) = 0;
    virtual void raw(qint64 thread, const QList<QByteArray> &argv) = 0;
    // Ends the client: timers and waits stopped, connections closed (a process client is killed).
    virtual void stop() = 0;

    // What a teacher does to a client's process: kill -9, SIGSTOP, SIGCONT. A client that runs inside the player
    // has no process of its own and refuses (false).
    enum class Signal { Kill, Freeze, Thaw };
    virtual bool sendSignal(Signal signal)
    {
        Q_UNUSED(signal)
        return false;
    }
    // A client that must start before the scenario does (a process) says when it is ready, or why it failed.
    virtual bool startsLater() const { return false; }

signals:
    void record(const LockScope::Guide::GuideRecord &record);
    void ready();
    void failed(const QString &error);
};

} // namespace LockScope::Guide
