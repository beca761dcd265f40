#pragma once

#include "statscommands.h"

class QHttpServer;

namespace LockScope {
class StuckScan;
}

namespace LockScope::Cli {

// serve-metrics [--listen HOST:PORT] [--limit N]: the statistics at http://HOST:PORT/metrics in the OpenMetrics text
// format (or the classic Prometheus text when the client does not ask for OpenMetrics) until SIGINT or SIGTERM.
// Loopback unless the address says otherwise; port 0 picks a free port. The address served is printed once
// ({"listening": URL} with --json). Per-lock series for the --limit (default 20) most contended locks only.
class ServeMetricsCommand : public StatsWatchCommand
{
    Q_OBJECT
public:
    using StatsWatchCommand::StatsWatchCommand;
    void start() override;

private:
    // Says on standard error when the counts start to mean something: the first pass is in and changes are followed.
    void snapshotReady() override;
    QByteArray page(const QByteArray &accept) const;

    QHttpServer *m_server = nullptr;
    StuckScan *m_stuck = nullptr; // the stuck gauges, judged between scrapes
    int m_limit = 20;
};

} // namespace LockScope::Cli
