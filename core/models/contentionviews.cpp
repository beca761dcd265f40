#include "models/contentionviews.h"

#include "models/locktexts.h"

#include "kinds/locklayouts.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

namespace {
QVariant orNone(qint64 v)
{
    return v < 0 ? QVariant() : QVariant(v);
}

QStringList hotHeaders()
{
    return { ContentionViews::tr("Lock"), ContentionViews::tr("Kind"), ContentionViews::tr("Library"),
        ContentionViews::tr("Waiters"), ContentionViews::tr("Waiter-s (recent)"), ContentionViews::tr("Wait p50 ms"),
        ContentionViews::tr("Wait p95 ms"), ContentionViews::tr("Wait max ms"),
        ContentionViews::tr("Longest wait now ms"), ContentionViews::tr("Acq/min"), ContentionViews::tr("Acquisitions"),
        ContentionViews::tr("Hold p50 ms"), ContentionViews::tr("p95 ms"), ContentionViews::tr("max ms"),
        ContentionViews::tr("Expiries"), ContentionViews::tr("Owner changes"), ContentionViews::tr("Figures") };
}

QStringList stuckHeaders()
{
    return { ContentionViews::tr("Lock"), ContentionViews::tr("Kind"), ContentionViews::tr("Problem"),
        ContentionViews::tr("For (s)"), ContentionViews::tr("Held by"), ContentionViews::tr("What fixes it") };
}

QStringList clientHeaders()
{
    return { ContentionViews::tr("Client"), ContentionViews::tr("Host"), ContentionViews::tr("Holding now"),
        ContentionViews::tr("Acquisitions"), ContentionViews::tr("Expiries"), ContentionViews::tr("Takeovers"),
        ContentionViews::tr("Hold p95 ms") };
}

QByteArray clientIdOf(const LockHolder &h)
{
    return h.client.isEmpty() ? LockStatistics::clientOf(h.owner) : h.client;
}
} // namespace

ContentionViews::ContentionViews(LockMonitor *monitor, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_collector(new StatsCollector(monitor, {}, this))
    , m_hot(makeHotModel(this))
    , m_stuck(new KeyedTableModel({ "lock", "kind", "problem", "for_seconds", "held_by", "fix" }, stuckHeaders(), this))
    , m_clients(new KeyedTableModel(
          { "client", "host", "holding_now", "acquisitions", "expiries", "takeovers", "hold_p95_ms" }, clientHeaders(),
          this))
{
    connect(monitor, &LockMonitor::locksChanged, this, &ContentionViews::onLocksChanged);
    connect(&m_timer, &QTimer::timeout, this, &ContentionViews::refresh);
    m_timer.start(m_options.refreshMs);
}

void ContentionViews::setOptions(const Options &options)
{
    m_options = options;
    m_timer.start(m_options.refreshMs);
}

void ContentionViews::setStuckOptions(const StuckOptions &options)
{
    m_stuckOptions = options;
    followAllHolds();
}

void ContentionViews::followAllHolds()
{
    // A new threshold: every hold again, queued in the order its threshold passes.
    m_holdDue.clear();
    const qint64 now = monotonicMs(), epoch = StatsCollector::nowMs();
    for (const QByteArray &name : m_monitor->lockNames())
        judge(name, now, epoch, std::numeric_limits<qint64>::min());
    std::sort(m_holdDue.begin(), m_holdDue.end());
}

void ContentionViews::retranslate()
{
    m_hot->setHeaders(hotHeaders());
    m_stuck->setHeaders(stuckHeaders());
    m_clients->setHeaders(clientHeaders());
}

void ContentionViews::setHolders(const QByteArray &name, const LockRecord *record)
{
    const auto drop = [this](const QByteArray &client) {
        auto it = m_holding.find(client);
        if (it != m_holding.end() && --it->holding <= 0)
            m_holding.erase(it);
    };
    if (const auto one = m_holderOf.constFind(name); one != m_holderOf.cend()) {
        drop(*one);
        m_holderOf.erase(one);
    } else if (const auto many = m_holdersOf.constFind(name); many != m_holdersOf.cend()) {
        for (const QByteArray &client : *many)
            drop(client);
        m_holdersOf.erase(many);
    }
    if (m_limited || !record || !record->present || record->info.holders.isEmpty())
        return;
    if (m_holderOf.size() + m_holdersOf.size() >= m_options.indexLimit) {
        // Bounded: at this many locks the console's memory goes to the table, not to this index.
        m_limited = true;
        m_holderOf.clear();
        m_holdersOf.clear();
        m_holding.clear();
        m_holdDue.clear();
        return;
    }
    QList<QByteArray> clients;
    for (const LockHolder &h : record->info.holders) {
        const QByteArray id = clientIdOf(h);
        ClientNow &now = m_holding[id];
        ++now.holding;
        if (!h.host.isEmpty())
            now.host = h.host;
        clients << id;
    }
    // One holder is the common case: kept without a list (a list is one more allocation a lock).
    if (clients.size() == 1)
        m_holderOf.insert(name, clients.first());
    else
        m_holdersOf.insert(name, clients);
}

void ContentionViews::judge(const QByteArray &name, qint64 nowMs, qint64 epochMs, qint64 holdsFromMs)
{
    const LockRecord *record = m_monitor->record(name);
    const bool freeWithWaiters = record && record->present && record->info.holders.isEmpty()
        && qMax(qMax(record->info.waiters, 0), int(record->info.queue.size())) > 0;
    if (!freeWithWaiters)
        m_freeWithWaitersSince.remove(name);
    else if (!m_freeWithWaitersSince.contains(name))
        m_freeWithWaitersSince.insert(name, nowMs);
    const qint64 since = m_freeWithWaitersSince.value(name, -1);
    const QList<StuckFinding> found
        = record ? findStuck(*record, nowMs, epochMs, m_stuckOptions, since) : QList<StuckFinding>();
    if (found.isEmpty())
        m_findings.remove(name);
    else
        m_findings.insert(name, found);
    if (record) {
        if (!m_limited && record->present && !record->info.holders.isEmpty() && record->holdSinceMs >= holdsFromMs
            && record->holdSinceMs + m_stuckOptions.heldTooLongMs > nowMs)
            m_holdDue.emplace_back(record->holdSinceMs + m_stuckOptions.heldTooLongMs, name);
        const qint64 next = nextStuckCheckMs(*record, nowMs, epochMs, m_stuckOptions, since, false);
        // One entry a lock: the earliest moment that matters (a later one is scheduled when that one is judged).
        const auto at = m_recheckAt.constFind(name);
        if (next > 0 && (at == m_recheckAt.cend() || next < *at)) {
            m_recheckAt.insert(name, next);
            m_recheck.emplace(next, name);
        }
    }
}

void ContentionViews::onLocksChanged(const LockMonitor::Changes &changes)
{
    const qint64 now = monotonicMs(), epoch = StatsCollector::nowMs();
    // A hold that began after the previous batch is new here (a record's holdSinceMs is set when the monitor judges
    // the read, before the batch that announces it).
    const qint64 holdsFrom = m_previousChangesMs;
    m_previousChangesMs = now;
    for (const QByteArray &name : changes.updated) {
        setHolders(name, m_monitor->record(name));
        judge(name, now, epoch, holdsFrom);
    }
    for (const QByteArray &name : changes.removed) {
        setHolders(name, nullptr);
        m_findings.remove(name);
        m_freeWithWaitersSince.remove(name);
        m_recheckAt.remove(name);
    }
}

void ContentionViews::refresh()
{
    const qint64 now = monotonicMs(), epoch = StatsCollector::nowMs();
    // Locks whose findings time alone may have changed (a stale entry re-judges a lock once more: harmless).
    while (!m_recheck.empty() && m_recheck.begin()->first <= now) {
        const auto [at, name] = *m_recheck.begin();
        m_recheck.erase(m_recheck.begin());
        if (m_recheckAt.value(name, -1) != at)
            continue; // superseded by an earlier one
        m_recheckAt.remove(name);
        judge(name, now, epoch, std::numeric_limits<qint64>::max());
    }
    // Holds passing the threshold, oldest first (one that ended or began again meanwhile is judged as it is now).
    while (!m_holdDue.empty() && m_holdDue.front().first <= now) {
        const QByteArray name = m_holdDue.front().second;
        m_holdDue.pop_front();
        judge(name, now, epoch, std::numeric_limits<qint64>::max());
    }
    buildHot(epoch);
    buildStuck(now);
    buildClients();
    emit refreshed();
}

KeyedTableModel *ContentionViews::makeHotModel(QObject *parent)
{
    return new KeyedTableModel(
        { "lock", "kind", "library", "waiters", "waiter_seconds", "wait_p50_ms", "wait_p95_ms", "wait_max_ms",
            "longest_wait_ms", "acquisitions_per_minute", "acquisitions", "hold_p50_ms", "hold_p95_ms", "hold_max_ms",
            "expiries", "owner_changes", "figures" },
        hotHeaders(), parent);
}

void ContentionViews::buildHot(qint64 epochMs)
{
    m_hot->setRows(hotRows(statistics(), epochMs, m_options.hotRows));
}

QList<KeyedRow> ContentionViews::hotRows(const LockStatistics &s, qint64 epochMs, int limit)
{
    QList<KeyedRow> rows;
    for (const LockStats *l : s.ranked(epochMs, limit)) {
        const RecentFigures recent = s.recent(*l, epochMs);
        const bool inferred
            = l->acquisitionsSource() == FigureSource::Inferred || l->holdsSource() == FigureSource::Inferred;
        KeyedRow row;
        row.key = l->name;
        row.lock = l->name;
        row.cells = { escapeBytes(l->name, 200), LockLayouts::kindText(l->kind), QString::fromLatin1(l->library),
            l->waitersNow, recent.waiterSeconds, orNone(l->waits.quantile(0.5)), orNone(l->waits.quantile(0.95)),
            orNone(l->waits.max()), orNone(l->longestWaitMs(epochMs)), recent.acquisitionsPerMinute,
            qint64(l->acquisitions), orNone(l->holds.quantile(0.5)), orNone(l->holds.quantile(0.95)),
            orNone(l->holds.max()), qint64(l->expiries), qint64(l->ownerChanges),
            inferred ? tr("inferred") : tr("measured") };
        row.toolTip = (inferred ? tr("Inferred from re-scans and wake-up messages: holds shorter than a re-scan are "
                                     "missed, and times are known to the re-scan interval")
                                : tr("Measured from keyspace events"))
            + QLatin1Char('\n') + LockTexts::waitsText(*l, epochMs);
        rows << row;
    }
    return rows;
}

void ContentionViews::buildStuck(qint64 nowMs)
{
    struct Entry
    {
        QByteArray name;
        StuckFinding finding;
    };
    std::vector<Entry> all;
    for (auto it = m_findings.cbegin(); it != m_findings.cend(); ++it)
        for (const StuckFinding &f : it.value())
            all.push_back({ it.key(), f });
    // The longest standing first; unknown ages after them, by name.
    std::sort(all.begin(), all.end(), [](const Entry &a, const Entry &b) {
        const qint64 sa = a.finding.sinceMs < 0 ? std::numeric_limits<qint64>::max() : a.finding.sinceMs;
        const qint64 sb = b.finding.sinceMs < 0 ? std::numeric_limits<qint64>::max() : b.finding.sinceMs;
        if (sa != sb)
            return sa < sb;
        if (a.name != b.name)
            return a.name < b.name;
        return a.finding.reason < b.finding.reason;
    });
    QList<KeyedRow> rows;
    for (const Entry &e : all) {
        const LockRecord *record = m_monitor->record(e.name);
        QStringList holders;
        if (record)
            for (const LockHolder &h : record->info.holders)
                holders << escapeBytes(h.owner, 80);
        KeyedRow row;
        row.key = e.name + '\0' + StuckFinding::reasonId(e.finding.reason);
        row.lock = e.name;
        row.action = StuckFinding::fixId(e.finding.fix);
        row.cells = { escapeBytes(e.name, 200), record ? LockLayouts::kindText(record->info.kind) : QString(),
            StuckFinding::reasonText(e.finding.reason),
            e.finding.sinceMs < 0 ? QVariant() : QVariant(qMax<qint64>(0, nowMs - e.finding.sinceMs) / 1000),
            holders.join(QStringLiteral(", ")), StuckFinding::fixText(e.finding.fix) };
        row.toolTip = StuckFinding::fixText(e.finding.fix);
        rows << row;
    }
    m_stuck->setRows(rows);
}

void ContentionViews::buildClients()
{
    const LockStatistics &s = statistics();
    // Every client holding something now or with a history, by pointer (no copies: this runs every second over
    // what may be a hundred thousand clients); the top ones are sorted, the rest only partitioned.
    struct Entry
    {
        const QByteArray *id;
        int holding;
        quint64 acquisitions;
    };
    const QList<const ClientStats *> history = s.clients();
    std::vector<Entry> all;
    all.reserve(size_t(m_holding.size()) + size_t(history.size()));
    for (auto it = m_holding.cbegin(); it != m_holding.cend(); ++it) {
        const ClientStats *c = s.client(it.key());
        all.push_back({ &it.key(), it->holding, c ? c->acquisitions : 0 });
    }
    for (const ClientStats *c : history)
        if (!m_holding.contains(c->client))
            all.push_back({ &c->client, 0, c->acquisitions });
    const size_t n = qMin(all.size(), size_t(m_options.clientRows));
    std::partial_sort(all.begin(), all.begin() + qint64(n), all.end(), [](const Entry &a, const Entry &b) {
        if (a.holding != b.holding)
            return a.holding > b.holding;
        if (a.acquisitions != b.acquisitions)
            return a.acquisitions > b.acquisitions;
        return *a.id < *b.id;
    });
    QList<KeyedRow> rows;
    for (size_t i = 0; i < n; ++i) {
        const QByteArray id = *all[i].id;
        const ClientStats *c = s.client(id);
        const ClientNow now = m_holding.value(id);
        KeyedRow row;
        row.key = id;
        row.client = id;
        row.cells = { escapeBytes(id, 120), now.host.isEmpty() ? QVariant() : QVariant(escapeBytes(now.host, 80)),
            m_limited ? QVariant() : QVariant(now.holding), c ? QVariant(qint64(c->acquisitions)) : QVariant(qint64(0)),
            c ? QVariant(qint64(c->expiries)) : QVariant(qint64(0)),
            c ? QVariant(qint64(c->takeovers)) : QVariant(qint64(0)),
            c ? orNone(c->holds.quantile(0.95)) : QVariant() };
        rows << row;
    }
    m_clients->setRows(rows);
}

} // namespace LockScope
