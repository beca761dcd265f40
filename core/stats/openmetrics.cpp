#include "stats/openmetrics.h"

#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"

#include <map>

namespace LockScope {

QList<KindGauge> kindGauges(const LockMonitor &monitor)
{
    // The monitor's tally, kept as records change: a scrape costs the few dozen kinds and libraries seen, not a walk
    // of every lock. Ordered by kind name, then library; kinds that share a name share an entry.
    std::map<std::pair<QByteArray, QByteArray>, KindGauge> byKind;
    for (const auto &[key, count] : monitor.kindTally().entries()) {
        const QByteArray kind = LockInfo::kindName(key.first);
        KindGauge &g = byKind[{ kind, key.second }];
        g.kind = kind;
        g.library = key.second;
        g.locks += count.locks;
        g.held += count.held;
        g.waiters += count.waiters;
    }
    QList<KindGauge> all;
    all.reserve(qsizetype(byKind.size()));
    for (const auto &[key, g] : byKind)
        all << g;
    return all;
}

QByteArray metricsContentType(MetricsPage::Format format)
{
    return format == MetricsPage::Format::OpenMetrics
        ? QByteArrayLiteral("application/openmetrics-text; version=1.0.0; charset=utf-8")
        : QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

MetricsPage::Format metricsFormatFor(const QByteArray &accept)
{
    return accept.contains("application/openmetrics-text") ? MetricsPage::Format::OpenMetrics
                                                           : MetricsPage::Format::Text;
}

namespace {

QByteArray labelValue(const QByteArray &bytes)
{
    // Label values are UTF-8 text: a binary name is written as it is shown everywhere else, then escaped for the
    // exposition (backslash, double quote, line feed).
    QByteArray out;
    const QByteArray text = jsonText(bytes).toUtf8();
    out.reserve(text.size() + 8);
    for (const char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray number(double v)
{
    if (v == double(qint64(v)))
        return QByteArray::number(qint64(v));
    return QByteArray::number(v, 'g', 12);
}

class Writer
{
public:
    explicit Writer(MetricsPage::Format format)
        : m_openMetrics(format == MetricsPage::Format::OpenMetrics)
    { }

    // A family: its metadata once. A counter's samples end in _total; OpenMetrics names the family without it, the
    // classic format with it.
    void family(const char *name, const char *type, const char *help)
    {
        QByteArray declared = name;
        QByteArray declaredType = type;
        if (!m_openMetrics && declaredType == "counter")
            declared += "_total";
        if (!m_openMetrics && declaredType == "info") {
            declared += "_info";
            declaredType = "gauge";
        }
        m_out += "# HELP " + declared + ' ' + help + '\n';
        m_out += "# TYPE " + declared + ' ' + declaredType + '\n';
    }
    void sample(const QByteArray &name, const QList<QPair<const char *, QByteArray>> &labels, double value)
    {
        m_out += name;
        if (!labels.isEmpty()) {
            m_out += '{';
            bool first = true;
            for (const auto &[key, value] : labels) {
                if (!first)
                    m_out += ',';
                first = false;
                m_out += key;
                m_out += "=\"";
                m_out += value;
                m_out += '"';
            }
            m_out += '}';
        }
        m_out += ' ';
        m_out += number(value);
        m_out += '\n';
    }
    QByteArray finish()
    {
        if (m_openMetrics)
            m_out += "# EOF\n";
        return m_out;
    }

private:
    bool m_openMetrics;
    QByteArray m_out;
};

} // namespace

QByteArray renderMetrics(const LockStatistics &statistics, const MetricsPage &page)
{
    Writer w(page.format);
    using Labels = QList<QPair<const char *, QByteArray>>;

    w.family("lockscope_monitor", "info", "How LockScope follows the server.");
    w.sample("lockscope_monitor_info", { { "mode", labelValue(page.mode) }, { "server", labelValue(page.server) } }, 1);

    const auto kindLabels = [](const QByteArray &kind, const QByteArray &library) {
        return Labels { { "kind", labelValue(kind) }, { "library", labelValue(library) } };
    };
    w.family("lockscope_locks", "gauge", "Locks present now.");
    for (const KindGauge &g : page.gauges)
        w.sample("lockscope_locks", kindLabels(g.kind, g.library), double(g.locks));
    w.family("lockscope_locks_held", "gauge", "Locks held now.");
    for (const KindGauge &g : page.gauges)
        w.sample("lockscope_locks_held", kindLabels(g.kind, g.library), double(g.held));
    w.family("lockscope_waiters", "gauge", "Known waiters now (subscribed to a wake-up channel, or queued).");
    for (const KindGauge &g : page.gauges)
        w.sample("lockscope_waiters", kindLabels(g.kind, g.library), double(g.waiters));
    w.family("lockscope_stuck_locks", "gauge", "Locks that something keeps from being taken now, by problem.");
    for (const auto &[problem, count] : page.stuck.problems)
        w.sample("lockscope_stuck_locks", { { "problem", labelValue(problem) } }, double(count));
    w.family("lockscope_oldest_hold_seconds", "gauge", "How long the longest hold present has lasted, as far as seen.");
    w.sample("lockscope_oldest_hold_seconds", {}, page.stuck.oldestHoldSeconds);
    if (page.reap.enabled) {
        const QByteArray policy = labelValue(page.reap.policy);
        w.family("lockscope_reap_candidates", "gauge", "Locks the reaper's last report would release, by rule.");
        for (const auto &[rule, count] : page.reap.candidates)
            w.sample(
                "lockscope_reap_candidates", { { "policy", policy }, { "rule", labelValue(rule) } }, double(count));
        const QPair<const char *, quint64> runs[] = { { "lockscope_reap_released", page.reap.released },
            { "lockscope_reap_left_alone", page.reap.leftAlone }, { "lockscope_reap_failed", page.reap.failed } };
        const char *helps[] = { "Lock holds the reaper released.",
            "Lock holds the reaper left alone: changed since its report, or over its quota.",
            "Lock holds the reaper's release failed for." };
        for (int i = 0; i < 3; ++i) {
            w.family(runs[i].first, "counter", helps[i]);
            w.sample(QByteArray(runs[i].first) + "_total", { { "policy", policy } }, double(runs[i].second));
        }
    }

    struct Counter
    {
        const char *name;
        const char *help;
        quint64 KindTotals::*field;
    };
    const Counter counters[] = {
        { "lockscope_acquisitions", "Acquisitions seen since the monitor started.", &KindTotals::acquisitions },
        { "lockscope_releases", "Holds that ended in a release.", &KindTotals::releases },
        { "lockscope_expiries", "Leases that ran out: a dead or slow holder.", &KindTotals::expiries },
        { "lockscope_force_releases", "Locks deleted without their owner's unlock.", &KindTotals::forceReleases },
        { "lockscope_owner_changes", "A new owner without a release of the old one.", &KindTotals::ownerChanges },
        { "lockscope_handoffs", "Another owner took a lock within a second of its release.", &KindTotals::handoffs },
        { "lockscope_renewal_gaps",
            "Renewals that came half a period or more past the holder's usual rhythm: pauses it survived.",
            &KindTotals::renewalGaps },
    };
    for (const Counter &c : counters) {
        w.family(c.name, "counter", c.help);
        for (const auto &[key, t] : statistics.totals())
            w.sample(QByteArray(c.name) + "_total", kindLabels(key.first, key.second), double(t.*(c.field)));
    }

    // Per lock: the most contended only, so the series stay bounded however many locks there are.
    const QList<const LockStats *> top = statistics.ranked(page.nowMs, page.topLocks);
    const auto lockLabels = [](const LockStats &l) {
        return Labels { { "lock", labelValue(l.name) }, { "kind", labelValue(l.kind) },
            { "library", labelValue(l.library) } };
    };
    w.family("lockscope_lock_acquisitions", "counter", "Acquisitions of one of the most contended locks.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_acquisitions_total", lockLabels(*l), double(l->acquisitions));
    w.family("lockscope_lock_expiries", "counter", "Leases of one of the most contended locks that ran out.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_expiries_total", lockLabels(*l), double(l->expiries));
    w.family("lockscope_lock_hold_seconds", "summary", "How long holds of one of the most contended locks lasted.");
    for (const LockStats *l : top) {
        if (l->holds.count() > 0) {
            for (const auto &[q, text] : { std::pair { 0.5, "0.5" }, { 0.95, "0.95" }, { 1.0, "1" } }) {
                Labels labels = lockLabels(*l);
                labels << QPair<const char *, QByteArray> { "quantile", text };
                w.sample("lockscope_lock_hold_seconds", labels, double(l->holds.quantile(q)) / 1000.0);
            }
        }
        w.sample("lockscope_lock_hold_seconds_sum", lockLabels(*l), l->holds.sumMs() / 1000.0);
        w.sample("lockscope_lock_hold_seconds_count", lockLabels(*l), double(l->holds.count()));
    }
    // The lease advisor's live figures: a fixed lease the work outgrows shows before a hold expires under it.
    w.family("lockscope_lock_lease_seconds", "gauge",
        "The lease the latest hold of one of the most contended locks "
        "was taken with.");
    for (const LockStats *l : top)
        if (l->leaseMs > 0)
            w.sample("lockscope_lock_lease_seconds", lockLabels(*l), double(l->leaseMs) / 1000.0);
    w.family("lockscope_lock_fixed_lease_holds", "counter",
        "Holds with a fixed lease (never renewed) of one of the most contended locks that ended.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_fixed_lease_holds_total", lockLabels(*l), double(l->fixedLeaseHolds));
    w.family("lockscope_lock_fixed_lease_holds_past_two_thirds", "counter",
        "Of those, the holds that outlived two thirds of their lease: the lease is too short for the work.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_fixed_lease_holds_past_two_thirds_total", lockLabels(*l),
            double(l->fixedLeaseHoldsPastTwoThirds));
    w.family("lockscope_lock_waiters", "gauge", "Waiters of one of the most contended locks now.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_waiters", lockLabels(*l), l->waitersNow);
    w.family("lockscope_lock_waiter_seconds", "counter", "Time spent waiting on one of the most contended locks.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_waiter_seconds_total", lockLabels(*l), l->waiterMs / 1000.0);
    w.family("lockscope_lock_contention", "gauge",
        "Waiter-seconds over the last minutes (decayed, half-life one minute) of one of the most contended locks.");
    for (const LockStats *l : top)
        w.sample("lockscope_lock_contention", lockLabels(*l), statistics.recent(*l, page.nowMs).waiterSeconds);

    w.family("lockscope_tracked_locks", "gauge", "Locks with statistics kept (bounded).");
    w.sample("lockscope_tracked_locks", {}, double(statistics.locks().size()));
    w.family(
        "lockscope_tracked_locks_dropped", "counter", "Quiet locks whose statistics were dropped to stay bounded.");
    w.sample("lockscope_tracked_locks_dropped_total", {}, double(statistics.evictedLocks()));
    return w.finish();
}

} // namespace LockScope
