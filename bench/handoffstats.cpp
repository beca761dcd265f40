#include "handoffstats.h"

#include "benchcommon.h"

#include <algorithm>
#include <limits>

namespace LockScope::Bench {

bool parseWorkerLog(const QByteArray &log, int worker, std::vector<ContestEvent> *events, QString *error)
{
    bool done = false;
    for (const QByteArray &line : log.split('\n')) {
        if (line.isEmpty() || line == "ready")
            continue;
        if (line == "done") {
            done = true;
            continue;
        }
        bool ok = false;
        const qint64 ns = line.mid(2).toLongLong(&ok);
        const char kind = line.at(0);
        if (!ok || line.size() < 3 || line.at(1) != ' ' || (kind != 'W' && kind != 'A' && kind != 'R')) {
            *error = QStringLiteral("worker %1 wrote an unexpected line: %2").arg(worker).arg(QString::fromUtf8(line));
            return false;
        }
        events->push_back({ ns, kind, worker });
    }
    if (!done)
        *error = QStringLiteral("worker %1's log has no \"done\" line").arg(worker);
    return done;
}

ContestFigures analyseContest(std::vector<ContestEvent> events, int processes, qint64 goNs, qint64 leaseMs)
{
    ContestFigures f;
    f.processes = processes;
    f.perWorker.assign(size_t(processes), 0);
    // Once the first worker stops, fewer processes contend: measure only while all of them do.
    std::vector<qint64> lastRelease(size_t(processes), -1);
    for (const auto &e : events)
        if (e.kind == 'R')
            lastRelease[size_t(e.worker)] = std::max(lastRelease[size_t(e.worker)], e.ns);
    qint64 cutoff = std::numeric_limits<qint64>::max();
    for (const qint64 ns : lastRelease)
        cutoff = std::min(cutoff, ns);
    f.windowNs = cutoff - goNs;

    std::stable_sort(events.begin(), events.end(), [](const auto &a, const auto &b) { return a.ns < b.ns; });
    std::vector<double> all, other, same;
    std::vector<qint64> waitStart(size_t(processes), -1);
    int holder = -1;
    ContestEvent previousRelease { 0, 0, -1 };
    qint64 maxWaitNs = 0;
    for (const auto &e : events) {
        if (e.ns > cutoff)
            break;
        switch (e.kind) {
        case 'W':
            waitStart[size_t(e.worker)] = e.ns;
            break;
        case 'A': {
            if (holder >= 0)
                ++f.overlaps;
            holder = e.worker;
            ++f.acquisitions;
            ++f.perWorker[size_t(e.worker)];
            if (waitStart[size_t(e.worker)] >= 0)
                maxWaitNs = std::max(maxWaitNs, e.ns - waitStart[size_t(e.worker)]);
            if (previousRelease.worker < 0)
                break;
            const double us = double(e.ns - previousRelease.ns) / 1e3;
            all.push_back(us);
            (e.worker == previousRelease.worker ? same : other).push_back(us);
            if (us > double(leaseMs) * 1e3 / 2)
                ++f.ttlWaits;
            break;
        }
        case 'R':
            if (holder == e.worker)
                holder = -1;
            previousRelease = e;
            break;
        }
    }
    f.handoffs = qint64(all.size());
    f.toOtherProcess = qint64(other.size());
    f.toSameProcess = qint64(same.size());
    f.medianUs = median(all);
    f.p99Us = percentile(all, 99);
    f.maxMs = all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()) / 1e3;
    f.medianOtherUs = median(other);
    f.medianSameUs = median(same);
    f.maxWaitMs = double(maxWaitNs) / 1e6;
    return f;
}

} // namespace LockScope::Bench
