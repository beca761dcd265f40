#pragma once

#include "redis/redisvalue.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QTimer>

#include <functional>

namespace LockScope::Guide {

// The lease renewal of one emulated Redisson client, as Redisson 3.44+ and 4.x do it (its LockTask): one timer for
// all the client's locks, every third of the watchdog timeout, one batched script per tick renewing each lock by the
// field of the first thread that registered it; a lock answering 0 is dropped without a word to its holder, and the
// timer is not rescheduled once nothing is left to keep.
class RedissonWatchdog : public QObject
{
    Q_OBJECT
public:
    using Reply = std::function<void(const RedisValue &)>;
    // Sends the batched renewal: KEYS the locks, ARGV the lease then one owner per lock.
    using Send = std::function<void(const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done)>;

    RedissonWatchdog(
        int timeoutMs, std::function<QByteArray(qint64 thread)> owner, Send send, QObject *parent = nullptr);

    // One more level of the thread's hold on the lock to keep alive; the first one arms the timer.
    void add(const QByteArray &name, qint64 thread);
    // After an unlock: one level less (all of them after a full release).
    void cancel(const QByteArray &name, qint64 thread, bool all);
    // A force unlock: the lock is cancelled client-side, whoever held it.
    void forget(const QByteArray &name) { m_renewals.remove(name); }
    void stop();

signals:
    void dropped(const QByteArray &name); // its renewal answered 0
    void stopped(); // a tick left nothing to keep

private:
    void tick();

    int m_timeoutMs;
    std::function<QByteArray(qint64)> m_owner;
    Send m_send;
    QMap<QByteArray, QList<QPair<qint64, int>>> m_renewals; // lock -> (thread, levels), first registered first
    QTimer m_timer;
    bool m_inFlight = false;
    bool m_stopped = false;
};

} // namespace LockScope::Guide
