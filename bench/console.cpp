// bench_console: the desktop console with 100k locks live. Cold start to the first painted window and to the
// whole snapshot on screen (and the longest the window stops answering meanwhile), frame times while scrolling and
// filtering the lock table, the process's CPU while it sits idle counting the TTL bars down, then frame times and
// blocks while header clicks sort the table and filters are typed over the sorted table; each against a plain
// QTableView over a trivial model with the same rows, measured the same way. The parent seeds the server and starts
// each measured run as a fresh process of its own (see consolechild.h), so a cold start is one.

#include "base/heappolicy.h"
#include "benchcommon.h"
#include "consolechild.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "monitorprobe.h"
#include "monitorraw.h"
#include "monitorseed.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <hiredis.h>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

constexpr double kFrameBudgetMs = 16;
constexpr double kStallTargetMs = 50; // the longest the window may stop answering while the rows load
constexpr double kIdleCpuTargetPercent = 10;
constexpr double kFirstPaintTargetMs = 1000;

struct ChildRun
{
    QJsonObject figures; // its JSON line
    qint64 spawnNs = 0; // just before the fork
};

double number(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isDouble() ? value.toDouble() : std::nan("");
}

// Runs this program with --child, passes its lines for people through as they come, and returns its JSON line.
ChildRun runChild(const QStringList &arguments, const QProcessEnvironment &environment, int timeoutMs)
{
    QProcess child;
    child.setProgram(QCoreApplication::applicationFilePath());
    child.setArguments(arguments);
    child.setProcessEnvironment(environment);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    ChildRun run;
    run.spawnNs = nowNs();
    child.start();
    if (!child.waitForStarted(10000))
        fatal(QStringLiteral("cannot start %1: %2").arg(child.program(), child.errorString()));
    const QDeadlineTimer deadline(timeoutMs);
    QByteArray last;
    const auto drain = [&] {
        while (child.canReadLine()) {
            const QByteArray line = child.readLine().trimmed();
            if (line.startsWith('{'))
                last = line;
            else if (!line.isEmpty())
                report(QString::fromUtf8(line));
        }
    };
    while (child.state() != QProcess::NotRunning) {
        if (deadline.hasExpired()) {
            child.kill();
            child.waitForFinished(5000);
            fatal(QStringLiteral("%1 did not finish within %2 s")
                      .arg(arguments.join(QLatin1Char(' ')))
                      .arg(timeoutMs / 1000));
        }
        child.waitForReadyRead(250);
        drain();
    }
    drain();
    if (child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0)
        fatal(QStringLiteral("%1 failed (exit code %2)").arg(arguments.join(QLatin1Char(' '))).arg(child.exitCode()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(last, &error);
    if (!document.isObject())
        fatal(QStringLiteral("%1 printed no JSON line (%2)").arg(arguments.first(), error.errorString()));
    run.figures = document.object();
    return run;
}

// The console's monitor and table model without any widget: what the core alone needs for the snapshot, so the
// difference is the console's (its sorted proxy and view).
SnapshotRun modelOnlySnapshot(const ConnectionOptions &connection, int locks)
{
    QEventLoop loop;
    LockMonitor monitor(connection, LockMonitor::Options {});
    LockTableModel model(&monitor);
    const SnapshotRun run = takeSnapshot(loop, &monitor, &model);
    if (run.error.isError())
        fatal(QStringLiteral("model-only snapshot failed: %1").arg(run.error.toString()));
    if (run.rows != locks)
        fatal(QStringLiteral("the model-only snapshot found %1 locks of %2").arg(run.rows).arg(locks));
    return run;
}

double ratio(double reference, double measured)
{
    return measured > 0 ? reference / measured : std::nan("");
}

} // namespace

int main(int argc, char *argv[])
{
    // The cold start is timed from here: in a child, only the dynamic loader ran before this line.
    const qint64 mainNs = nowNs();
    // The heap as the app keeps it (both sides: the console, the plain table, the model-only baseline).
    keepFreedHeapForReuse();
    if (isChildInvocation(argc, argv))
        return runChild(argc, argv, mainNs);

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_console"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The desktop console with many locks live: cold start, frame times while scrolling and filtering, idle CPU; "
        "against a plain QTableView."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("locks to seed"), QStringLiteral("N"), QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("noise"), QStringLiteral("other keys to seed beside the locks"),
        QStringLiteral("N"), QStringLiteral("0") });
    parser.addOption({ QStringLiteral("no-plain"),
        QStringLiteral("leave out the plain table (its sorted filter takes minutes at a million rows): its figures are "
                       "null") });
    parser.addOption({ QStringLiteral("idle-seconds"), QStringLiteral("idle time measured for its CPU"),
        QStringLiteral("S"), QStringLiteral("10") });
    parser.addOption({ QStringLiteral("frames"), QStringLiteral("scroll frames timed"), QStringLiteral("N"),
        QStringLiteral("200") });
    parser.process(app);

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const double idleSeconds = parser.value(QStringLiteral("idle-seconds")).toDouble();
    const int frames = parser.value(QStringLiteral("frames")).toInt();
    if (locks < 10 || noise < 0 || idleSeconds < 1 || frames < 1)
        fatal(QStringLiteral("--locks must be >= 10, --noise not negative, --idle-seconds >= 1, --frames positive"));

    QString error;
    BenchServer server;
    RawPipe raw;
    openSeedServer(parser.value(QStringLiteral("url")), server, raw);
    report(QStringLiteral("server: %1%2, %3 locks")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString())
               .arg(locks));

    // Seeded before anything is timed: loading the server is not part of the console's start.
    const SeedPlan plan = standardSeedPlan(locks, noise, 0);
    SeedCounts seeded;
    if (!seedKeyspace(raw, plan, kSeedChunk, &seeded, &error))
        fatal(error);
    report(QStringLiteral("seeded in %1 ms: %2 reentrant, %3 fenced, %4 fair, %5 read-write locks")
               .arg(ms(seeded.elapsedNs), 0, 'f', 0)
               .arg(seeded.reentrant)
               .arg(seeded.fenced)
               .arg(seeded.fair)
               .arg(seeded.readWrite));

    // Gone before the children start: a monitor left running would re-scan in the background and compete for the
    // CPU with them. The first pass is not counted: a freshly loaded keyspace is slower to scan once (bench_monitor),
    // and afterwards the server is as warm for the console as for this baseline.
    modelOnlySnapshot(server.options(), locks);
    const SnapshotRun modelOnly = modelOnlySnapshot(server.options(), locks);
    report(QStringLiteral("monitor and table model alone, no widgets: snapshot %1 ms (after one pass not counted), "
                          "longest event-loop gap %2 ms")
               .arg(ms(modelOnly.elapsedNs), 0, 'f', 1)
               .arg(modelOnly.maxGapMs, 0, 'f', 1));
    // What Redis needs to list its keys (bench_list's baseline), once the first walk of the fresh keyspace is done.
    const Walk walk = bareWalk(raw, 1000);
    report(QStringLiteral("bare walk: %1 keys in %2 ms (server CPU %3 ms)")
               .arg(walk.keys)
               .arg(walk.wallMs, 0, 'f', 1)
               .arg(walk.serverCpuMs, 0, 'f', 1));

    // A settings directory of its own: the cold start of a first run (no saved geometry or header state), and the
    // developer's own settings neither read nor written.
    QTemporaryDir home;
    if (!home.isValid())
        fatal(QStringLiteral("cannot create a temporary directory"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    // The URL may carry a password: it goes to the children in their environment, never on a command line that
    // ps shows and the failure messages below print.
    environment.insert(QStringLiteral("LOCKSCOPE_BENCH_URL"), server.url());
    const QStringList common { QStringLiteral("--locks"), QString::number(locks), QStringLiteral("--frames"),
        QString::number(frames), QStringLiteral("--idle-seconds"), QString::number(idleSeconds) };
    const int timeoutMs = 600000 + int(idleSeconds * 1000);

    runChild(QStringList { QStringLiteral("--child"), QStringLiteral("warmup") } + common, environment, timeoutMs);
    const ChildRun console = runChild(
        QStringList { QStringLiteral("--child"), QStringLiteral("console") } + common, environment, timeoutMs);
    const QJsonObject &c = console.figures;
    const bool withPlain = !parser.isSet(QStringLiteral("no-plain"));
    const ChildRun plain = withPlain
        ? runChild(QStringList { QStringLiteral("--child"), QStringLiteral("plain"), QStringLiteral("--table-size"),
                       c.value(QLatin1String("table_size")).toString() }
                + common,
            environment, timeoutMs)
        : ChildRun {};
    const QJsonObject &p = plain.figures;

    if (!server.isPrivate()) {
        const qint64 removed = removeSeeded(raw, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded").arg(removed));
    }

    const int locksFound = c.value(QLatin1String("locks_found")).toInt();
    const bool filterRowsMatch = !withPlain
        || (c.value(QLatin1String("filter_rows")) == p.value(QLatin1String("filter_rows"))
            && c.value(QLatin1String("sorted_filter_rows")) == p.value(QLatin1String("sorted_filter_rows")));
    if (!filterRowsMatch)
        std::fprintf(stderr, "the filters left different rows: console %s, plain %s\n",
            qPrintable(c.value(QLatin1String("filter_rows")).toString()),
            qPrintable(p.value(QLatin1String("filter_rows")).toString()));
    // From the fork: what the dynamic loader adds to the cold start before main() (the same CLOCK_MONOTONIC in
    // both processes).
    const double spawnFirstPaintMs = ms(qint64(number(c, "first_paint_ns")) - console.spawnNs);

    const double firstPaint = number(c, "first_paint_ms");
    const double scrollMedian = number(c, "scroll_frame_ms_median");
    const double scrollP95 = number(c, "scroll_frame_ms_p95");
    const double filterMedian = number(c, "filter_frame_ms_median");
    const double filterMax = number(c, "filter_frame_ms_max");
    // The console matches a new filter a slice at a time: its longest hold of the window, keystroke to rows shown.
    const double filterBlockMax = number(c, "filter_block_ms_max");
    const double filterClearBlockMax = number(c, "filter_clear_block_ms_max");
    // A header click: the click's own frame, then the longest the window is held until the sorted rows are shown.
    const double sortFrameMax = number(c, "sort_frame_ms_max");
    const double sortBlockMax = number(c, "sort_block_ms_max");
    const double sortedFilterBlockMax = number(c, "sorted_filter_block_ms_max");
    const double snapshotGap = number(c, "snapshot_max_loop_gap_ms");
    const double idleCpu = number(c, "idle_cpu_percent");
    const double snapshotMs = number(c, "snapshot_ms");
    const double modelOnlyMs = ms(modelOnly.elapsedNs);
    report(QStringLiteral("targets: first paint %1 ms (< %2), scroll p95 %3 ms and filter max %4 ms (< %5), idle CPU "
                          "%6% (< %7%)")
               .arg(firstPaint, 0, 'f', 1)
               .arg(kFirstPaintTargetMs)
               .arg(scrollP95, 0, 'f', 2)
               .arg(filterMax, 0, 'f', 1)
               .arg(kFrameBudgetMs)
               .arg(idleCpu, 0, 'f', 2)
               .arg(kIdleCpuTargetPercent));
    report(
        QStringLiteral("targets: longest block while a header click sorts %1 ms, while a filter clears %2 ms (< %3); "
                       "longest stall while loading %4 ms (< %5)")
            .arg(sortBlockMax, 0, 'f', 1)
            .arg(filterClearBlockMax, 0, 'f', 1)
            .arg(kFrameBudgetMs)
            .arg(snapshotGap, 0, 'f', 1)
            .arg(kStallTargetMs));

    JsonLine baseline;
    baseline.add(QStringLiteral("plain_first_paint_ms"), number(p, "first_paint_ms"))
        .add(QStringLiteral("plain_table_frame_ms_median"), number(p, "scroll_frame_ms_median"))
        .add(QStringLiteral("plain_table_frame_ms_p95"), number(p, "scroll_frame_ms_p95"))
        .add(QStringLiteral("plain_table_frame_ms_max"), number(p, "scroll_frame_ms_max"))
        .add(QStringLiteral("plain_filter_frame_ms_median"), number(p, "filter_frame_ms_median"))
        .add(QStringLiteral("plain_filter_frame_ms_max"), number(p, "filter_frame_ms_max"))
        .add(QStringLiteral("plain_idle_cpu_percent"), number(p, "idle_cpu_percent"))
        .add(QStringLiteral("plain_idle_cpu_percent_quiet"), number(p, "idle_cpu_percent_quiet"))
        .add(QStringLiteral("plain_idle_paints_per_s"), number(p, "idle_paints_per_s"))
        .add(QStringLiteral("plain_filter_clear_block_ms_max"), number(p, "filter_clear_block_ms_max"))
        .add(QStringLiteral("plain_sort_frame_ms_max"), number(p, "sort_frame_ms_max"))
        .add(QStringLiteral("plain_sort_block_ms_max"), number(p, "sort_block_ms_max"))
        .add(QStringLiteral("plain_sort_applied_ms_median"), number(p, "sort_applied_ms_median"))
        .add(QStringLiteral("plain_sorted_filter_block_ms_max"), number(p, "sorted_filter_block_ms_max"))
        .add(QStringLiteral("model_only_snapshot_ms"), modelOnlyMs)
        .add(QStringLiteral("model_only_snapshot_max_loop_gap_ms"), modelOnly.maxGapMs)
        .add(QStringLiteral("model_only_snapshot_max_loop_busy_ms"), modelOnly.maxBusyMs)
        .add(QStringLiteral("bare_walk_ms"), walk.wallMs)
        .add(QStringLiteral("bare_walk_keys"), walk.keys);
    JsonLine ratios;
    ratios
        .add(QStringLiteral("plain_vs_console_scroll_frame"), ratio(number(p, "scroll_frame_ms_median"), scrollMedian))
        .add(QStringLiteral("plain_vs_console_filter_frame"), ratio(number(p, "filter_frame_ms_median"), filterMedian))
        .add(QStringLiteral("plain_vs_console_idle_cpu"), ratio(number(p, "idle_cpu_percent"), idleCpu))
        .add(QStringLiteral("model_only_vs_console_snapshot"),
            ratio(modelOnlyMs, snapshotMs - number(c, "monitor_start_ms")))
        .add(QStringLiteral("bare_walk_vs_console_snapshot"),
            ratio(walk.wallMs, snapshotMs - number(c, "monitor_start_ms")))
        .add(QStringLiteral("target_frame_vs_console_p95"), ratio(kFrameBudgetMs, scrollP95))
        .add(QStringLiteral("target_frame_vs_console_filter_max"), ratio(kFrameBudgetMs, filterMax))
        .add(QStringLiteral("target_frame_vs_console_filter_block_max"), ratio(kFrameBudgetMs, filterBlockMax))
        .add(QStringLiteral("target_frame_vs_console_filter_clear_block_max"),
            ratio(kFrameBudgetMs, filterClearBlockMax))
        .add(QStringLiteral("target_frame_vs_console_sort_frame_max"), ratio(kFrameBudgetMs, sortFrameMax))
        .add(QStringLiteral("target_frame_vs_console_sort_block_max"), ratio(kFrameBudgetMs, sortBlockMax))
        .add(QStringLiteral("target_frame_vs_console_sorted_filter_block_max"),
            ratio(kFrameBudgetMs, sortedFilterBlockMax))
        .add(QStringLiteral("target_stall_vs_console_snapshot_gap"), ratio(kStallTargetMs, snapshotGap))
        .add(QStringLiteral("target_stall_vs_console_snapshot_busy"),
            ratio(kStallTargetMs, number(c, "snapshot_max_loop_busy_ms")))
        .add(QStringLiteral("target_frame_vs_console_sort_block_cpu_max"),
            ratio(kFrameBudgetMs, number(c, "sort_block_cpu_ms_max")))
        .add(QStringLiteral("target_frame_vs_console_filter_clear_block_cpu_max"),
            ratio(kFrameBudgetMs, number(c, "filter_clear_block_cpu_ms_max")))
        .add(QStringLiteral("plain_vs_console_sort_block_max"), ratio(number(p, "sort_block_ms_max"), sortBlockMax))
        .add(QStringLiteral("plain_vs_console_sort_applied"),
            ratio(number(p, "sort_applied_ms_median"), number(c, "sort_applied_ms_median")))
        .add(QStringLiteral("model_only_vs_console_snapshot_gap"), ratio(modelOnly.maxGapMs, snapshotGap))
        .add(QStringLiteral("target_cpu_vs_idle"), ratio(kIdleCpuTargetPercent, idleCpu))
        .add(QStringLiteral("target_first_paint_vs_measured"), ratio(kFirstPaintTargetMs, firstPaint));
    JsonLine json;
    json.add(QStringLiteral("bench"), "console")
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("locks_found"), locksFound)
        .add(QStringLiteral("filter_rows_match"), filterRowsMatch)
        .add(QStringLiteral("mode"), c.value(QLatin1String("mode")).toString())
        .add(QStringLiteral("platform"), c.value(QLatin1String("platform")).toString())
        .add(QStringLiteral("noise_keys"), noise)
        .add(QStringLiteral("first_paint_ms"), firstPaint)
        .add(QStringLiteral("spawn_to_first_paint_ms"), spawnFirstPaintMs)
        .add(QStringLiteral("snapshot_finished_ms"), number(c, "snapshot_finished_ms"))
        .add(QStringLiteral("snapshot_ms"), snapshotMs)
        .add(QStringLiteral("snapshot_max_loop_gap_ms"), number(c, "snapshot_max_loop_gap_ms"))
        .add(QStringLiteral("snapshot_max_loop_busy_ms"), number(c, "snapshot_max_loop_busy_ms"))
        .add(QStringLiteral("frames"), frames)
        .add(QStringLiteral("scroll_frame_ms_median"), scrollMedian)
        .add(QStringLiteral("scroll_frame_ms_p95"), scrollP95)
        .add(QStringLiteral("scroll_frame_ms_max"), number(c, "scroll_frame_ms_max"))
        .add(QStringLiteral("filter_frame_ms_median"), filterMedian)
        .add(QStringLiteral("filter_frame_ms_max"), filterMax)
        .add(QStringLiteral("filter_block_ms_max"), filterBlockMax)
        .add(QStringLiteral("filter_applied_ms_median"), number(c, "filter_applied_ms_median"))
        .add(QStringLiteral("filter_applied_ms_max"), number(c, "filter_applied_ms_max"))
        .add(QStringLiteral("filter_clear_block_ms_max"), filterClearBlockMax)
        .add(QStringLiteral("filter_swap_block_ms_max"), number(c, "filter_swap_block_ms_max"))
        .add(QStringLiteral("filter_block_cpu_ms_max"), number(c, "filter_block_cpu_ms_max"))
        .add(QStringLiteral("filter_clear_block_cpu_ms_max"), number(c, "filter_clear_block_cpu_ms_max"))
        .add(QStringLiteral("sort_columns"), c.value(QLatin1String("sort_columns")).toString())
        .add(QStringLiteral("sort_frame_ms_median"), number(c, "sort_frame_ms_median"))
        .add(QStringLiteral("sort_frame_ms_max"), sortFrameMax)
        .add(QStringLiteral("sort_block_ms_max"), sortBlockMax)
        .add(QStringLiteral("sort_block_cpu_ms_max"), number(c, "sort_block_cpu_ms_max"))
        .add(QStringLiteral("sort_applied_ms_median"), number(c, "sort_applied_ms_median"))
        .add(QStringLiteral("sort_applied_ms_max"), number(c, "sort_applied_ms_max"))
        .add(QStringLiteral("sorted_filter_frame_ms_max"), number(c, "sorted_filter_frame_ms_max"))
        .add(QStringLiteral("sorted_filter_block_ms_max"), sortedFilterBlockMax)
        .add(QStringLiteral("sorted_filter_block_cpu_ms_max"), number(c, "sorted_filter_block_cpu_ms_max"))
        .add(QStringLiteral("sorted_filter_clear_block_ms_max"), number(c, "sorted_filter_clear_block_ms_max"))
        .add(QStringLiteral("sorted_filter_applied_ms_max"), number(c, "sorted_filter_applied_ms_max"))
        .add(QStringLiteral("idle_seconds"), idleSeconds)
        .add(QStringLiteral("idle_cpu_percent_of_core"), idleCpu)
        .add(QStringLiteral("idle_cpu_percent_quiet"), number(c, "idle_cpu_percent_quiet"))
        .add(QStringLiteral("rescan_pause_ms"), number(c, "rescan_pause_ms"))
        .add(QStringLiteral("idle_paints_per_s"), number(c, "idle_paints_per_s"))
        .add(QStringLiteral("rss_peak_mb"), number(c, "rss_peak_mb"))
        .add(QStringLiteral("rss_peak_end_mb"), number(c, "rss_end_mb"))
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratios);
    printJsonLine(json);
    return locksFound == locks && filterRowsMatch ? 0 : 1;
}
