#pragma once

#include "kinds/locktypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>

#include <functional>
#include <memory>

class QTimer;

namespace LockScope {

class LockClient;
class RedisSubscriptions;

// The waiting half of acquire, as Redisson does it: one subscription per lock shared by every local waiter;
// subscribe, wait for the server's confirmation, try again, then sleep until a wake-up message or until the
// holder's TTL runs out, whichever is first. "0" wakes one local waiter, "1" wakes all. A message that finds
// nobody asleep is kept as a permit, so a release that lands while a try is in flight is not lost.
class LockWaiters : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const AcquireResult &)>;

    LockWaiters(LockClient *client, RedisSubscriptions *subscriber);
    ~LockWaiters() override;

    void wait(const AcquireRequest &request, const QByteArray &owner, const QByteArray &channel,
        const AcquireResult &firstTry, Done done);
    int waiterCount() const;
    // Ends owner's waits on the channel; one whose try is on the wire ends when it answers (releasing a win).
    void cancel(const QByteArray &channel, const QByteArray &owner);

private:
    struct Waiter;
    struct Entry
    {
        QList<std::shared_ptr<Waiter>> waiters;
        int permits = 0;
        bool confirmed = false;
        QList<int> kinds; // RedisSubscriptions::Kind values subscribed for this channel
    };

    void onMessage(const QByteArray &channel, const QByteArray &payload);
    void onConfirmed(const QByteArray &channel, const RedisError &error);
    void attempt(const QByteArray &channel, const std::shared_ptr<Waiter> &w);
    void sleep(const QByteArray &channel, const std::shared_ptr<Waiter> &w, qint64 ttlMs);
    void finish(const QByteArray &channel, const std::shared_ptr<Waiter> &w, AcquireResult result);
    void wakeAll(const QByteArray &channel);

    LockClient *m_client;
    RedisSubscriptions *m_subscriber;
    QHash<QByteArray, Entry> m_entries;
    QElapsedTimer m_clock;
};

} // namespace LockScope
