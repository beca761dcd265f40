#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

// When the monitor's full SCAN passes run: the first one once the event feeds are live (or after 2 s without
// them), one more right after a pass that something may have outrun, and re-scans paced by the last pass's cost
// when events do not tell every change.
class PassScheduler : public QObject
{
    Q_OBJECT
public:
    // canStart: false while which nodes to scan is not known yet; the pass then waits for nodesKnown().
    PassScheduler(int rescanIntervalMs, std::function<bool()> canStart, QObject *parent = nullptr);

    // The first pass waits for the subscriptions: a lock taken after the pass went by and before events arrive would
    // otherwise stay unseen until it next changes. A feed that cannot subscribe does not hold it up long.
    void armFirstPass();
    void startPass();
    void nodesKnown();
    // A pass now, or one more right after the running one.
    void passAgain();
    // One more after the running one, if one runs (keys may have moved past it).
    void againIfRunning();
    bool isRunning() const { return m_running; }
    // The running pass ended (moved: the slot map changed meanwhile, so one more is due). Returns whether one more
    // must start at once.
    bool finish(bool moved);
    // The next re-scan, after the pause.
    void scheduleRescan() { m_rescanTimer.start(m_pauseMs); }
    // The feeds' combined mode settled (keyspace: every change arrives as an event).
    void feedsLive(bool keyspace, bool initialDone);
    // The configured interval, or ten times the last pass's duration when that is longer.
    int pauseMs() const { return m_pauseMs; }

signals:
    void passStarting();

private:
    int m_rescanIntervalMs;
    std::function<bool()> m_canStart;
    bool m_running = false;
    bool m_again = false;
    bool m_waitsForNodes = false;
    bool m_beforeEvents = false; // the first pass started before the subscriptions were confirmed
    QElapsedTimer m_clock;
    int m_pauseMs;
    QTimer m_rescanTimer;
    QTimer m_firstPassTimer;
};

} // namespace LockScope
