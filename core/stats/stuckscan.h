#pragma once

#include "stats/openmetrics.h"
#include "stats/stuckcheck.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace LockScope {

class LockMonitor;

// serve-metrics' stuck gauges, judged a slice of locks at a time between scrapes: a scrape reads the last complete
// round and walks nothing (issue 36: at a million locks a walk per scrape took seconds). A round starts every
// intervalMs; each slice judges sliceSize present locks and yields to the event loop, so a scrape is never held up.
class StuckScan : public QObject
{
    Q_OBJECT
public:
    explicit StuckScan(
        const LockMonitor *monitor, int intervalMs = 15000, int sliceSize = 500, QObject *parent = nullptr);
    void start();
    // The last complete round (every problem at 0 before the first).
    StuckGauges last() const { return m_last; }
    int rounds() const { return m_rounds; }

signals:
    void roundFinished();

private:
    void beginRound();
    void step();

    const LockMonitor *m_monitor;
    int m_sliceSize;
    QTimer m_interval;
    QList<QByteArray> m_names; // this round's locks, as present when it began
    qsizetype m_next = 0;
    QHash<StuckFinding::Reason, qint64> m_counts;
    double m_oldest = 0;
    StuckGauges m_last;
    int m_rounds = 0;
    bool m_running = false;
};

} // namespace LockScope
