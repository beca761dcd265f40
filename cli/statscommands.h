#pragma once

#include "commands.h"

namespace LockScope {
class LockStatistics;
class StatsCollector;
struct LockStats;
} // namespace LockScope

namespace LockScope::Cli {

// What stats and top share: a monitor on the server (reads only) and the statistics folded from it.
class StatsWatchCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;

protected:
    // Starts the monitor; false, with the usage error printed, on a bad option. snapshotReady() once the first pass
    // is complete (statistics count from there on).
    bool startWatching(bool rescanOption);
    virtual void snapshotReady() = 0;
    // The report object of conventions.md (stats --json, one line of top --json).
    QJsonObject report(int lockLimit, std::function<void(const LockStats &, QJsonObject &)> decorate = {}) const;
    // The ranked table people read, with "~" before inferred figures.
    QString table(int lockLimit, const QHash<QByteArray, quint64> *previousAcquisitions = nullptr) const;
    QString header() const;
    static QString statsTable(const LockStatistics &statistics, qint64 nowMs, int lockLimit,
        const QHash<QByteArray, quint64> *previousAcquisitions, const QStringList &blindSpots);
    // --limit N (positive); false, with the usage error printed, otherwise.
    bool readLimit(int fallback, int *limit) const;

    LockMonitor *m_monitor = nullptr;
    StatsCollector *m_collector = nullptr;
};

// stats --seconds N [--json] [--limit N]: watch for N seconds after the first snapshot, then print per-lock
// statistics (every tracked lock, most contended first) and exit. SIGINT or SIGTERM prints what was seen so far.
class StatsCommand : public StatsWatchCommand
{
    Q_OBJECT
public:
    using StatsWatchCommand::StatsWatchCommand;
    void start() override;

private:
    void snapshotReady() override;
    void printSettled();
    void print();
    // --db FILE: the statistics of a window of a recording (--since, --until), in the same JSON (statsrecorded.cpp).
    void printRecorded();

    bool m_printing = false;
    int m_limit = -1;
    int m_seconds = 0;
};

// top [--interval MS] [--json] [--limit N]: the locks ranked by contention, redrawn in place every interval (default
// 2000 ms) until interrupted; with --json one report per interval, one line each.
class TopCommand : public StatsWatchCommand
{
    Q_OBJECT
public:
    using StatsWatchCommand::StatsWatchCommand;
    void start() override;

private:
    void snapshotReady() override;
    void draw();

    int m_limit = 20;
    int m_intervalMs = 2000;
    bool m_inPlace = false;
    QHash<QByteArray, quint64> m_previous; // acquisitions at the previous draw
};

} // namespace LockScope::Cli
