// bench_cluster: the lock monitor's first full snapshot of one keyspace spread over a 3-master Redis Cluster, against
// its first snapshot of the very same keyspace on a single redis-server, both in the same run, rounds interleaved.

#include "benchcommon.h"
#include "clusterlist.h"
#include "clusterstart.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "monitorprobe.h"
#include "monitorraw.h"
#include "monitorseed.h"
#include "redis/redisrouter.h"
#include "servercpu.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

#include <cmath>
#include <cstdio>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

constexpr int kMasters = 3;
constexpr int kPings = 1000;

double pingRttMs(RawPipe &raw)
{
    std::vector<double> rtts;
    QString error;
    for (int i = 0; i < kPings; ++i) {
        const qint64 start = nowNs();
        RawReply reply = raw.command({ "PING" }, &error);
        if (!reply)
            fatal(error);
        rtts.push_back(ms(nowNs() - start));
    }
    return median(rtts);
}

RawSnapshot rawPass(RawPipe &pipe, int scanCount)
{
    RawSnapshot snapshot;
    QString error;
    if (!rawSnapshot(pipe, scanCount, &snapshot, &error))
        fatal(error);
    return snapshot;
}

struct Side
{
    QString name; // "single", "cluster"
    ConnectionOptions options;
    bool cluster = false;
    int masters = 1;
    std::vector<double> snapshotMs;
    std::vector<double> maxGapMs;
    QString mode;
    int locksFound = -1; // the fewest any of its snapshots found
    QList<qint64> serverPids; // empty for servers the bench did not start
    std::vector<double> clientCpuMs;
    std::vector<double> serverCpuMs;
};

// A fresh monitor and model each time, as a user opening the app would get: nothing cached from the previous round.
SnapshotRun snapshotOnce(QEventLoop &loop, Side &side, int scanCount, int locks)
{
    LockMonitor::Options options;
    options.pattern = "*";
    options.scanCount = scanCount;
    options.useKeyspaceEvents = true; // used when the server sends them; the monitor never turns them on
    auto monitor = std::make_unique<LockMonitor>(side.options, options);
    auto model = std::make_unique<LockTableModel>(monitor.get());
    const double clientCpu = selfCpuMs();
    const double serverCpu = processesCpuMs(side.serverPids);
    const SnapshotRun run = takeSnapshot(loop, monitor.get(), model.get());
    // Includes the wait for the event mode after the snapshot, a few ms of idle.
    side.clientCpuMs.push_back(selfCpuMs() - clientCpu);
    side.serverCpuMs.push_back(processesCpuMs(side.serverPids) - serverCpu);
    if (run.error.isError())
        fatal(QStringLiteral("%1 snapshot failed: %2").arg(side.name, run.error.toString()));
    RedisRouter *router = monitor->connection();
    if (router->isCluster() != side.cluster)
        fatal(QStringLiteral("the monitor took the %1 server for %2").arg(side.name, router->describe()));
    if (side.cluster && router->masterConnections().size() != side.masters)
        fatal(QStringLiteral("the monitor scans %1 masters, the cluster has %2: %3")
                  .arg(router->masterConnections().size())
                  .arg(side.masters)
                  .arg(router->describe()));
    if (run.rows != locks)
        fatal(QStringLiteral("the monitor found %1 locks on the %2 side, %3 were seeded")
                  .arg(run.rows)
                  .arg(side.name)
                  .arg(locks));
    side.locksFound = side.locksFound < 0 ? run.rows : qMin(side.locksFound, run.rows);
    side.snapshotMs.push_back(ms(run.elapsedNs));
    side.maxGapMs.push_back(run.maxGapMs);
    side.mode = QString::fromLatin1(LockEventFeed::modeName(monitor->mode()));
    // The model goes first: it holds on to the monitor's signals.
    model.reset();
    monitor.reset();
    return run;
}

QString describeRun(const SnapshotRun &run, const Side &side)
{
    QString text = QStringLiteral("%1 ms (longest loop gap %2 ms")
                       .arg(ms(run.elapsedNs), 0, 'f', 1)
                       .arg(run.maxGapMs, 0, 'f', 1);
    text += QStringLiteral(", CPU: monitor %1 ms").arg(side.clientCpuMs.back(), 0, 'f', 0);
    if (!side.serverPids.isEmpty())
        text += QStringLiteral(", servers %1 ms").arg(side.serverCpuMs.back(), 0, 'f', 0);
    return text + QLatin1Char(')');
}

// The median, or null for servers the bench did not start.
double serverCpuMs(const Side &side)
{
    return side.serverPids.isEmpty() ? std::nan("") : median(side.serverCpuMs);
}

// Where a stall comes from, without a cluster's dozens of gaps filling the screen.
void reportGaps(const SnapshotRun &run, const Side &side)
{
    constexpr int kListed = 6;
    if (run.longGaps.isEmpty())
        return;
    QStringList listed = run.longGaps.mid(0, kListed);
    if (run.longGaps.size() > kListed)
        listed << QStringLiteral("%1 more").arg(run.longGaps.size() - kListed);
    report(QStringLiteral("  %1: %2 event-loop gaps over %3 ms: %4")
               .arg(side.name)
               .arg(run.longGaps.size())
               .arg(kLongGapMs)
               .arg(listed.join(QStringLiteral(", "))));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_cluster"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The lock monitor's first snapshot on a 3-master Redis Cluster "
                                                    "against the same keyspace on a single redis-server."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("cluster-url"),
        QStringLiteral("any node of an existing, empty cluster; default: a private 3-master cluster for this run"),
        QStringLiteral("URL") });
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("locks to seed"), QStringLiteral("N"), QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("noise"), QStringLiteral("other keys to seed"), QStringLiteral("N"),
        QStringLiteral("200000") });
    parser.addOption(
        { QStringLiteral("scan-count"), QStringLiteral("SCAN COUNT"), QStringLiteral("N"), QStringLiteral("1000") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("single/cluster snapshot pairs"), QStringLiteral("R"),
        QStringLiteral("3") });
    parser.addOption({ QStringLiteral("list-rounds"),
        QStringLiteral("single/cluster rounds of bare walk + lockscope-cli list (0: none)"), QStringLiteral("R"),
        QStringLiteral("3") });
    parser.addOption({ QStringLiteral("cli"), QStringLiteral("the lockscope-cli to run"), QStringLiteral("PATH"),
        QStringLiteral(LOCKSCOPE_CLI_PATH) });
    parser.addOption({ QStringLiteral("keep"),
        QStringLiteral(
            "leave the seeded keys on --url and --cluster-url servers (to profile against them afterwards)") });
    parser.process(app);
    const bool keep = parser.isSet(QStringLiteral("keep"));

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const int scanCount = parser.value(QStringLiteral("scan-count")).toInt();
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    const int listRounds = parser.value(QStringLiteral("list-rounds")).toInt();
    if (locks < 10 || noise < 0 || scanCount < 1 || rounds < 1 || listRounds < 0)
        fatal(QStringLiteral("--locks must be >= 10, --scan-count and --rounds positive, --noise and --list-rounds not "
                             "negative"));

    QString error;
    BenchServer server;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    RawPipe single;
    if (!single.connect(server.options(), &error))
        fatal(error);
    // Every lock found is counted against the seeded ones, and the seeded keys are deleted afterwards.
    if (!server.isPrivate() && databaseSize(single, &error) != 0)
        fatal(QStringLiteral("%1 is not an empty database; pick an empty one (e.g. /15 in the URL)%2")
                  .arg(server.options().toDisplayUrl(), error.isEmpty() ? QString() : QStringLiteral(": ") + error));

    BenchCluster cluster;
    const qint64 clusterStart = nowNs();
    if (!cluster.open(parser.value(QStringLiteral("cluster-url")), kMasters, &error))
        fatal(error);
    ClusterPipes nodes;
    if (!nodes.connect(cluster, &error))
        fatal(error);
    if (!cluster.isPrivate()) {
        for (int i = 0; i < nodes.size(); ++i)
            if (databaseSize(nodes.at(i), &error) != 0)
                fatal(QStringLiteral("master %1 of %2 is not empty; the bench needs an empty cluster%3")
                          .arg(cluster.masterOptions().at(i).toDisplayUrl(), cluster.options().toDisplayUrl(),
                              error.isEmpty() ? QString() : QStringLiteral(": ") + error));
    }
    report(QStringLiteral("single server: %1%2; cluster: %3%4, %5 masters (ready in %6 ms); %7 locks among %8 other "
                          "keys, SCAN COUNT %9")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString(),
                   cluster.options().toDisplayUrl(), cluster.isPrivate() ? QStringLiteral(" (private)") : QString())
               .arg(nodes.size())
               .arg(ms(nowNs() - clusterStart), 0, 'f', 0)
               .arg(locks)
               .arg(noise)
               .arg(scanCount));

    // bench_monitor's loader on the single server, then a copy of that keyspace key by key: the two sides hold the
    // same bytes, so they classify alike.
    const SeedPlan plan = standardSeedPlan(locks, noise, 0);
    SeedCounts seeded;
    if (!seedKeyspace(single, plan, kSeedChunk, &seeded, &error))
        fatal(error);
    const qint64 singleKeys = databaseSize(single, &error);
    const qint64 copyStart = nowNs();
    const qint64 copied = copyKeyspace(single, nodes, kSeedChunk, &error);
    if (copied < 0)
        fatal(error);
    QStringList perMaster;
    qint64 clusterKeys = 0;
    for (int i = 0; i < nodes.size(); ++i) {
        const qint64 keys = databaseSize(nodes.at(i), &error);
        if (keys < 0)
            fatal(error);
        perMaster << QString::number(keys);
        clusterKeys += keys;
    }
    report(QStringLiteral("seeded %1 keys in %2 ms (%3 commands), copied to the cluster in %4 ms: %5 keys per master")
               .arg(singleKeys)
               .arg(ms(seeded.elapsedNs), 0, 'f', 0)
               .arg(seeded.commands)
               .arg(ms(nowNs() - copyStart), 0, 'f', 0)
               .arg(perMaster.join(QStringLiteral(" + "))));
    if (clusterKeys != singleKeys)
        fatal(QStringLiteral("the cluster holds %1 keys, the single server %2").arg(clusterKeys).arg(singleKeys));

    // The first pass over a freshly loaded keyspace is slower than later ones (the server still growing and rehashing
    // its key table): one raw pass on every server first, so neither side's monitor pays for that. Its figures say
    // what the server side of one pass costs: the single server, and each master one after another.
    const RawSnapshot singleRaw = rawPass(single, scanCount);
    QStringList masterRawMs;
    qint64 clusterLockShaped = 0;
    double clusterRawMs = 0;
    for (int i = 0; i < nodes.size(); ++i) {
        const RawSnapshot raw = rawPass(nodes.at(i), scanCount);
        clusterLockShaped += raw.lockShaped;
        clusterRawMs += ms(raw.elapsedNs);
        masterRawMs << QString::number(ms(raw.elapsedNs), 'f', 1);
    }
    report(QStringLiteral("raw pass (warm-up, not counted): single %1 ms, %2 SCAN calls; cluster masters one after "
                          "another %3 ms (%4), %5 lock-shaped on both")
               .arg(ms(singleRaw.elapsedNs), 0, 'f', 1)
               .arg(singleRaw.scanCalls)
               .arg(clusterRawMs, 0, 'f', 1)
               .arg(masterRawMs.join(QStringLiteral(" + ")))
               .arg(singleRaw.lockShaped));
    if (singleRaw.lockShaped != locks + seeded.lookAlikes || clusterLockShaped != singleRaw.lockShaped)
        fatal(QStringLiteral("lock-shaped hashes: %1 on the single server, %2 on the cluster, %3 expected")
                  .arg(singleRaw.lockShaped)
                  .arg(clusterLockShaped)
                  .arg(locks + seeded.lookAlikes));

    const double pingMs = pingRttMs(single);
    report(QStringLiteral("PING round trip (single server): median %1 ms").arg(pingMs, 0, 'f', 3));

    Side singleSide;
    singleSide.name = QStringLiteral("single");
    singleSide.options = server.options();
    singleSide.serverPids = childServerPids({ server.options().port });
    Side clusterSide;
    clusterSide.name = QStringLiteral("cluster");
    clusterSide.options = cluster.options();
    clusterSide.cluster = true;
    clusterSide.masters = nodes.size();
    QList<quint16> masterPorts;
    for (const ConnectionOptions &master : cluster.masterOptions())
        masterPorts << master.port;
    clusterSide.serverPids = childServerPids(masterPorts);
    // All or nothing: a partial sum would pass for the cluster's whole cost.
    if (singleSide.serverPids.size() != 1)
        singleSide.serverPids.clear();
    if (clusterSide.serverPids.size() != masterPorts.size())
        clusterSide.serverPids.clear();

    std::vector<double> ratios;
    QEventLoop loop;
    for (int round = 0; round < rounds; ++round) {
        const SnapshotRun one = snapshotOnce(loop, singleSide, scanCount, locks);
        const SnapshotRun many = snapshotOnce(loop, clusterSide, scanCount, locks);
        ratios.push_back(ms(one.elapsedNs) / ms(many.elapsedNs));
        report(QStringLiteral("round %1: single %2, cluster %3; single / cluster %4")
                   .arg(round + 1)
                   .arg(describeRun(one, singleSide), describeRun(many, clusterSide))
                   .arg(ratios.back(), 0, 'f', 3));
        reportGaps(one, singleSide);
        reportGaps(many, clusterSide);
    }
    // Monitors are torn down after each snapshot, so the high-water mark is the biggest single one.
    const double rssPeakMb = procStatusMb("VmHWM");

    // lockscope-cli list on both, each against its bare walk: the masters' walked all at once, as the CLI walks them.
    ListFigures lists;
    if (listRounds > 0) {
        report(QStringLiteral("lockscope-cli --json list, %1 rounds:").arg(listRounds));
        lists = measureLists(
            parser.value(QStringLiteral("cli")), single, server.url(), nodes, cluster.url(), listRounds, locks);
    }

    if (!server.isPrivate() && !keep) {
        const qint64 removed = removeSeeded(single, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded on the single server").arg(removed));
    }
    if (!cluster.isPrivate() && !keep) {
        error.clear();
        const qint64 removed = removeSeededFromCluster(nodes, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cluster cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded on the cluster").arg(removed));
    }

    const double singleMs = median(singleSide.snapshotMs);
    const double clusterMs = median(clusterSide.snapshotMs);
    const double ratio = median(ratios);
    report(QStringLiteral("median snapshot: single %1 ms, cluster %2 ms; single / cluster %3 (median of the rounds' "
                          "ratios; target >= 0.67)")
               .arg(singleMs, 0, 'f', 1)
               .arg(clusterMs, 0, 'f', 1)
               .arg(ratio, 0, 'f', 3));

    JsonLine baseline;
    baseline.add(QStringLiteral("single_server_snapshot_ms"), singleMs)
        .add(QStringLiteral("single_server_max_loop_gap_ms"), median(singleSide.maxGapMs))
        .add(QStringLiteral("single_server_mode"), singleSide.mode)
        .add(QStringLiteral("single_server_monitor_cpu_ms"), median(singleSide.clientCpuMs))
        .add(QStringLiteral("single_server_cpu_ms"), serverCpuMs(singleSide))
        .add(QStringLiteral("raw_single_pass_ms"), ms(singleRaw.elapsedNs))
        .add(QStringLiteral("raw_masters_pass_ms"), clusterRawMs)
        .add(QStringLiteral("ping_rtt_ms"), pingMs);
    JsonLine ratioJson;
    ratioJson.add(QStringLiteral("single_vs_cluster_snapshot"), ratio);
    const auto orNull
        = [listRounds](const std::vector<double> &values) { return listRounds > 0 ? median(values) : std::nan(""); };
    const double clusterListRatio = orNull(lists.cluster.ratios), singleListRatio = orNull(lists.single.ratios);
    baseline.add(QStringLiteral("single_list_json_ms"), orNull(lists.single.listMs))
        .add(QStringLiteral("single_list_cpu_ms"), orNull(lists.single.listCpuMs))
        .add(QStringLiteral("single_list_server_cpu_ms"), orNull(lists.single.listServerCpuMs))
        .add(QStringLiteral("single_bare_walk_ms"), orNull(lists.single.walkMs))
        .add(QStringLiteral("parallel_bare_walk_ms"), orNull(lists.cluster.walkMs))
        .add(QStringLiteral("parallel_bare_walk_servers_cpu_ms"), orNull(lists.cluster.walkServerCpuMs))
        .add(QStringLiteral("bare_walk_keys"), lists.cluster.walkKeys);
    ratioJson.add(QStringLiteral("parallel_walk_vs_cluster_list"), clusterListRatio)
        .add(QStringLiteral("bare_walk_vs_single_list"), singleListRatio)
        .add(QStringLiteral("cluster_list_ratio_vs_single"), clusterListRatio / singleListRatio)
        .add(QStringLiteral("single_vs_cluster_list_cli_cpu"),
            orNull(lists.single.listCpuMs) / orNull(lists.cluster.listCpuMs));
    JsonLine json;
    json.add(QStringLiteral("bench"), "cluster")
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("noise_keys"), noise)
        .add(QStringLiteral("masters"), nodes.size())
        .add(QStringLiteral("scan_count"), scanCount)
        .add(QStringLiteral("rounds"), rounds)
        .add(QStringLiteral("mode"), clusterSide.mode)
        .add(QStringLiteral("snapshot_ms"), clusterMs)
        .add(QStringLiteral("locks_found"), clusterSide.locksFound)
        .add(QStringLiteral("max_loop_gap_ms"), median(clusterSide.maxGapMs))
        .add(QStringLiteral("monitor_cpu_ms"), median(clusterSide.clientCpuMs))
        .add(QStringLiteral("servers_cpu_ms"), serverCpuMs(clusterSide))
        .add(QStringLiteral("rss_peak_mb"), rssPeakMb)
        .add(QStringLiteral("list_rounds"), listRounds)
        .add(QStringLiteral("locks_listed"), lists.cluster.locksListed)
        .add(QStringLiteral("list_json_ms"), orNull(lists.cluster.listMs))
        .add(QStringLiteral("list_cpu_ms"), orNull(lists.cluster.listCpuMs))
        .add(QStringLiteral("list_servers_cpu_ms"), orNull(lists.cluster.listServerCpuMs))
        .add(QStringLiteral("list_rss_peak_mb"), lists.cluster.listRssMb)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratioJson);
    printJsonLine(json);
    return 0;
}
