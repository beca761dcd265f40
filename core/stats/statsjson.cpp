#include "stats/statsjson.h"

#include "redis/bytesformat.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace LockScope {

namespace {
QJsonValue orNull(qint64 v)
{
    return v < 0 ? QJsonValue() : QJsonValue(v);
}

double rounded(double v, int decimals = 3)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(v * scale) / scale;
}
} // namespace

QJsonObject histogramJson(const HoldHistogram &h)
{
    return {
        { QStringLiteral("p50"), orNull(h.quantile(0.5)) },
        { QStringLiteral("p95"), orNull(h.quantile(0.95)) },
        { QStringLiteral("max"), orNull(h.max()) },
        { QStringLiteral("mean"), h.count() == 0 ? QJsonValue() : QJsonValue(rounded(h.meanMs(), 1)) },
        { QStringLiteral("samples"), qint64(h.count()) },
    };
}

QJsonObject lockStatsJson(const LockStatistics &statistics, const LockStats &l, qint64 nowMs)
{
    const RecentFigures recent = statistics.recent(l, nowMs);
    FigureSource waitSource = FigureSource::Inferred;
    const double waitMean = l.waitMeanMs(&waitSource);
    const QByteArray inferred = figureSourceName(FigureSource::Inferred);
    QJsonObject sources {
        { QStringLiteral("acquisitions"), QString::fromLatin1(figureSourceName(l.acquisitionsSource())) },
        { QStringLiteral("hold_ms"), QString::fromLatin1(figureSourceName(l.holdsSource())) },
        { QStringLiteral("expiries"), QString::fromLatin1(figureSourceName(l.expiriesSource())) },
        // Waiter counts are read (at each read of the lock and each TTL poll), never announced: a peak between two
        // reads is not seen.
        { QStringLiteral("waiters_max"), QString::fromLatin1(inferred) },
        { QStringLiteral("wait_ms"), QString::fromLatin1(figureSourceName(waitSource)) },
        { QStringLiteral("owner_changes"), QString::fromLatin1(inferred) },
        { QStringLiteral("handoffs"), QString::fromLatin1(inferred) },
    };
    return {
        { QStringLiteral("name"), jsonText(l.name) },
        { QStringLiteral("kind"), l.kind.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(l.kind)) },
        { QStringLiteral("library"), l.library.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(l.library)) },
        { QStringLiteral("acquisitions"), qint64(l.acquisitions) },
        { QStringLiteral("releases"), qint64(l.releases) },
        { QStringLiteral("hold_ms"), histogramJson(l.holds) },
        { QStringLiteral("holds_from_before"), qint64(l.holdsFromBefore) },
        { QStringLiteral("holding_now"), qint64(l.openHolds.size()) },
        { QStringLiteral("waiters"), l.waitersNow },
        { QStringLiteral("waiters_max"), l.waitersMax },
        // Each wait seen end to end, or the mean of waiter-time over acquisitions when none was: how, in "method".
        { QStringLiteral("wait_ms"),
            QJsonObject { { QStringLiteral("mean"), waitMean < 0 ? QJsonValue() : QJsonValue(rounded(waitMean, 1)) },
                { QStringLiteral("p50"), orNull(l.waits.quantile(0.5)) },
                { QStringLiteral("p95"), orNull(l.waits.quantile(0.95)) },
                { QStringLiteral("max"), orNull(l.waits.max()) },
                { QStringLiteral("samples"), qint64(l.waits.count()) },
                { QStringLiteral("longest_now"), orNull(l.longestWaitMs(nowMs)) },
                { QStringLiteral("method"), QString::fromLatin1(waitMethodName(l.waitMethod())) } } },
        { QStringLiteral("expiries"), qint64(l.expiries) },
        { QStringLiteral("force_releases"), qint64(l.forceReleases) },
        { QStringLiteral("owner_changes"), qint64(l.ownerChanges) },
        { QStringLiteral("handoffs"), qint64(l.handoffs) },
        { QStringLiteral("handoff_ms"), histogramJson(l.handoffGaps) },
        { QStringLiteral("renewals"), qint64(l.renewals) },
        { QStringLiteral("recent"),
            QJsonObject { { QStringLiteral("waiter_seconds"), rounded(recent.waiterSeconds) },
                { QStringLiteral("acquisitions_per_minute"), rounded(recent.acquisitionsPerMinute) },
                { QStringLiteral("busy"), rounded(recent.busy) } } },
        { QStringLiteral("sources"), sources },
    };
}

QJsonObject clientStatsJson(const ClientStats &c)
{
    return {
        { QStringLiteral("client"), jsonText(c.client) },
        { QStringLiteral("acquisitions"), qint64(c.acquisitions) },
        { QStringLiteral("expiries"), qint64(c.expiries) },
        { QStringLiteral("takeovers"), qint64(c.takeovers) },
        { QStringLiteral("holding_now"), c.holdsOpen },
        { QStringLiteral("hold_ms"), histogramJson(c.holds) },
    };
}

QJsonObject statsReportJson(const LockStatistics &statistics, const StatsReport &report)
{
    QJsonArray locks;
    for (const LockStats *l : statistics.ranked(report.nowMs, report.lockLimit)) {
        QJsonObject o = lockStatsJson(statistics, *l, report.nowMs);
        if (report.decorate)
            report.decorate(*l, o);
        locks.append(o);
    }

    QList<const ClientStats *> clients = statistics.clients();
    std::sort(clients.begin(), clients.end(), [](const ClientStats *a, const ClientStats *b) {
        if (a->acquisitions != b->acquisitions)
            return a->acquisitions > b->acquisitions;
        return a->client < b->client;
    });
    QJsonArray clientArray;
    for (int i = 0; i < clients.size() && (report.clientLimit < 0 || i < report.clientLimit); ++i)
        clientArray.append(clientStatsJson(*clients.at(i)));

    QJsonArray totals;
    for (const auto &[key, t] : statistics.totals()) {
        totals.append(QJsonObject {
            { QStringLiteral("kind"), key.first.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(key.first)) },
            { QStringLiteral("library"),
                key.second.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(key.second)) },
            { QStringLiteral("acquisitions"), qint64(t.acquisitions) },
            { QStringLiteral("releases"), qint64(t.releases) },
            { QStringLiteral("expiries"), qint64(t.expiries) },
            { QStringLiteral("force_releases"), qint64(t.forceReleases) },
            { QStringLiteral("owner_changes"), qint64(t.ownerChanges) },
            { QStringLiteral("handoffs"), qint64(t.handoffs) },
        });
    }
    return {
        { QStringLiteral("ts"), QDateTime::fromMSecsSinceEpoch(report.nowMs, Qt::UTC).toString(Qt::ISODateWithMs) },
        { QStringLiteral("watched_ms"), report.nowMs - statistics.startedMs() },
        { QStringLiteral("mode"), QString::fromLatin1(report.mode) },
        { QStringLiteral("locks"), locks },
        { QStringLiteral("clients"), clientArray },
        { QStringLiteral("totals"), totals },
        { QStringLiteral("tracked"),
            QJsonObject { { QStringLiteral("locks"), qint64(statistics.locks().size()) },
                { QStringLiteral("clients"), qint64(statistics.clients().size()) },
                { QStringLiteral("locks_dropped"), qint64(statistics.evictedLocks()) },
                { QStringLiteral("clients_dropped"), qint64(statistics.evictedClients()) } } },
        { QStringLiteral("blind_spots"), QJsonArray::fromStringList(report.blindSpots) },
    };
}

} // namespace LockScope
