#pragma once

#include "base/rediserror.h"
#include "monitorraw.h"

#include <QByteArray>
#include <QEventLoop>
#include <QList>
#include <QStringList>

#include <functional>
#include <vector>

namespace LockScope {
class LockMonitor;
class LockTableModel;
} // namespace LockScope

namespace LockScope::Bench {

// The Qt side of bench_monitor: it drives the monitor through local event loops, one phase after another.

double ms(qint64 ns);
// A "VmHWM" or "VmRSS" figure of /proc/self/status, in MiB; -1 where there is no procfs.
double procStatusMb(const QByteArray &field);

// Spins the event loop until done() holds, or the timeout. Signal handlers call loop.quit() so done() is re-checked.
bool waitUntil(QEventLoop &loop, const std::function<bool()> &done, int timeoutMs);
void idle(QEventLoop &loop, int ms);

// A gap of the 10 ms probe timer longer than this is listed, with the rows the model had then.
constexpr double kLongGapMs = 25;

struct SnapshotRun
{
    bool finished = false;
    RedisError error;
    qint64 elapsedNs = 0;
    int keysSeen = 0;
    int rows = 0;
    double maxGapMs = 0;
    double maxBusyMs = 0; // the most CPU time this thread spent between two ticks of the probe
    int gapsOverLong = 0; // gaps over kLongGapMs
    int busyOverLong = 0; // of those, the ones this thread was busy for that long
    QStringList longGaps; // over kLongGapMs: where a stall comes from
};

// Starts the monitor and waits for its first complete pass (and for its event mode to be settled), while a 10 ms
// precise timer measures the longest the event loop went without serving it.
SnapshotRun takeSnapshot(QEventLoop &loop, LockMonitor *monitor, LockTableModel *model);

struct EventFigures
{
    std::vector<double> latencyMs; // send until the model's signal for that row
    std::vector<double> tailMs; // the model's signal until control is back in the event loop
    std::vector<double> busyLatencyMs; // the subset sent while the monitor had reads in flight (a re-scan pass)
    int missed = 0;
};

// For each name: arm() connects to the model's signal that shows the event (calling seen()), send() appends the raw
// client's command, which leaves at once; the clock runs from just before the write until seen(). Events are
// timed one at a time, with a short pause between them.
using Arm = std::function<void(QObject *scope, const QByteArray &name, std::function<void()> seen)>;
using Send = std::function<void(RawPipe &client, const QByteArray &name)>;
EventFigures measureEvents(QEventLoop &loop, RawPipe &client, LockMonitor *monitor, const QList<QByteArray> &names,
    const Arm &arm, const Send &send);
void reportEvents(const QString &what, const EventFigures &figures);

} // namespace LockScope::Bench
