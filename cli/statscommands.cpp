#include "statscommands.h"

#include "cliwords.h"

#include "redis/bytesformat.h"
#include "stats/statscollector.h"
#include "stats/statsjson.h"
#include "terminationwatcher.h"
#include "texttable.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

#include <cstdio>
#include <unistd.h>

namespace LockScope::Cli {

namespace {
QString figure(qint64 value, bool inferred)
{
    if (value < 0)
        return QStringLiteral("-");
    return (inferred ? QStringLiteral("~") : QString()) + QString::number(value);
}

} // namespace

bool StatsWatchCommand::startWatching(bool rescanOption)
{
    LockMonitor::Options options;
    if (!monitorOptions(&options, rescanOption))
        return false;
    m_monitor = new LockMonitor(m_connection, options, this);
    m_collector = new StatsCollector(m_monitor, {}, this);
    connect(m_monitor, &LockMonitor::snapshotFinished, this, [this](const RedisError &error) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        snapshotReady();
    });
    connect(m_monitor, &LockMonitor::errorOccurred, this,
        [this](const RedisError &error) { m_out.error(tr("monitor: %1").arg(error.message())); });
    m_monitor->start();
    return true;
}

bool StatsWatchCommand::readLimit(int fallback, int *limit) const
{
    *limit = fallback;
    if (!m_parser.isSet(QStringLiteral("limit")))
        return true;
    bool ok = false;
    *limit = m_parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || *limit < 1) {
        m_out.error(tr("--limit takes a number of locks (at least 1)"));
        return false;
    }
    return true;
}

QJsonObject StatsWatchCommand::report(
    int lockLimit, std::function<void(const LockStats &, QJsonObject &)> decorate) const
{
    StatsReport report;
    report.nowMs = StatsCollector::nowMs();
    report.mode = LockEventFeed::modeName(m_monitor->mode());
    report.blindSpots = m_collector->blindSpots();
    report.lockLimit = lockLimit;
    report.decorate = std::move(decorate);
    return statsReportJson(m_collector->statistics(), report);
}

QString StatsWatchCommand::header() const
{
    const LockStatistics &s = m_collector->statistics();
    const qint64 now = StatsCollector::nowMs();
    return tr("%1  %n lock(s), %2 tracked, watched %3 s via %4", nullptr, m_monitor->lockCount())
        .arg(QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss")))
        .arg(s.locks().size())
        .arg((now - s.startedMs()) / 1000)
        .arg(QString::fromLatin1(LockEventFeed::modeName(m_monitor->mode())));
}

QString StatsWatchCommand::table(int lockLimit, const QHash<QByteArray, quint64> *previous) const
{
    return statsTable(
        m_collector->statistics(), StatsCollector::nowMs(), lockLimit, previous, m_collector->blindSpots());
}

QString StatsWatchCommand::statsTable(const LockStatistics &s, qint64 now, int lockLimit,
    const QHash<QByteArray, quint64> *previous, const QStringList &blindSpots)
{
    QList<QStringList> rows;
    QStringList head { tr("LOCK"), tr("KIND"), tr("LIBRARY") };
    if (previous)
        head << tr("NEW");
    head << tr("ACQ") << tr("ACQ/MIN") << tr("WAITERS") << tr("MAX") << tr("WAIT-S") << tr("WAIT P50") << tr("P95")
         << tr("MAX MS") << tr("LONGEST") << tr("HOLD P50") << tr("P95") << tr("MAX MS") << tr("EXPIRED")
         << tr("OWNER CHG");
    rows << head;
    bool anyInferred = false;
    for (const LockStats *l : s.ranked(now, lockLimit)) {
        const RecentFigures recent = s.recent(*l, now);
        const bool acqInferred = l->acquisitionsSource() == FigureSource::Inferred;
        const bool holdInferred = l->holdsSource() == FigureSource::Inferred;
        anyInferred |= acqInferred || holdInferred || l->expiriesSource() == FigureSource::Inferred || l->waitersMax > 0
            || l->ownerChanges > 0 || (l->waitsInferred && l->waits.count() > 0);
        QStringList row { escapeBytes(l->name, 60), kindWord(l->kind), QString::fromLatin1(l->library) };
        if (previous)
            row << figure(qint64(l->acquisitions - qMin(l->acquisitions, previous->value(l->name))), acqInferred);
        row << figure(qint64(l->acquisitions), acqInferred) << QString::number(recent.acquisitionsPerMinute, 'f', 1)
            << QString::number(l->waitersNow) << figure(l->waitersMax, l->waitersMax > 0)
            << QString::number(recent.waiterSeconds, 'f', 1) << figure(l->waits.quantile(0.5), l->waitsInferred)
            << figure(l->waits.quantile(0.95), l->waitsInferred) << figure(l->waits.max(), l->waitsInferred)
            << figure(l->longestWaitMs(now), false) << figure(l->holds.quantile(0.5), holdInferred)
            << figure(l->holds.quantile(0.95), holdInferred) << figure(l->holds.max(), holdInferred)
            << figure(qint64(l->expiries), l->expiriesSource() == FigureSource::Inferred && l->expiries > 0)
            << figure(qint64(l->ownerChanges), l->ownerChanges > 0);
        rows << row;
    }
    QString out = textTable(rows);
    if (rows.size() == 1)
        out += tr("(no lock activity seen yet)") + QLatin1Char('\n');
    if (anyInferred)
        out += tr("~ inferred: from re-scans, polls or reasoning rather than keyspace events") + QLatin1Char('\n');
    for (const QString &blind : blindSpots)
        out += tr("note: %1").arg(blind) + QLatin1Char('\n');
    return out;
}

void StatsCommand::start()
{
    if (m_parser.isSet(QStringLiteral("db"))) {
        printRecorded();
        return;
    }
    bool ok = false;
    m_seconds = m_parser.value(QStringLiteral("seconds")).toInt(&ok);
    if (!m_parser.isSet(QStringLiteral("seconds")) || !ok || m_seconds < 1) {
        m_out.error(tr("stats needs --seconds N: how long to watch (at least 1)"));
        finish(ExitUsage);
        return;
    }
    if (!readLimit(-1, &m_limit) || !startWatching(true)) {
        finish(ExitUsage);
        return;
    }
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] {
        if (m_monitor->isSnapshotComplete())
            printSettled();
        else
            finish(ExitDone);
    });
}

void StatsCommand::snapshotReady()
{
    // Status, on standard error in both modes: the report is what goes to standard output.
    const QString text = tr("watching %n lock(s) for %1 s via %2...", nullptr, m_monitor->lockCount())
                             .arg(m_seconds)
                             .arg(QString::fromLatin1(LockEventFeed::modeName(m_monitor->mode())));
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
    QTimer::singleShot(qint64(m_seconds) * 1000, Qt::PreciseTimer, this, &StatsCommand::printSettled);
}

void StatsCommand::printSettled()
{
    // What happened up to now counts: the events on their way and the reads they ask for are waited for.
    if (m_printing)
        return;
    m_printing = true;
    m_monitor->settle([this] { print(); });
}

void StatsCommand::print()
{
    if (m_finished)
        return;
    if (m_out.json())
        m_out.jsonLine(report(m_limit));
    else
        m_out.line(header() + QLatin1Char('\n') + table(m_limit).chopped(1));
    finish(ExitDone);
}

void TopCommand::start()
{
    if (m_parser.isSet(QStringLiteral("interval"))) {
        bool ok = false;
        m_intervalMs = m_parser.value(QStringLiteral("interval")).toInt(&ok);
        if (!ok || m_intervalMs < 100) {
            m_out.error(tr("--interval takes milliseconds between redraws (at least 100)"));
            finish(ExitUsage);
            return;
        }
    }
    // Redrawn in place on a terminal; one table after another when the output goes to a file or a pipe.
    m_inPlace = !m_out.json() && isatty(STDOUT_FILENO);
    if (!readLimit(20, &m_limit) || !startWatching(false)) {
        finish(ExitUsage);
        return;
    }
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] { finish(ExitDone); });
}

void TopCommand::snapshotReady()
{
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &TopCommand::draw);
    timer->start(m_intervalMs);
    draw();
}

void TopCommand::draw()
{
    const LockStatistics &s = m_collector->statistics();
    if (m_out.json()) {
        // What happened since the previous line, beside the totals.
        QJsonObject o = report(m_limit, [this](const LockStats &l, QJsonObject &object) {
            object.insert(QStringLiteral("acquisitions_interval"),
                qint64(l.acquisitions - qMin(l.acquisitions, m_previous.value(l.name))));
        });
        o.insert(QStringLiteral("interval_ms"), m_intervalMs);
        m_out.jsonLine(o);
    } else {
        const QString text = header() + QLatin1Char('\n') + table(m_limit, &m_previous);
        if (m_inPlace)
            std::fputs("\x1b[H\x1b[2J", stdout); // home, clear: like top
        m_out.line(text + (m_inPlace ? QString() : QStringLiteral("\n")));
    }
    m_previous.clear();
    for (const LockStats *l : s.locks())
        m_previous.insert(l->name, l->acquisitions);
}

} // namespace LockScope::Cli
