#pragma once

#include "monitor/lockmonitor.h"
#include "stats/lockstatistics.h"

#include <QObject>

namespace LockScope {

// Feeds a LockStatistics from a LockMonitor: every event, and every read of a lock for its waiters and whether it is
// held. Events count as measured while the monitor follows keyspace events, else inferred.
class StatsCollector : public QObject
{
    Q_OBJECT
public:
    StatsCollector(LockMonitor *monitor, LockStatistics::Options options = {}, QObject *parent = nullptr);

    const LockStatistics &statistics() const { return m_stats; }
    LockMonitor *monitor() const { return m_monitor; }
    FigureSource currentSource() const;
    // What the current update mode cannot see, for people; empty with keyspace events.
    QStringList blindSpots() const;
    static qint64 nowMs(); // the epoch clock events are stamped with

signals:
    void updated(); // after each batch of events or reads was folded in

private:
    LockMonitor *m_monitor;
    LockStatistics m_stats;
};

} // namespace LockScope
