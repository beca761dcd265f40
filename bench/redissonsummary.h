#pragma once

#include "benchcommon.h"
#include "handoffstats.h"
#include "hiredisloop.h"

#include <QJsonObject>

#include <map>
#include <vector>

namespace LockScope::Bench {

struct RedissonSettings
{
    double seconds = 4; // uncontended: per figure, split over the rounds
    int rounds = 8;
    qint64 leaseMs = 30000;
    double handoffSeconds = 2; // per contest
    qint64 handoffLeaseMs = 10000;
    int pairs = 3;
    double warmupSeconds = 5;
    std::vector<int> processes { 2, 4, 8 };
};

// One uncontended round: the four loops next to each other in time.
struct UncontendedRound
{
    Rate rawPing;
    Rate rawCycles;
    Rate lockscope;
    Rate redisson;
    double redissonP50Us = 0;
    double redissonP99Us = 0;
};

// One hand-off pair: both sides' contest for one process count, back to back.
struct HandoffPair
{
    ContestFigures lockscope;
    ContestFigures redisson;
};

struct RedissonRun
{
    QString version; // Redisson's, as its jar says
    QString javaVersion;
    QString gc; // the collector the JVMs' ergonomics chose
    QJsonObject uncontendedWarmup; // the uncontended JVM's warm-up, as it reported it
    double handoffWarmupMsMax = 0; // the slowest hand-off JVM's own warm-up
    double handoffWarmupContestSeconds = 0; // then contests of them, thrown away (their total time)
    std::vector<UncontendedRound> rounds;
    std::map<int, std::vector<HandoffPair>> handoff; // by process count
    std::vector<double> idleRttUs; // raw PING slices between the contests
};

// Reports the figures for people and returns the JSON line: medians over rounds and pairs, each ratio the median of
// per-round (per-pair) ratios, so each compares measurements taken next to each other in time.
JsonLine summarizeRedisson(const RedissonSettings &settings, const RedissonRun &run);

} // namespace LockScope::Bench
