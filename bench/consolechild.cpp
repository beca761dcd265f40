#include "consolechild.h"

#include "benchcommon.h"
#include "consoleframes.h"
#include "lockfilterproxy.h"
#include "lockspane.h"
#include "mainwindow.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "monitorprobe.h"
#include "redis/connectionoptions.h"
#include "redis/redisrouter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>

#include <cstring>

namespace LockScope::Bench {

namespace {

constexpr int kWindowWidth = 1280;
constexpr int kWindowHeight = 820;
constexpr quint32 kScrollSeed = 20240611; // both runs jump to the very same positions
constexpr int kFilterRounds = 3;
constexpr int kFirstPaintTimeoutMs = 60000;
constexpr int kSnapshotTimeoutMs = 300000;
constexpr int kSettleMs = 500;
// The console's own repaint timer (MainWindow's repaintIntervalMs): the baseline's countdown ticks as often.
constexpr int kPlainRepaintMs = 100;

struct ChildOptions
{
    QString kind;
    QString url;
    int locks = 0;
    int frames = 0;
    double idleSeconds = 0;
    QSize tableSize;
};

ChildOptions parseOptions(const QApplication &app)
{
    QCommandLineParser parser;
    parser.addOptions({
        { QStringLiteral("child"), QString(), QStringLiteral("KIND") },
        { QStringLiteral("url"), QString(), QStringLiteral("URL") },
        { QStringLiteral("locks"), QString(), QStringLiteral("N") },
        { QStringLiteral("frames"), QString(), QStringLiteral("N") },
        { QStringLiteral("idle-seconds"), QString(), QStringLiteral("S") },
        { QStringLiteral("table-size"), QString(), QStringLiteral("WxH") },
    });
    parser.process(app);
    ChildOptions options;
    options.kind = parser.value(QStringLiteral("child"));
    options.url = parser.isSet(QStringLiteral("url")) ? parser.value(QStringLiteral("url"))
                                                      : qEnvironmentVariable("LOCKSCOPE_BENCH_URL");
    options.locks = parser.value(QStringLiteral("locks")).toInt();
    options.frames = parser.value(QStringLiteral("frames")).toInt();
    options.idleSeconds = parser.value(QStringLiteral("idle-seconds")).toDouble();
    const QStringList size = parser.value(QStringLiteral("table-size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        options.tableSize = QSize(size.at(0).toInt(), size.at(1).toInt());
    return options;
}

// Figures both measured runs share: frames while scrolling and filtering, the idle CPU, then frames while header
// clicks sort the table and while filters are typed over the sorted table.
struct FrameRun
{
    std::vector<double> scrollMs;
    QList<FilterFrame> filters;
    IdleRun idle;
    QList<SortFrame> sorts;
    QList<FilterFrame> sortedFilters;
};

QString filterTimes(const QList<FilterFrame> &filters)
{
    QStringList times;
    for (const FilterFrame &frame : filters)
        times << QStringLiteral("%1/%2/%3")
                     .arg(frame.ms, 0, 'f', 1)
                     .arg(frame.maxBlockMs, 0, 'f', 1)
                     .arg(frame.appliedMs, 0, 'f', 1);
    return times.join(QLatin1Char(' '));
}

FrameRun measureFrames(QEventLoop &loop, QTableView *view, const std::function<void(const QString &)> &setFilter,
    const std::function<bool()> &pending, const ChildOptions &options, const QString &who)
{
    FrameRun run;
    idle(loop, kSettleMs);
    run.scrollMs = scrollFrames(view, options.frames, kScrollSeed);
    report(QStringLiteral("%1 scroll: %2 frames, median %3 ms, p95 %4 ms, max %5 ms (viewport %6x%7)")
               .arg(who)
               .arg(run.scrollMs.size())
               .arg(median(run.scrollMs), 0, 'f', 2)
               .arg(percentile(run.scrollMs, 95), 0, 'f', 2)
               .arg(percentile(run.scrollMs, 100), 0, 'f', 2)
               .arg(view->viewport()->width())
               .arg(view->viewport()->height()));

    run.filters = filterFrames(view, setFilter, pending, kFilterRounds);
    QStringList frames;
    for (const FilterFrame &frame : std::as_const(run.filters).mid(0, int(filterGlobs().size())))
        frames << QStringLiteral("\"%1\" %2 rows").arg(frame.glob).arg(frame.rows);
    report(QStringLiteral("%1 filter: %2; ms per keystroke frame/longest block/until shown, %3 rounds: %4")
               .arg(who, frames.join(QStringLiteral(", ")))
               .arg(kFilterRounds)
               .arg(filterTimes(run.filters)));

    // Every row again, from the top, as a user leaves the window.
    view->scrollToTop();
    idle(loop, 1000);
    run.idle = idleCpu(loop, view->viewport(), options.idleSeconds);
    QStringList seconds;
    for (double percent : std::as_const(run.idle.perSecondPercent))
        seconds << QString::number(percent, 'f', 1);
    report(QStringLiteral("%1 idle: %2% of one core over %3 s, %4 viewport paints/s; second by second: %5")
               .arg(who)
               .arg(run.idle.cpuPercent, 0, 'f', 2)
               .arg(options.idleSeconds)
               .arg(run.idle.paintsPerS, 0, 'f', 1)
               .arg(seconds.join(QLatin1Char(' '))));

    // A person clicks the headers, then types filters over the sorted table (one round: over a million rows each
    // takes a while).
    view->scrollToTop();
    run.sorts = sortFrames(view, pending);
    QStringList sorts;
    for (const SortFrame &frame : std::as_const(run.sorts))
        sorts << QStringLiteral("column %1 %2: %3/%4/%5")
                     .arg(frame.column)
                     .arg(frame.order == Qt::AscendingOrder ? QStringLiteral("up") : QStringLiteral("down"))
                     .arg(frame.ms, 0, 'f', 1)
                     .arg(frame.maxBlockMs, 0, 'f', 1)
                     .arg(frame.appliedMs, 0, 'f', 1);
    report(QStringLiteral("%1 header clicks, ms per click frame/longest block/until sorted: %2")
               .arg(who, sorts.join(QStringLiteral(", "))));
    run.sortedFilters = filterFrames(view, setFilter, pending, 1);
    report(QStringLiteral("%1 filter over the sorted table, ms per keystroke frame/longest block/until shown: %2")
               .arg(who, filterTimes(run.sortedFilters)));
    return run;
}

// The longest block (wall or main-thread CPU) of the frames whose glob clears the filter (clear true) or sets one.
double filterBlockMax(
    const QList<FilterFrame> &frames, bool clear, double FilterFrame::*block = &FilterFrame::maxBlockMs)
{
    double longest = 0;
    for (const FilterFrame &frame : frames)
        if (frame.glob.isEmpty() == clear)
            longest = qMax(longest, frame.*block);
    return longest;
}

template <typename Frame> double longestBlockCpu(const QList<Frame> &frames)
{
    double longest = 0;
    for (const Frame &frame : frames)
        longest = qMax(longest, frame.maxBlockCpuMs);
    return longest;
}

void addFrames(JsonLine &json, const FrameRun &run)
{
    std::vector<double> filterMs, blockMs, appliedMs;
    QStringList rows;
    for (const FilterFrame &frame : run.filters) {
        filterMs.push_back(frame.ms);
        blockMs.push_back(frame.maxBlockMs);
        appliedMs.push_back(frame.appliedMs);
        rows << QString::number(frame.rows);
    }
    json.add(QStringLiteral("scroll_frame_ms_median"), median(run.scrollMs))
        .add(QStringLiteral("scroll_frame_ms_p95"), percentile(run.scrollMs, 95))
        .add(QStringLiteral("scroll_frame_ms_max"), percentile(run.scrollMs, 100))
        .add(QStringLiteral("filter_frame_ms_median"), median(filterMs))
        .add(QStringLiteral("filter_frame_ms_max"), percentile(filterMs, 100))
        .add(QStringLiteral("filter_block_ms_max"), percentile(blockMs, 100))
        .add(QStringLiteral("filter_applied_ms_median"), median(appliedMs))
        .add(QStringLiteral("filter_applied_ms_max"), percentile(appliedMs, 100))
        .add(QStringLiteral("filter_rows"), rows.join(QLatin1Char(',')))
        .add(QStringLiteral("idle_cpu_percent"), run.idle.cpuPercent)
        .add(QStringLiteral("idle_cpu_percent_quiet"),
            median(std::vector<double>(run.idle.perSecondPercent.cbegin(), run.idle.perSecondPercent.cend())))
        .add(QStringLiteral("idle_paints_per_s"), run.idle.paintsPerS)
        .add(QStringLiteral("filter_clear_block_ms_max"), filterBlockMax(run.filters, true))
        .add(QStringLiteral("filter_swap_block_ms_max"), filterBlockMax(run.filters, false))
        .add(QStringLiteral("filter_block_cpu_ms_max"), longestBlockCpu(run.filters))
        .add(QStringLiteral("filter_clear_block_cpu_ms_max"),
            filterBlockMax(run.filters, true, &FilterFrame::maxBlockCpuMs));

    std::vector<double> sortMs, sortBlockMs, sortAppliedMs;
    QStringList columns;
    for (const SortFrame &frame : run.sorts) {
        sortMs.push_back(frame.ms);
        sortBlockMs.push_back(frame.maxBlockMs);
        sortAppliedMs.push_back(frame.appliedMs);
        columns << QStringLiteral("%1%2").arg(frame.column).arg(frame.order == Qt::AscendingOrder ? 'a' : 'd');
    }
    std::vector<double> sortedFilterMs, sortedBlockMs, sortedAppliedMs;
    QStringList sortedRows;
    for (const FilterFrame &frame : run.sortedFilters) {
        sortedFilterMs.push_back(frame.ms);
        sortedBlockMs.push_back(frame.maxBlockMs);
        sortedAppliedMs.push_back(frame.appliedMs);
        sortedRows << QString::number(frame.rows);
    }
    json.add(QStringLiteral("sort_columns"), columns.join(QLatin1Char(',')))
        .add(QStringLiteral("sort_frame_ms_median"), median(sortMs))
        .add(QStringLiteral("sort_frame_ms_max"), percentile(sortMs, 100))
        .add(QStringLiteral("sort_block_ms_max"), percentile(sortBlockMs, 100))
        .add(QStringLiteral("sort_block_cpu_ms_max"), longestBlockCpu(run.sorts))
        .add(QStringLiteral("sort_applied_ms_median"), median(sortAppliedMs))
        .add(QStringLiteral("sort_applied_ms_max"), percentile(sortAppliedMs, 100))
        .add(QStringLiteral("sorted_filter_frame_ms_max"), percentile(sortedFilterMs, 100))
        .add(QStringLiteral("sorted_filter_block_ms_max"), percentile(sortedBlockMs, 100))
        .add(QStringLiteral("sorted_filter_block_cpu_ms_max"), longestBlockCpu(run.sortedFilters))
        .add(QStringLiteral("sorted_filter_clear_block_ms_max"), filterBlockMax(run.sortedFilters, true))
        .add(QStringLiteral("sorted_filter_applied_ms_max"), percentile(sortedAppliedMs, 100))
        .add(QStringLiteral("sorted_filter_rows"), sortedRows.join(QLatin1Char(',')))
        .add(QStringLiteral("rss_end_mb"), procStatusMb("VmHWM"));
}

// Waits for the armed watch (and whatever else `done` wants), or gives up.
void waitFor(QEventLoop &loop, const std::function<bool()> &done, int timeoutMs, const QString &what)
{
    if (!waitUntil(loop, done, timeoutMs))
        fatal(QStringLiteral("%1: not within %2 s").arg(what).arg(timeoutMs / 1000));
}

int runWarmup()
{
    MainWindow window;
    window.resize(kWindowWidth, kWindowHeight);
    QEventLoop loop;
    PaintWatch painted(&window, true);
    painted.onDone = [&loop] { loop.quit(); };
    painted.arm();
    window.show();
    waitFor(
        loop, [&] { return painted.done(); }, kFirstPaintTimeoutMs, QStringLiteral("warm-up window"));
    JsonLine json;
    json.add(QStringLiteral("child"), "warmup");
    printJsonLine(json);
    return 0;
}

int runConsole(const ChildOptions &options, qint64 mainNs)
{
    RedisError urlError;
    const ConnectionOptions connection = ConnectionOptions::fromUrl(options.url, &urlError);
    if (urlError.isError())
        fatal(urlError.toString());

    // As the app builds it (AppSession::watch, then main's show()), without the write actions.
    MainWindow window;
    window.resize(kWindowWidth, kWindowHeight);
    window.setConnection(connection.toDisplayUrl(), QStringLiteral("bench_console"), connection.readOnly);
    window.setConnectionState(MainWindow::ConnectionState::Starting);
    LockMonitor monitor(connection, LockMonitor::Options {});
    window.setLockMonitor(&monitor, "bench-client-id");
    QObject::connect(monitor.connection(), &RedisCommander::ready, &window,
        [&window] { window.setConnectionState(MainWindow::ConnectionState::Connected); });

    QEventLoop loop;
    QTableView *view = window.locksPane()->view();
    PaintWatch firstPaint(&window, true);
    PaintWatch snapshotPaint(view->viewport(), false);
    firstPaint.onDone = [&loop] { loop.quit(); };
    snapshotPaint.onDone = [&loop] { loop.quit(); };
    qint64 snapshotFinishedNs = 0;
    RedisError snapshotError;
    // The rows are on screen with the first paint of the table after the monitor's last batch: that batch and
    // snapshotFinished come out of one call, so any paint after the signal shows them.
    QObject::connect(&monitor, &LockMonitor::snapshotFinished, &window, [&](const RedisError &error, int) {
        snapshotFinishedNs = nowNs();
        snapshotError = error;
        snapshotPaint.arm();
    });
    // How long the window goes unresponsive while the rows pour in: the longest the event loop leaves a 10 ms
    // timer waiting.
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    qint64 lastTick = nowNs();
    double maxGapMs = 0;
    // And how much of each gap the main thread itself was busy (its CPU time): on a shared machine a gap also counts
    // the time other processes had the CPUs. Each gap over 25 ms is listed with the rows there were then: where a
    // stall comes from (a structure doubling at 2^n rows).
    qint64 lastTickCpu = threadCpuNs();
    double maxBusyMs = 0;
    QStringList longGaps;
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = nowNs();
        const qint64 cpu = threadCpuNs();
        const double gap = ms(now - lastTick);
        const double busy = ms(cpu - lastTickCpu);
        maxGapMs = qMax(maxGapMs, gap);
        maxBusyMs = qMax(maxBusyMs, busy);
        if (gap > 25 || busy > 25)
            longGaps << QStringLiteral("%1 ms (busy %2) at %3 rows")
                            .arg(gap, 0, 'f', 1)
                            .arg(busy, 0, 'f', 1)
                            .arg(window.locksPane()->model()->rowCount());
        lastTick = now;
        lastTickCpu = cpu;
    });
    probe.start(10);
    firstPaint.arm();
    const qint64 monitorStartNs = nowNs();
    monitor.start();
    window.show();
    waitFor(
        loop, [&] { return firstPaint.done(); }, kFirstPaintTimeoutMs, QStringLiteral("first paint"));
    waitFor(
        loop, [&] { return snapshotPaint.done(); }, kSnapshotTimeoutMs, QStringLiteral("snapshot on screen"));
    probe.stop();
    maxGapMs = qMax(maxGapMs, ms(snapshotPaint.doneNs() - lastTick));
    if (snapshotError.isError())
        fatal(QStringLiteral("snapshot failed: %1").arg(snapshotError.toString()));
    const double rssMb = procStatusMb("VmHWM");
    const int rows = window.locksPane()->proxy()->rowCount();
    report(QStringLiteral("console (%9): first paint %1 ms after main(), snapshot finished %2 ms, on screen %3 ms; %4 "
                          "rows (%5 seeded), mode %6; peak RSS %7 MiB; longest event-loop gap meanwhile %8 ms")
               .arg(ms(firstPaint.doneNs() - mainNs), 0, 'f', 1)
               .arg(ms(snapshotFinishedNs - mainNs), 0, 'f', 1)
               .arg(ms(snapshotPaint.doneNs() - mainNs), 0, 'f', 1)
               .arg(rows)
               .arg(options.locks)
               .arg(QString::fromLatin1(LockEventFeed::modeName(monitor.mode())))
               .arg(rssMb, 0, 'f', 1)
               .arg(maxGapMs, 0, 'f', 1)
               .arg(QGuiApplication::platformName()));
    if (!longGaps.isEmpty())
        report(QStringLiteral("console: event-loop gaps over 25 ms while loading: %1")
                   .arg(longGaps.join(QStringLiteral(", "))));

    // The filter box waits for typing to pause (200 ms) before it refilters: what is timed is the refilter itself,
    // as the box triggers it, and the frame after it.
    LockFilterProxy *proxy = window.locksPane()->proxy();
    const auto setFilter = [proxy](const QString &glob) { proxy->setNameGlob(glob); };
    const auto pending = [proxy] { return proxy->filterModel()->isMatching(); };
    const FrameRun frames = measureFrames(loop, view, setFilter, pending, options, QStringLiteral("console"));

    JsonLine json;
    json.add(QStringLiteral("child"), "console")
        .add(QStringLiteral("platform"), QGuiApplication::platformName())
        .add(QStringLiteral("locks_found"), rows)
        .add(QStringLiteral("mode"), QString::fromLatin1(LockEventFeed::modeName(monitor.mode())))
        .add(QStringLiteral("main_ns"), mainNs)
        .add(QStringLiteral("first_paint_ns"), firstPaint.doneNs())
        .add(QStringLiteral("first_paint_ms"), ms(firstPaint.doneNs() - mainNs))
        .add(QStringLiteral("snapshot_finished_ms"), ms(snapshotFinishedNs - mainNs))
        .add(QStringLiteral("snapshot_ms"), ms(snapshotPaint.doneNs() - mainNs))
        .add(QStringLiteral("monitor_start_ms"), ms(monitorStartNs - mainNs))
        .add(QStringLiteral("snapshot_max_loop_gap_ms"), maxGapMs)
        .add(QStringLiteral("snapshot_max_loop_busy_ms"), maxBusyMs)
        .add(QStringLiteral("rescan_pause_ms"), monitor.rescanPauseMs())
        .add(QStringLiteral("rss_peak_mb"), rssMb)
        .add(QStringLiteral("table_size"), QStringLiteral("%1x%2").arg(view->width()).arg(view->height()));
    addFrames(json, frames);
    printJsonLine(json);
    return 0;
}

int runPlain(const ChildOptions &options, qint64 mainNs)
{
    QWidget window;
    window.resize(kWindowWidth, kWindowHeight);
    PlainLockModel model(options.locks);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    // Set up as LocksPane sets up the console's table, sorted by name too, so only the model, the proxy's own
    // filter and the TTL delegate differ.
    auto *view = new QTableView(&window);
    view->setModel(&proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(0, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 12);
    view->horizontalHeader()->setSectionResizeMode(9, QHeaderView::Stretch);
    const int widths[] = { 170, 80, 50, 170, 50, 120, 75, 60, 70 };
    for (int column = 0; column < 9; ++column)
        view->setColumnWidth(column, widths[column]);
    // The console's table size where the parent knows it: the same cells on screen.
    const QSize size = options.tableSize.isValid() ? options.tableSize : QSize(kWindowWidth - 16, kWindowHeight - 16);
    view->setGeometry(8, 8, size.width(), size.height());
    QTimer repaint;
    QObject::connect(&repaint, &QTimer::timeout, view, [view] { view->viewport()->update(); });
    repaint.start(kPlainRepaintMs);

    QEventLoop loop;
    PaintWatch firstPaint(&window, true);
    firstPaint.onDone = [&loop] { loop.quit(); };
    firstPaint.arm();
    window.show();
    waitFor(
        loop, [&] { return firstPaint.done(); }, kFirstPaintTimeoutMs, QStringLiteral("first paint"));
    report(QStringLiteral("plain table: first paint with all %1 rows %2 ms after main()")
               .arg(proxy.rowCount())
               .arg(ms(firstPaint.doneNs() - mainNs), 0, 'f', 1));

    // Anchored, as LockFilterProxy matches: setFilterWildcard() is unanchored in Qt 6 ("*:4?" would also match
    // bench:lock:400), so the rows would differ from the console's.
    const auto setFilter = [&proxy](const QString &glob) {
        proxy.setFilterRegularExpression(glob.isEmpty()
                ? QRegularExpression()
                : QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob)));
    };
    const FrameRun frames = measureFrames(
        loop, view, setFilter, [] { return false; }, options, QStringLiteral("plain"));

    JsonLine json;
    json.add(QStringLiteral("child"), "plain")
        .add(QStringLiteral("rows"), proxy.rowCount())
        .add(QStringLiteral("first_paint_ms"), ms(firstPaint.doneNs() - mainNs));
    addFrames(json, frames);
    printJsonLine(json);
    return 0;
}

} // namespace

bool isChildInvocation(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--child") == 0)
            return true;
    return false;
}

int runChild(int argc, char *argv[], qint64 mainNs)
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_console"));
    const ChildOptions options = parseOptions(app);
    if (options.kind == QLatin1String("warmup"))
        return runWarmup();
    if (options.kind == QLatin1String("console"))
        return runConsole(options, mainNs);
    if (options.kind == QLatin1String("plain"))
        return runPlain(options, mainNs);
    fatal(QStringLiteral("unknown --child %1").arg(options.kind));
}

} // namespace LockScope::Bench
