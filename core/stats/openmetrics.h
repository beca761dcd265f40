#pragma once

#include "stats/lockstatistics.h"

#include <QByteArray>
#include <QList>

namespace LockScope {

class LockMonitor;

// What is present now, per lock kind and library: the monitor's tally (LockMonitor::kindTally), kept as its records
// change, so a scrape does not walk the records.
struct KindGauge
{
    QByteArray kind;
    QByteArray library;
    qint64 locks = 0;
    qint64 held = 0;
    qint64 waiters = 0; // known waiters summed (subscribers, or queued threads)
};
QList<KindGauge> kindGauges(const LockMonitor &monitor);

// What keeps locks from being taken, by problem (the Stuck rules, stats/stuckcheck.h), and the oldest hold: what
// alert rules watch (packaging/prometheus/lockscope-alerts.yml). Judged between scrapes (stats/stuckscan.h).
struct StuckGauges
{
    QList<QPair<QByteArray, qint64>> problems; // every problem id, with how many locks have it (0 too)
    double oldestHoldSeconds = 0; // the longest hold present, as far as seen; 0: none held
};

// The guarded reaper run by serve-metrics (--reap-policy, reclaim/): what its last report found to release by rule, and
// what its runs did since it started.
struct ReapGauges
{
    bool enabled = false;
    QByteArray policy;
    QList<QPair<QByteArray, qint64>> candidates; // every rule, with how many locks its last report would release
    quint64 released = 0;
    quint64 leftAlone = 0; // changed between the report and the release, or over the quota
    quint64 failed = 0;
};

struct MetricsPage
{
    enum class Format {
        OpenMetrics, // application/openmetrics-text; version=1.0.0 (what Prometheus asks for first)
        Text, // text/plain; version=0.0.4, the classic format (curl, promtool check metrics)
    };
    Format format = Format::OpenMetrics;
    qint64 nowMs = 0;
    QByteArray mode; // the monitor's update mode
    QByteArray server; // host:port or what the connection shows
    int topLocks = 20; // per-lock series for at most this many locks, the most contended: bounded cardinality
    QList<KindGauge> gauges;
    StuckGauges stuck;
    ReapGauges reap;
};

// The exposition: totals per kind and library (bounded by the kinds and libraries known), and per-lock series for
// the top locks only, labelled lock, kind and library. Lock names that are not UTF-8 are escaped as everywhere else.
QByteArray renderMetrics(const LockStatistics &statistics, const MetricsPage &page);
QByteArray metricsContentType(MetricsPage::Format format);
// From a request's Accept header: OpenMetrics when it is asked for, else the classic text.
MetricsPage::Format metricsFormatFor(const QByteArray &accept);

} // namespace LockScope
