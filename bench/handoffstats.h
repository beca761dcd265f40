#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace LockScope::Bench {

struct ContestEvent
{
    qint64 ns = 0;
    char kind = 0; // W (acquire called), A (acquired), R (release about to be sent)
    int worker = 0;
};

struct ContestFigures
{
    int processes = 0;
    qint64 windowNs = 0; // go .. the first worker's last release: every contender was still in the game
    qint64 acquisitions = 0; // in the window
    qint64 handoffs = 0; // acquisitions that followed a release (all but the very first)
    qint64 toOtherProcess = 0;
    qint64 toSameProcess = 0;
    double medianUs = 0;
    double p99Us = 0;
    double maxMs = 0;
    double medianOtherUs = 0;
    double medianSameUs = 0;
    qint64 ttlWaits = 0; // hand-offs longer than half the lease: someone sat out a TTL
    qint64 overlaps = 0; // an acquisition while another process still held the lock: must be 0
    double maxWaitMs = 0; // the longest single acquire() call, from W to A
    double loadedRttUs = 0; // PING round trip measured by the parent while the contenders ran
    std::vector<qint64> perWorker; // acquisitions per process
    double acquisitionsPerS() const { return windowNs > 0 ? double(acquisitions) * 1e9 / double(windowNs) : 0.0; }
};

// Parses one worker's log ("<kind> <ns>" lines, then "done"); false if the log is incomplete.
bool parseWorkerLog(const QByteArray &log, int worker, std::vector<ContestEvent> *events, QString *error);

// Merges every worker's events in time order; each acquisition's hand-off is the time since the immediately
// preceding release by any process.
ContestFigures analyseContest(std::vector<ContestEvent> events, int processes, qint64 goNs, qint64 leaseMs);

} // namespace LockScope::Bench
