// What a user runs on a big keyspace: `lockscope-cli --json list` (and the text list) as a process of its own, against
// the same run's bare keyspace walk (`SCAN cursor COUNT 1000`, no MATCH, no TYPE, nothing read): wall time, the CLI's
// peak RSS, and the server's CPU for each (INFO's used_cpu_user + used_cpu_sys). Seeds with bench_monitor's loader.
#include "benchcommon.h"
#include "clirun.h"
#include "listplans.h"
#include "monitorraw.h"
#include "monitorseed.h"

#include "kinds/lockscanner.h"
#include "redis/redisconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTemporaryDir>

#include <hiredis.h>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

// lockscope-cli as a user runs it (clirun.h), with the server's CPU while it ran.
struct ListRun
{
    double wallMs = 0;
    double rssMb = 0; // the CLI process's peak RSS
    double serverCpuMs = 0;
    qint64 locks = 0; // locks it printed
};

ListRun runCli(const QString &cli, const QStringList &args, const QString &outPath, RawPipe &raw, bool json)
{
    const double cpu0 = serverCpuMs(raw);
    const CliRun run = runCliProcess(cli, args, outPath, json);
    return { run.wallMs, run.rssMb, serverCpuMs(raw) - cpu0, run.locks };
}

struct PassRun
{
    double wallMs = 0;
    double serverCpuMs = 0;
    qint64 locks = 0;
};

// One discovery pass of the scanner the CLI and the monitor use, in this process, with one walk plan or the other:
// what the choice costs the server, on the same keyspace in the same run (docs/design.md#monitor).
PassRun scannerPass(const ConnectionOptions &options, bool typedWalks, RawPipe &raw)
{
    RedisConnection connection(options);
    LockScanner::Options o;
    o.typedWalks = typedWalks;
    o.stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
    LockScanner scanner(&connection, o);
    PassRun run;
    RedisError error;
    QEventLoop loop;
    QObject::connect(&scanner, &LockScanner::locksFound, [&run](const QList<LockInfo> &l) { run.locks += l.size(); });
    QObject::connect(&scanner, &LockScanner::finished, [&](const RedisError &e, int) {
        error = e;
        loop.quit();
    });
    const double cpu0 = serverCpuMs(raw);
    const qint64 start = nowNs();
    scanner.start();
    loop.exec();
    run.wallMs = ms(nowNs() - start);
    run.serverCpuMs = serverCpuMs(raw) - cpu0;
    if (error.isError())
        fatal(QStringLiteral("scanner pass: %1").arg(error.toString()));
    return run;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_list"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "lockscope-cli list on a big keyspace, as a user runs it, against the same run's bare SCAN walk."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("locks"), QStringLiteral("Redisson locks to seed"), QStringLiteral("N"),
        QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("noise"), QStringLiteral("other keys to seed"), QStringLiteral("N"),
        QStringLiteral("1000000") });
    parser.addOption({ QStringLiteral("other-locks"), QStringLiteral("locks of the other libraries to seed"),
        QStringLiteral("N"), QStringLiteral("20000") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("walk + list rounds; medians are reported"),
        QStringLiteral("N"), QStringLiteral("3") });
    parser.addOption({ QStringLiteral("cli"), QStringLiteral("the lockscope-cli to run"), QStringLiteral("PATH"),
        QStringLiteral(LOCKSCOPE_CLI_PATH) });
    parser.addOption({ QStringLiteral("script-count"),
        QStringLiteral(
            "keys per call of the server-side reference plan (a read-only script per SCAN page; 0: skip it)"),
        QStringLiteral("N"), QStringLiteral("100") });
    parser.addOption({ QStringLiteral("keep"),
        QStringLiteral("leave the seeded keys on a --url server (to profile the CLI against them afterwards)") });
    parser.process(app);

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const int otherLocks = parser.value(QStringLiteral("other-locks")).toInt();
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    const QString cli = parser.value(QStringLiteral("cli"));
    if (locks < 10 || noise < 0 || otherLocks < 0 || rounds < 1)
        fatal(QStringLiteral("--locks must be >= 10, --rounds positive, --noise and --other-locks not negative"));

    QString error;
    BenchServer server;
    RawPipe raw;
    openSeedServer(parser.value(QStringLiteral("url")), server, raw);
    const SeedPlan plan = standardSeedPlan(locks, noise, otherLocks);
    SeedCounts seeded;
    if (!seedKeyspace(raw, plan, kSeedChunk, &seeded, &error))
        fatal(error);
    report(QStringLiteral("server %1: seeded %2 locks and %3 other libraries' locks among %4 other keys in %5 ms")
               .arg(server.options().toDisplayUrl())
               .arg(locks)
               .arg(otherLocks)
               .arg(noise)
               .arg(ms(seeded.elapsedNs), 0, 'f', 0));

    QTemporaryDir dir;
    const QString url = server.url();
    const QString outPath = dir.filePath(QStringLiteral("out"));
    bareWalk(raw, 1000); // warm-up: the first walk of a freshly loaded keyspace is slower
    std::vector<double> walkMs, walkCpu, jsonMs, jsonCpu, textMs, textCpu, untypedMs, untypedCpu, typedMs, typedCpu;
    double jsonRss = 0, textRss = 0;
    qint64 walkKeys = 0, jsonLocks = 0, textLocks = 0;
    bool planLocksOk = true;
    for (int round = 0; round < rounds; ++round) {
        const Walk w = bareWalk(raw, 1000);
        const ListRun j = runCli(cli,
            { QStringLiteral("--url"), url, QStringLiteral("--json"), QStringLiteral("list") }, outPath, raw, true);
        const ListRun t = runCli(cli, { QStringLiteral("--url"), url, QStringLiteral("list") }, outPath, raw, false);
        const PassRun untyped = scannerPass(server.options(), false, raw);
        const PassRun typed = scannerPass(server.options(), true, raw);
        report(QStringLiteral("  scanner pass, one untyped walk + TYPE: %1 ms (server CPU %2 ms, %3 locks); one typed "
                              "walk per cursor: %4 ms (server CPU %5 ms, %6 locks)")
                   .arg(untyped.wallMs, 0, 'f', 0)
                   .arg(untyped.serverCpuMs, 0, 'f', 0)
                   .arg(untyped.locks)
                   .arg(typed.wallMs, 0, 'f', 0)
                   .arg(typed.serverCpuMs, 0, 'f', 0)
                   .arg(typed.locks));
        untypedMs.push_back(untyped.wallMs);
        untypedCpu.push_back(untyped.serverCpuMs);
        typedMs.push_back(typed.wallMs);
        typedCpu.push_back(typed.serverCpuMs);
        planLocksOk = planLocksOk && untyped.locks == locks + otherLocks && typed.locks == locks + otherLocks;
        report(QStringLiteral("round %1: bare walk %2 ms (server CPU %3 ms, %4 keys); --json list %5 ms (server CPU "
                              "%6 ms, peak RSS %7 MiB, %8 locks); list %9 ms (peak RSS %10 MiB)")
                   .arg(round + 1)
                   .arg(w.wallMs, 0, 'f', 0)
                   .arg(w.serverCpuMs, 0, 'f', 0)
                   .arg(w.keys)
                   .arg(j.wallMs, 0, 'f', 0)
                   .arg(j.serverCpuMs, 0, 'f', 0)
                   .arg(j.rssMb, 0, 'f', 1)
                   .arg(j.locks)
                   .arg(t.wallMs, 0, 'f', 0)
                   .arg(t.rssMb, 0, 'f', 1));
        walkMs.push_back(w.wallMs);
        walkCpu.push_back(w.serverCpuMs);
        jsonMs.push_back(j.wallMs);
        jsonCpu.push_back(j.serverCpuMs);
        textMs.push_back(t.wallMs);
        textCpu.push_back(t.serverCpuMs);
        jsonRss = qMax(jsonRss, j.rssMb);
        textRss = qMax(textRss, t.rssMb);
        walkKeys = w.keys;
        jsonLocks = j.locks;
        textLocks = t.locks;
    }
    // The reference plans, once each after the rounds: the least a client-side plan sends, and a server-side one.
    const PlanRun floor = typedWalk(raw);
    report(QStringLiteral("walk + TYPE of every key + first page of every hash (raw): %1 ms (server CPU %2 ms)")
               .arg(floor.wallMs, 0, 'f', 0)
               .arg(floor.serverCpuMs, 0, 'f', 0));
    const int scriptCount = parser.value(QStringLiteral("script-count")).toInt();
    PlanRun script;
    if (scriptCount > 0) {
        script = scriptWalk(raw, scriptCount);
        report(
            QStringLiteral("read-only script per SCAN page of %1 keys: %2 ms (server CPU %3 ms, %4 candidates); each "
                           "call blocked the server %5 us on average, at most %6 us; a SCAN COUNT 1000: %7 us, at "
                           "most %8 us")
                .arg(scriptCount)
                .arg(script.wallMs, 0, 'f', 0)
                .arg(script.serverCpuMs, 0, 'f', 0)
                .arg(script.candidates)
                .arg(script.blockAvgUs, 0, 'f', 0)
                .arg(script.blockMaxUs, 0, 'f', 0)
                .arg(script.scanBlockAvgUs, 0, 'f', 0)
                .arg(script.scanBlockMaxUs, 0, 'f', 0));
    }
    if (!server.isPrivate() && !parser.isSet(QStringLiteral("keep"))) {
        const qint64 removed = removeSeeded(raw, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded").arg(removed));
    }

    const qint64 expected = locks + otherLocks;
    const bool ok = jsonLocks == expected && textLocks == expected && planLocksOk;
    if (!ok)
        std::fprintf(stderr, "listed %lld (json) and %lld (text) locks, expected %lld\n",
            static_cast<long long>(jsonLocks), static_cast<long long>(textLocks), static_cast<long long>(expected));
    const double walk = median(walkMs), walkServer = median(walkCpu);
    printJsonLine(
        JsonLine()
            .add(QStringLiteral("bench"), "list")
            .add(QStringLiteral("locks"), locks)
            .add(QStringLiteral("other_locks"), otherLocks)
            .add(QStringLiteral("noise_keys"), noise)
            .add(QStringLiteral("rounds"), rounds)
            .add(QStringLiteral("locks_listed"), jsonLocks)
            .add(QStringLiteral("list_json_ms"), median(jsonMs))
            .add(QStringLiteral("list_json_rss_peak_mb"), jsonRss)
            .add(QStringLiteral("list_json_server_cpu_ms"), median(jsonCpu))
            .add(QStringLiteral("list_text_ms"), median(textMs))
            .add(QStringLiteral("list_text_rss_peak_mb"), textRss)
            .add(QStringLiteral("list_text_server_cpu_ms"), median(textCpu))
            .add(QStringLiteral("scanner_untyped_ms"), median(untypedMs))
            .add(QStringLiteral("scanner_untyped_server_cpu_ms"), median(untypedCpu))
            .add(QStringLiteral("scanner_typed_ms"), median(typedMs))
            .add(QStringLiteral("scanner_typed_server_cpu_ms"), median(typedCpu))
            .add(QStringLiteral("script_plan"),
                JsonLine()
                    .add(QStringLiteral("keys_per_call"), scriptCount)
                    .add(QStringLiteral("wall_ms"), script.wallMs)
                    .add(QStringLiteral("server_cpu_ms"), script.serverCpuMs)
                    .add(QStringLiteral("call_block_avg_us"), script.blockAvgUs)
                    .add(QStringLiteral("call_block_max_us"), script.blockMaxUs)
                    .add(QStringLiteral("scan_1000_block_avg_us"), script.scanBlockAvgUs)
                    .add(QStringLiteral("scan_1000_block_max_us"), script.scanBlockMaxUs))
            .add(QStringLiteral("baseline"),
                JsonLine()
                    .add(QStringLiteral("bare_walk_ms"), walk)
                    .add(QStringLiteral("bare_walk_server_cpu_ms"), walkServer)
                    .add(QStringLiteral("bare_walk_keys"), walkKeys)
                    .add(QStringLiteral("typed_walk_ms"), floor.wallMs)
                    .add(QStringLiteral("typed_walk_server_cpu_ms"), floor.serverCpuMs))
            .add(QStringLiteral("ratio"),
                JsonLine()
                    .add(QStringLiteral("bare_walk_vs_list_json"), walk / median(jsonMs))
                    .add(QStringLiteral("bare_walk_cpu_vs_list_json_server_cpu"), walkServer / median(jsonCpu))
                    .add(QStringLiteral("bare_walk_vs_list_text"), walk / median(textMs))
                    .add(QStringLiteral("typed_vs_untyped_scanner_server_cpu"), median(typedCpu) / median(untypedCpu))
                    // The floor of any plan reading from the client, against the bare walk; and list against it.
                    .add(QStringLiteral("bare_walk_vs_typed_walk"), walk / floor.wallMs)
                    .add(QStringLiteral("typed_walk_vs_list_json"), floor.wallMs / median(jsonMs))
                    .add(QStringLiteral("bare_walk_vs_script_plan"), scriptCount > 0 ? walk / script.wallMs : 0.0)
                    .add(QStringLiteral("typed_walk_server_cpu_vs_script_plan_server_cpu"),
                        scriptCount > 0 ? floor.serverCpuMs / script.serverCpuMs : 0.0)
                    .add(QStringLiteral("scan_block_vs_script_call_block"),
                        scriptCount > 0 && script.blockAvgUs > 0 ? script.scanBlockAvgUs / script.blockAvgUs : 0.0)));
    return ok ? 0 : 1;
}
