#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace LockScope {

class LockRecordStore;
class RedisRouter;

// What one round of TTL polls read: each lock's PTTL, and the waiters listening on its wake-up channel.
struct TtlReadings
{
    qint64 sentAtMs = 0; // monotonic, when the round was sent
    QHash<QByteArray, qint64> ttls;
    QHash<QByteArray, int> waiters; // both namespaces added up
    QHash<QByteArray, int> shardWaiters; // of those, the shard channel's
};

// The clocks that make the monitor look at locks without an event: the one timer armed for the earliest lease
// deadline (a lock is read again as its lease runs out), and the PTTL and waiter polls of the watched locks, which
// show renewals and waiters coming and going.
class TtlWatch : public QObject
{
    Q_OBJECT
public:
    struct Sources
    {
        RedisRouter *connection = nullptr;
        const LockRecordStore *records = nullptr;
        std::function<bool()> ready; // whether a poll may go out (the first snapshot is complete)
        // Our own subscribers on a shard channel: the server counts them, and they are no waiters.
        std::function<int(const QByteArray &channel)> ownShardListeners;
        int watchAllLimit = 2000;
    };

    TtlWatch(Sources sources, QObject *parent = nullptr);

    void startPolling(int intervalMs);
    // The locks polled; empty: all, up to the limit.
    void setWatched(const QList<QByteArray> &names) { m_watched = QSet<QByteArray>(names.cbegin(), names.cend()); }
    void pushDeadline(const QByteArray &name, qint64 deadlineMs);

signals:
    // A present lock's lease ran out by its deadline: read it again.
    void deadlinePassed(const QByteArray &name);
    void polled(const LockScope::TtlReadings &readings);

private:
    void poll();
    void onDeadlines();
    void armDeadlineTimer();

    using Deadline = std::pair<qint64, QByteArray>;
    Sources m_sources;
    QSet<QByteArray> m_watched;
    QTimer m_pollTimer;
    bool m_pollInFlight = false;
    // In a deque: a vector of a million deadlines doubled in one step (tens of megabytes moved and touched, with the
    // window frozen while the first snapshot of a million locks loads); a deque grows a block at a time.
    std::priority_queue<Deadline, std::deque<Deadline>, std::greater<Deadline>> m_deadlines;
    QTimer m_deadlineTimer;
};

} // namespace LockScope
