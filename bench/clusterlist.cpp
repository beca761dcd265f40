#include "clusterlist.h"

#include "clirun.h"

#include <QTemporaryDir>

#include <functional>
#include <thread>

namespace LockScope::Bench {

namespace {
double serversCpuMs(ClusterPipes &masters)
{
    double total = 0;
    for (int i = 0; i < masters.size(); ++i)
        total += serverCpuMs(masters.at(i));
    return total;
}

void runList(ListSide &side, const QString &cli, const QString &url, const QString &outPath, qint64 locks,
    const std::function<double()> &serverCpu, const Walk &walk, const QString &name, int round)
{
    const double cpu0 = serverCpu();
    const CliRun run = runCliProcess(
        cli, { QStringLiteral("--url"), url, QStringLiteral("--json"), QStringLiteral("list") }, outPath, true);
    const double serverCpuMs = serverCpu() - cpu0;
    if (run.locks != locks)
        fatal(QStringLiteral("%1: lockscope-cli list printed %2 locks, %3 were seeded")
                  .arg(name)
                  .arg(run.locks)
                  .arg(locks));
    side.walkMs.push_back(walk.wallMs);
    side.walkServerCpuMs.push_back(walk.serverCpuMs);
    side.walkKeys = walk.keys;
    side.listMs.push_back(run.wallMs);
    side.listCpuMs.push_back(run.cpuMs);
    side.listServerCpuMs.push_back(serverCpuMs);
    side.listRssMb = qMax(side.listRssMb, run.rssMb);
    side.ratios.push_back(walk.wallMs / run.wallMs);
    side.locksListed = side.locksListed < 0 ? run.locks : qMin(side.locksListed, run.locks);
    report(QStringLiteral("  %1 round %2: bare walk %3 ms (servers' CPU %4 ms, %5 keys); --json list %6 ms (its CPU %7 "
                          "ms, servers' CPU %8 ms, peak RSS %9 MiB); walk / list %10")
               .arg(name)
               .arg(round + 1)
               .arg(walk.wallMs, 0, 'f', 0)
               .arg(walk.serverCpuMs, 0, 'f', 0)
               .arg(walk.keys)
               .arg(run.wallMs, 0, 'f', 0)
               .arg(run.cpuMs, 0, 'f', 0)
               .arg(serverCpuMs, 0, 'f', 0)
               .arg(run.rssMb, 0, 'f', 1)
               .arg(side.ratios.back(), 0, 'f', 3));
}
} // namespace

Walk parallelWalk(ClusterPipes &masters, int count)
{
    const double cpu0 = serversCpuMs(masters);
    std::vector<Walk> walks(size_t(masters.size()));
    std::vector<std::thread> threads;
    const qint64 start = nowNs();
    for (int i = 0; i < masters.size(); ++i)
        threads.emplace_back([&masters, &walks, i, count] { walks[size_t(i)] = bareWalk(masters.at(i), count); });
    for (std::thread &t : threads)
        t.join();
    Walk all;
    all.wallMs = double(nowNs() - start) / 1e6;
    all.serverCpuMs = serversCpuMs(masters) - cpu0;
    for (const Walk &w : walks)
        all.keys += w.keys;
    return all;
}

ListFigures measureLists(const QString &cli, RawPipe &single, const QString &singleUrl, ClusterPipes &masters,
    const QString &clusterUrl, int rounds, qint64 locks)
{
    QTemporaryDir dir;
    const QString outPath = dir.filePath(QStringLiteral("out"));
    ListFigures f;
    const auto singleCpu = [&single] { return serverCpuMs(single); };
    const auto clusterCpu = [&masters] { return serversCpuMs(masters); };
    // Not counted: the first walks of a freshly loaded keyspace are slower.
    bareWalk(single, 1000);
    parallelWalk(masters, 1000);
    for (int round = 0; round < rounds; ++round) {
        runList(f.single, cli, singleUrl, outPath, locks, singleCpu, bareWalk(single, 1000), QStringLiteral("single"),
            round);
        runList(f.cluster, cli, clusterUrl, outPath, locks, clusterCpu, parallelWalk(masters, 1000),
            QStringLiteral("cluster"), round);
    }
    return f;
}

} // namespace LockScope::Bench
