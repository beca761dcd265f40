#include "monitor/passscheduler.h"

#include <utility>

namespace LockScope {

PassScheduler::PassScheduler(int rescanIntervalMs, std::function<bool()> canStart, QObject *parent)
    : QObject(parent)
    , m_rescanIntervalMs(rescanIntervalMs)
    , m_canStart(std::move(canStart))
    , m_pauseMs(rescanIntervalMs)
{
    m_rescanTimer.setSingleShot(true);
    connect(&m_rescanTimer, &QTimer::timeout, this, &PassScheduler::startPass);
    m_firstPassTimer.setSingleShot(true);
    connect(&m_firstPassTimer, &QTimer::timeout, this, [this] {
        m_beforeEvents = true;
        startPass();
    });
}

void PassScheduler::armFirstPass()
{
    m_firstPassTimer.start(2000);
}

void PassScheduler::startPass()
{
    if (m_running)
        return;
    if (!m_canStart()) {
        m_waitsForNodes = true; // which nodes to scan is not known yet
        return;
    }
    m_running = true;
    m_clock.start();
    emit passStarting();
}

void PassScheduler::nodesKnown()
{
    if (std::exchange(m_waitsForNodes, false))
        startPass();
}

void PassScheduler::passAgain()
{
    if (m_running)
        m_again = true;
    else
        startPass();
}

void PassScheduler::againIfRunning()
{
    if (m_running)
        m_again = true;
}

bool PassScheduler::finish(bool moved)
{
    m_running = false;
    if (moved)
        m_again = true;
    // A pass over a big keyspace takes seconds of this process's and the server's time: pausing at least ten times
    // as long keeps re-scans to a tenth of the time, however short the configured interval.
    m_pauseMs = int(qMax<qint64>(m_rescanIntervalMs, 10 * m_clock.elapsed()));
    return std::exchange(m_again, false);
}

void PassScheduler::feedsLive(bool keyspace, bool initialDone)
{
    if (m_firstPassTimer.isActive()) {
        m_firstPassTimer.stop();
        startPass();
    } else if (m_beforeEvents) {
        // The first pass ran before events flowed: one more closes the gap.
        m_beforeEvents = false;
        passAgain();
    }
    if (!keyspace && initialDone && !m_running && !m_rescanTimer.isActive())
        m_rescanTimer.start(m_rescanIntervalMs);
}

} // namespace LockScope
