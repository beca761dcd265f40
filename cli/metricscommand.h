#pragma once

#include "statscommands.h"

#include "reclaim/reappolicy.h"
#include "stats/openmetrics.h"

#include <optional>

class QHttpServer;

namespace LockScope {
class Recorder;
class ReapWatch;
class StuckScan;
struct ReapReport;
} // namespace LockScope

namespace LockScope::Cli {

// serve-metrics [--listen HOST:PORT] [--limit N]: the statistics at http://HOST:PORT/metrics in the OpenMetrics text
// format (or the classic Prometheus text when the client does not ask for OpenMetrics) until SIGINT or SIGTERM.
// Loopback unless the address says otherwise; port 0 picks a free port. The address served is printed once
// ({"listening": URL} with --json). Per-lock series for the --limit (default 20) most contended locks only.
// With --reap-policy FILE it also runs the guarded reaper every policy "every": each report is posted where --notify
// and --syslog say and counted in lockscope_reap_* series; an unattended policy's report is acted on (re-checked,
// released, audited), any other's only reported. It records every event into a recording unless --no-record
// (--db FILE; docs/recording.md): nobody starts a recorder before an incident.
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
    // metricsreap.cpp: --reap-policy.
    bool loadReapPolicy();
    void startReaper();
    void reapRound();
    void reapReported(const ReapReport &report);

    QHttpServer *m_server = nullptr;
    StuckScan *m_stuck = nullptr; // the stuck gauges, judged between scrapes
    int m_limit = 20;
    std::optional<ReapPolicy> m_reapPolicy;
    ReapWatch *m_reaper = nullptr;
    ReapGauges m_reapGauges;
    bool m_reaping = false; // a report or its run is under way: the next tick waits for it
    Recorder *m_recorder = nullptr;
};

} // namespace LockScope::Cli
