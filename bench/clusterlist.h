#pragma once

#include "clusterstart.h"
#include "monitorraw.h"

#include <QString>

#include <vector>

namespace LockScope::Bench {

// `lockscope-cli --json list` (a process of its own, as bench_list runs it) on the single server and on the cluster,
// each against the bare walk of the same keys in the same round: on the single server one SCAN loop, on the cluster
// one SCAN loop per master, all at once (a thread each), since the CLI walks the masters side by side.
struct ListSide
{
    std::vector<double> walkMs, walkServerCpuMs; // the bare walk
    std::vector<double> listMs, listCpuMs, listServerCpuMs; // the CLI: wall, its own CPU, the servers' CPU
    std::vector<double> ratios; // walk / list, per round
    double listRssMb = 0;
    qint64 walkKeys = 0;
    qint64 locksListed = -1; // the fewest any round listed
};

struct ListFigures
{
    ListSide single, cluster;
};

// rounds rounds of: the single server's walk, its list, the cluster's parallel walk, its list. Fatal when a list
// misses a lock.
ListFigures measureLists(const QString &cli, RawPipe &single, const QString &singleUrl, ClusterPipes &masters,
    const QString &clusterUrl, int rounds, qint64 locks);

// One SCAN loop per master, at once, each on its own thread; wall time until the last one is done.
Walk parallelWalk(ClusterPipes &masters, int count);

} // namespace LockScope::Bench
