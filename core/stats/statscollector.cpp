#include "stats/statscollector.h"

#include <QCoreApplication>
#include <QDateTime>

namespace LockScope {

StatsCollector::StatsCollector(LockMonitor *monitor, LockStatistics::Options options, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_stats(options, nowMs())
{
    connect(monitor, &LockMonitor::locksChanged, this, [this](const LockMonitor::Changes &changes) {
        const qint64 now = nowMs();
        for (const QByteArray &name : changes.updated) {
            const LockRecord *r = m_monitor->record(name);
            m_stats.observe(name, r ? &r->info : nullptr, now);
        }
        for (const QByteArray &name : changes.removed)
            m_stats.observe(name, nullptr, now);
        emit updated();
    });
    connect(monitor, &LockMonitor::eventsOccurred, this, [this](const QList<LockEvent> &events) {
        const FigureSource source = currentSource();
        for (const LockEvent &e : events) {
            const LockRecord *r = m_monitor->record(e.name);
            m_stats.addEvent(e, r ? &r->info : nullptr, source);
        }
        emit updated();
    });
}

qint64 StatsCollector::nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

FigureSource StatsCollector::currentSource() const
{
    return m_monitor->mode() == LockEventFeed::Mode::KeyspaceEvents ? FigureSource::Measured : FigureSource::Inferred;
}

QStringList StatsCollector::blindSpots() const
{
    if (m_monitor->mode() == LockEventFeed::Mode::KeyspaceEvents)
        return {};
    const int interval = m_monitor->rescanPauseMs();
    return {
        tr("without keyspace events a hold shorter than the re-scan interval (%1 ms) is not seen: acquisitions are a "
           "lower bound")
            .arg(interval),
        tr("hold times are known to the re-scan interval only"),
        tr("an expiry is told from a release by the lease's deadline, not by the server's word"),
    };
}

} // namespace LockScope
