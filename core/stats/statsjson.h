#pragma once

#include "stats/lockstatistics.h"

#include <QJsonObject>
#include <QStringList>

#include <functional>

namespace LockScope {

// The JSON of conventions.md's statistics (`stats --json`, `top --json`, the console's export): plain numbers, with a
// "sources" object saying which are measured and which inferred, and null where nothing was seen.
QJsonObject lockStatsJson(const LockStatistics &statistics, const LockStats &lock, qint64 nowMs);
QJsonObject clientStatsJson(const ClientStats &client);
QJsonObject histogramJson(const HoldHistogram &histogram);

struct StatsReport
{
    qint64 nowMs = 0;
    QByteArray mode; // the monitor's update mode: "keyspace-events", "pubsub+polling", "polling"
    QStringList blindSpots;
    int lockLimit = -1; // the top N locks; -1: all tracked
    int clientLimit = 20;
    // Fields a caller adds to each lock's object (top: what happened since its previous line).
    std::function<void(const LockStats &, QJsonObject &)> decorate;
};
// {"ts", "watched_ms", "mode", "locks": [ranked], "clients": [by acquisitions], "totals": [per kind and library],
//  "tracked": {...}, "blind_spots": [...]}
QJsonObject statsReportJson(const LockStatistics &statistics, const StatsReport &report);

} // namespace LockScope
