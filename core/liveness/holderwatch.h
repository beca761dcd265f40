#pragma once

#include "clients/ownerdirectory.h"
#include "kinds/holderfacts.h"
#include "kinds/keyglob.h"
#include "liveness/livenessjudge.h"

#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <optional>

namespace LockScope {

class LockMonitor;
class LockStatistics;
class RedisRouter;

// Who holds each lock and whether it is alive, for the views and the CLI: the owner directory (traces, connection
// names) checked against CLIENT LIST, the monitor's renewals and the statistics' usual hold, judged per holder by
// judgeLiveness. Reads only: CLIENT LIST and INFO's run_id, on every master.
class HolderWatch : public QObject
{
    Q_OBJECT
public:
    explicit HolderWatch(RedisRouter *router, QObject *parent = nullptr);

    // Where renewals and usual holds come from; either may be absent (one read only: the CLI's show without --observe).
    void setMonitor(const LockMonitor *monitor) { m_monitor = monitor; }
    void setStatistics(const LockStatistics *statistics) { m_statistics = statistics; }

    // A trace's findings join the directory (and the next listing checks them).
    void addTrace(const TraceFindings &findings);
    // Reads CLIENT LIST (and the server's run_id) on every master now; done runs once every one answered.
    void readClients(std::function<void()> done = {});
    // CLIENT LIST again every intervalMs while some connection is known to speak for a holder, and the heartbeat keys
    // of the monitor's holders (owner templates); 0 stops.
    void setPollInterval(int intervalMs);
    // The owner templates the locks were read with: how old a heartbeat may be.
    void setStringPatterns(const StringLockPatterns &patterns) { m_patterns = patterns; }
    // Reads the heartbeat keys of these holders (PTTL and the value); done once answered.
    void readHeartbeats(const QList<LockHolder> &holders, std::function<void()> done = {});
    // Reads the waiters' lists that owner templates declare for these locks (their first 100 members); done once
    // answered. withQueue() then gives a lock with its template queue as its queue.
    void readQueues(const QList<LockInfo> &locks, std::function<void()> done = {});
    LockInfo withQueue(const LockInfo &lock) const;

    LivenessVerdict verdict(const LockInfo &lock, const LockHolder &holder) const;
    HolderFacts facts(const LockInfo &lock, const LockHolder &holder) const;
    HolderFactsSource factsSource() const;

    const OwnerDirectory &directory() const { return m_directory; }
    // The waiters that only retry, as the last trace saw them.
    QList<TraceFindings::Retrier> retriers() const { return m_retriers; }
    // What could not be seen ("CLIENT LIST denied: …", "node … did not answer"): the answers built on it are partial.
    QStringList partial() const { return m_partial; }

    // Whether the process a holder's token names (host and pid) runs on this machine; NotKnown when it names another
    // host or none.
    static LivenessInput::Process localProcess(const LockHolder &holder);

signals:
    void changed(); // a listing changed what is known of some holder

private:
    struct Heartbeat
    {
        qint64 pttlMs = -2;
        QByteArray value;
        qint64 readAtMs = 0; // epoch ms
    };
    void poll();
    // When a trace saw this holder's owner id send an unlock that did nothing (no level let go since, renewals going
    // on); -1: no such unlock.
    qint64 failedUnlockMs(const LockRecord &record, const LockHolder &holder, qint64 nowMs, qint64 epochMs) const;
    LivenessInput::Heartbeat heartbeatOf(
        const LockInfo &lock, const LockHolder &holder, qint64 epochMs, qint64 *ageMs) const;

    RedisRouter *m_router;
    const LockMonitor *m_monitor = nullptr;
    const LockStatistics *m_statistics = nullptr;
    OwnerDirectory m_directory;
    QStringList m_partial;
    QTimer m_poll;
    StringLockPatterns m_patterns;
    QList<TraceFindings::Retrier> m_retriers;
    QHash<QByteArray, QList<QByteArray>>
        m_queues; // a home-grown lock's name -> its waiters, as its template reads them
    QHash<QByteArray, Heartbeat> m_heartbeats; // heartbeat key -> its last reading
    mutable std::optional<HolderFacts> m_blankFacts; // the facts of a holder nothing is known of, once judged
    bool m_reading = false;
    bool m_denied = false; // CLIENT LIST was refused: not asked again
};

} // namespace LockScope
