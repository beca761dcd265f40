#pragma once

#include "benchcommon.h"
#include "handoffstats.h"

#include <QString>
#include <QStringList>

namespace LockScope::Bench {

class HiredisLoop;

// The worker processes take the URL from the environment, not argv, so a password never shows up in ps.
inline constexpr char handoffUrlVariable[] = "LOCKSCOPE_BENCH_URL";

struct HandoffSettings
{
    QString url;
    QByteArray lockName;
    double seconds = 2;
    qint64 leaseMs = 10000;
    QString eventsDir; // empty: keep the workers' logs in memory only
};

// A worker process's whole life (this program's --worker mode): the server from handoffUrlVariable, then
// runHandoffWorker on name. Returns its exit status.
int runWorkerFromEnvironment(const QByteArray &name, qint64 leaseMs, double seconds);

// One contest of LockScope's lock client: start `processes` copies of this program with workerArgs (its --worker
// mode, runHandoffWorker), wait until each has both connections up, say "go" to all at once, measure the loaded
// round trip with raw while they contend, collect and analyse their logs. Fails the bench when a worker does.
ContestFigures runWorkerContest(
    const HandoffSettings &settings, int processes, const QStringList &workerArgs, HiredisLoop &raw);

// One contest's figures: as a JSON object (bench_handoff's processes_N), and as a line for people.
JsonLine contestJson(const ContestFigures &f);
QString describeContest(const ContestFigures &f);

} // namespace LockScope::Bench
