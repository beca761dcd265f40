#pragma once

#include "commands.h"

#include <QHash>
#include <QSet>
#include <QStringList>

namespace LockScope {
struct LockInfo;
class HolderWatch;
class LockMonitor;
} // namespace LockScope

namespace LockScope::Cli {

// stuck [--pattern GLOB] [--observe MS] [--json]: the console's Stuck rules (stats/stuckcheck.h) over every lock
// matching the pattern, and the deadlocks among named waiters (liveness/blockers.h): one entry per problem, with
// since when, who holds the lock and what fixes it. One read by default; with --observe the locks are watched for MS
// first, so that renewals that stopped and waiters left on a free lock can be seen. A node that could not be read
// makes the answer partial, and it says so. Exit 0 whether or not anything is stuck.
class StuckCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void observe(int observeMs);
    // Follows the locks found free with waiters, as the console's Stuck view does: since when each has been so.
    void followFreeWithWaiters(const LockMonitor *monitor, const QList<QByteArray> &names, qint64 nowMs);
    // The final pass over the pattern (after the observation, if any): what is there now, and what could not be seen.
    void scan(const LockMonitor *monitor);
    void report(
        const QList<LockInfo> &found, const HolderWatch &watch, const QStringList &partial, const LockMonitor *monitor);

    int m_observeMs = 0;
    QHash<QByteArray, qint64> m_freeWithWaitersSince; // monotonic ms
    QSet<QByteArray> m_freeWithWaitersFromStart; // so when the first pass met them: since when is not known
    QSet<QByteArray> m_seenOtherwise; // seen held, or free with nobody waiting, during the observation
    qint64 m_snapshotDoneMs = -1; // monotonic ms the observation's first pass ended; -1: not yet
    QString m_observeError; // the observation's first pass failed: why
    bool m_scanning = false;
};

} // namespace LockScope::Cli
