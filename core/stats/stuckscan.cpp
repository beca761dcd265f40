#include "stats/stuckscan.h"

#include "monitor/lockmonitor.h"

#include <QDateTime>
#include <QSet>

namespace LockScope {

namespace {
StuckGauges gaugesOf(const QHash<StuckFinding::Reason, qint64> &counts, double oldest)
{
    StuckGauges g;
    for (const StuckFinding::Reason reason : StuckFinding::reasons())
        g.problems << qMakePair(StuckFinding::problemId(reason), counts.value(reason));
    g.oldestHoldSeconds = oldest;
    return g;
}
} // namespace

StuckScan::StuckScan(const LockMonitor *monitor, int intervalMs, int sliceSize, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_sliceSize(qMax(1, sliceSize))
    , m_last(gaugesOf({}, 0))
{
    m_interval.setInterval(intervalMs);
    connect(&m_interval, &QTimer::timeout, this, &StuckScan::beginRound);
}

void StuckScan::start()
{
    m_interval.start();
    beginRound();
}

void StuckScan::beginRound()
{
    if (m_running)
        return; // the last round is still going: a slow machine skips a tick rather than piling rounds up
    m_running = true;
    m_names = m_monitor->lockNames();
    m_next = 0;
    m_counts.clear();
    m_oldest = 0;
    step();
}

void StuckScan::step()
{
    const qint64 nowMs = monotonicMs();
    const qint64 epochMs = QDateTime::currentMSecsSinceEpoch();
    const StuckOptions options;
    const qsizetype end = qMin(m_names.size(), m_next + m_sliceSize);
    for (; m_next < end; ++m_next) {
        const LockRecord *record = m_monitor->record(m_names.at(m_next));
        if (!record || !record->present)
            continue; // gone since the round began
        QSet<StuckFinding::Reason> seen; // a lock counts once per problem
        for (const StuckFinding &f : findStuck(*record, nowMs, epochMs, options))
            if (!seen.contains(f.reason)) {
                seen << f.reason;
                ++m_counts[f.reason];
            }
        if (!record->info.holders.isEmpty() && record->holdSinceMs > 0)
            m_oldest = qMax(m_oldest, double(nowMs - record->holdSinceMs) / 1000.0);
    }
    if (m_next < m_names.size()) {
        QTimer::singleShot(0, this, &StuckScan::step); // the rest after whatever else waits (a scrape)
        return;
    }
    m_names.clear();
    m_last = gaugesOf(m_counts, m_oldest);
    m_running = false;
    ++m_rounds;
    emit roundFinished();
}

} // namespace LockScope
