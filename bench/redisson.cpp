// bench_redisson: Redisson itself as the performance peer of LockScope's lock client, on the same private server in
// the same run. Uncontended lock+unlock cycles (LockClient against Redisson's lock(lease)/unlock() in a warm JVM, in
// interleaved rounds with the PING ceiling and the raw hiredis loop), then the hand-off of one lock between 2, 4 and 8
// processes (bench_handoff's contest, once with LockScope's workers and once with one-thread JVMs, in pairs).

#include "benchcommon.h"
#include "clientloops.h"
#include "handoffcontest.h"
#include "hiredisloop.h"
#include "javapeer.h"
#include "lock/lockclient.h"
#include "redissonsummary.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

#include <algorithm>
#include <functional>
#include <memory>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

constexpr qint64 nsPerSecond = 1000000000;
constexpr qint64 rttSliceNs = nsPerSecond / 4;
const QByteArray uncontendedName = "lockscope-bench:uncontended";
const QByteArray handoffName = "lockscope-bench:handoff";
// Starting a JVM and Redisson's connection pool, on two busy CPUs, then its own warm-up.
constexpr int jvmStartMs = 120000;

// LockClient's cycles for span, run to the end in a nested event loop so every phase reads as one call.
Rate lockscopeCycles(ClientLoops &loops, const LockCycle &cycle, qint64 span)
{
    Rate rate;
    QEventLoop loop;
    loops.lockCyclesUntil(cycle, nowNs() + span, [&](const Rate &r) {
        rate = r;
        loop.quit();
    });
    loop.exec();
    return rate;
}

// One slice of Redisson's cycles, timed by the JVM itself; returns the version its jar names.
QString redissonCycles(JavaPeer &jvm, qint64 span, UncontendedRound *round)
{
    QString error;
    QJsonObject result;
    jvm.go(double(span) / nsPerSecond);
    if (!jvm.readResult(int(span / 1000000) + 30000, &result, &error))
        fatal(error);
    round->redisson.count = qint64(result.value(QStringLiteral("cycles")).toDouble());
    round->redisson.elapsedNs = qint64(result.value(QStringLiteral("elapsed_ns")).toDouble());
    round->redissonP50Us = result.value(QStringLiteral("cycle_p50_us")).toDouble();
    round->redissonP99Us = result.value(QStringLiteral("cycle_p99_us")).toDouble();
    return result.value(QStringLiteral("redisson_version")).toString();
}

void uncontendedPhase(const RedissonSettings &settings, const JavaSetup &java, const BenchServer &server,
    HiredisLoop &raw, RedissonRun *run)
{
    QString error;
    // Started first and alone: its warm-up is the JIT's, and nothing else competes for the CPUs meanwhile.
    JavaPeer jvm;
    jvm.start(java, server.options(), QStringLiteral("uncontended"),
        { QStringLiteral("--lease"), QString::number(settings.leaseMs), QStringLiteral("--warmup-seconds"),
            QString::number(settings.warmupSeconds), QStringLiteral("--name"), QString::fromUtf8(uncontendedName) });
    if (!jvm.waitReady(jvmStartMs, &run->uncontendedWarmup, &error))
        fatal(error);
    run->javaVersion = run->uncontendedWarmup.value(QStringLiteral("java_version")).toString();
    run->gc = run->uncontendedWarmup.value(QStringLiteral("gc")).toString();

    auto client = std::make_unique<LockClient>(server.options());
    ClientLoops loops(client.get());
    LockCycle cycle;
    cycle.name = uncontendedName;
    cycle.owner = client->ownerField(LockClient::currentThreadToken());
    cycle.leaseMs = settings.leaseMs;
    cycle.latchTtlMs = client->options().latchTtlMs;
    cycle.publishCommand = client->publishCommand();

    const qint64 sliceNs = qint64(settings.seconds * nsPerSecond / settings.rounds);
    auto rawPing = [&](Rate *out, qint64 span) {
        *out = raw.pingUntil(nowNs() + span, &error);
        if (!error.isEmpty())
            fatal(error);
    };
    auto rawCycles = [&](Rate *out, qint64 span) {
        *out = raw.lockCyclesUntil(cycle, nowNs() + span, &error);
        if (!error.isEmpty())
            fatal(error);
    };
    // Our side's warm-up, as bench_uncontended's: connections up, scripts cached, code paths hot.
    UncontendedRound warmup;
    const qint64 warmupNs = qMin<qint64>(sliceNs, nsPerSecond / 4);
    warmup.lockscope = lockscopeCycles(loops, cycle, warmupNs);
    rawCycles(&warmup.rawCycles, warmupNs);
    rawPing(&warmup.rawPing, warmupNs);
    report(QStringLiteral("uncontended: %1 rounds of %2 ms per figure, lease %3 ms; Redisson's JVM warmed up for %4 ms "
                          "(%5 cycles, %6 in its first second, %7 in its last)")
               .arg(settings.rounds)
               .arg(double(sliceNs) / 1e6)
               .arg(settings.leaseMs)
               .arg(run->uncontendedWarmup.value(QStringLiteral("ms")).toDouble(), 0, 'f', 0)
               .arg(run->uncontendedWarmup.value(QStringLiteral("cycles")).toInteger())
               .arg(run->uncontendedWarmup.value(QStringLiteral("first_s_cycles")).toInteger())
               .arg(run->uncontendedWarmup.value(QStringLiteral("last_s_cycles")).toInteger()));

    // Interleaved, and in reverse order every other round, so a slow patch of the machine hits every loop alike.
    run->rounds.resize(size_t(settings.rounds));
    for (int r = 0; r < settings.rounds; ++r) {
        UncontendedRound *f = &run->rounds[size_t(r)];
        const std::vector<std::function<void()>> loopsOfRound {
            [&] { rawPing(&f->rawPing, sliceNs); },
            [&] { rawCycles(&f->rawCycles, sliceNs); },
            [&] { f->lockscope = lockscopeCycles(loops, cycle, sliceNs); },
            [&] { run->version = redissonCycles(jvm, sliceNs, f); },
        };
        for (size_t i = 0; i < loopsOfRound.size(); ++i)
            loopsOfRound[r % 2 == 0 ? i : loopsOfRound.size() - 1 - i]();
    }
    jvm.stop();
}

// Redisson's contest: the first `processes` JVMs (already warm, one contender thread each) told to go at once,
// measured as bench_handoff measures its workers: their W/A/R stamps on the one CLOCK_MONOTONIC.
ContestFigures redissonContest(
    const HandoffSettings &settings, std::vector<std::unique_ptr<JavaPeer>> &jvms, int processes, HiredisLoop &raw)
{
    QString error;
    QByteArray reply;
    if (!raw.run({ "DEL", settings.lockName }, &reply, &error))
        fatal(error);
    const qint64 goNs = nowNs();
    for (int i = 0; i < processes; ++i)
        jvms[size_t(i)]->go(settings.seconds);
    const Rate loaded = raw.pingUntil(goNs + qint64(settings.seconds * 0.9 * double(nsPerSecond)), &error);
    if (!error.isEmpty())
        fatal(error);
    std::vector<ContestEvent> events;
    const int timeoutMs = int(settings.seconds * 1000 + 2 * settings.leaseMs + 30000);
    for (int i = 0; i < processes; ++i)
        if (!jvms[size_t(i)]->readEvents(timeoutMs, i, &events, &error))
            fatal(QStringLiteral("with %1 processes, JVM %2: %3").arg(processes).arg(i).arg(error));
    ContestFigures figures = analyseContest(std::move(events), processes, goNs, settings.leaseMs);
    figures.loadedRttUs = loaded.microsEach();
    return figures;
}

void handoffPhase(const RedissonSettings &settings, const JavaSetup &java, const BenchServer &server, HiredisLoop &raw,
    RedissonRun *run)
{
    HandoffSettings handoff;
    handoff.url = server.url();
    handoff.lockName = handoffName;
    handoff.seconds = settings.handoffSeconds;
    handoff.leaseMs = settings.handoffLeaseMs;
    const QStringList workerArgs { QStringLiteral("--worker"), QStringLiteral("--handoff-lease"),
        QString::number(settings.handoffLeaseMs), QStringLiteral("--handoff-seconds"),
        QString::number(settings.handoffSeconds) };
    QString error;

    // One JVM per contender, as many as the largest count; each contest uses the first n of them.
    const int most = *std::max_element(settings.processes.begin(), settings.processes.end());
    std::vector<std::unique_ptr<JavaPeer>> jvms;
    for (int i = 0; i < most; ++i) {
        jvms.push_back(std::make_unique<JavaPeer>());
        jvms.back()->start(java, server.options(), QStringLiteral("handoff"),
            { QStringLiteral("--lease"), QString::number(settings.handoffLeaseMs), QStringLiteral("--warmup-seconds"),
                QString::number(settings.warmupSeconds), QStringLiteral("--name"), QString::fromUtf8(handoffName) });
    }
    for (auto &jvm : jvms) {
        QJsonObject warmup;
        if (!jvm->waitReady(jvmStartMs, &warmup, &error))
            fatal(error);
        run->handoffWarmupMsMax = qMax(run->handoffWarmupMsMax, warmup.value(QStringLiteral("ms")).toDouble());
    }
    // The waiting path (subscribe, wake-up, retry) is only warmed by contending: one contest per process count, as
    // the measured ones will be, thrown away.
    HandoffSettings warm = handoff;
    warm.seconds = settings.warmupSeconds;
    for (const int n : settings.processes) {
        redissonContest(warm, jvms, n, raw);
        run->handoffWarmupContestSeconds += settings.warmupSeconds;
    }
    report(QStringLiteral("hand-off: %1 JVMs warmed up (the slowest for %2 ms, then contests for %3 s); "
                          "%4 pairs of %5 s contests per process count, lease %6 ms")
               .arg(most)
               .arg(run->handoffWarmupMsMax, 0, 'f', 0)
               .arg(run->handoffWarmupContestSeconds)
               .arg(settings.pairs)
               .arg(settings.handoffSeconds)
               .arg(settings.handoffLeaseMs));

    auto measureRtt = [&] {
        const Rate ping = raw.pingUntil(nowNs() + rttSliceNs, &error);
        if (!error.isEmpty())
            fatal(error);
        run->idleRttUs.push_back(ping.microsEach());
    };
    for (int pair = 0; pair < settings.pairs; ++pair) {
        for (const int n : settings.processes) {
            measureRtt();
            HandoffPair p;
            // Which side goes first alternates, so neither always meets the machine right after the other's load.
            if (pair % 2 == 0) {
                p.lockscope = runWorkerContest(handoff, n, workerArgs, raw);
                p.redisson = redissonContest(handoff, jvms, n, raw);
            } else {
                p.redisson = redissonContest(handoff, jvms, n, raw);
                p.lockscope = runWorkerContest(handoff, n, workerArgs, raw);
            }
            run->handoff[n].push_back(p);
        }
    }
    measureRtt();
    QByteArray reply;
    raw.run({ "DEL", handoffName }, &reply, &error);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_redisson"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "LockScope's lock client against Redisson's own lock()/unlock() on the same server in the same run: "
        "uncontended cycles, and the hand-off of one lock between 2, 4 and 8 processes."));
    parser.addHelpOption();
    addUrlOption(parser);
    const RedissonSettings defaults;
    auto option = [&](const char *name, const char *text, const char *value, const QString &fallback) {
        parser.addOption(
            { QString::fromLatin1(name), QString::fromLatin1(text), QString::fromLatin1(value), fallback });
    };
    option("seconds", "uncontended: measured time per figure, split over the rounds", "S",
        QString::number(defaults.seconds));
    option("rounds", "uncontended: interleaved rounds", "N", QString::number(defaults.rounds));
    option("lease", "uncontended: explicit lease in ms", "MS", QString::number(defaults.leaseMs));
    option("handoff-seconds", "hand-off: length of each contest", "S", QString::number(defaults.handoffSeconds));
    option("handoff-lease", "hand-off: explicit lease in ms", "MS", QString::number(defaults.handoffLeaseMs));
    option("processes", "hand-off: comma-separated process counts", "LIST", QStringLiteral("2,4,8"));
    option("pairs", "hand-off: contests per side and process count", "N", QString::number(defaults.pairs));
    option("warmup-seconds", "each JVM's own warm-up; then the hand-off JVMs' warm-up contest", "S",
        QString::number(defaults.warmupSeconds));
    option("redisson-version", "a version tests/interop/redisson is built for (default: the newest 4.x pinned)",
        "VERSION", QString());
    QCommandLineOption workerOption(QStringLiteral("worker"));
    workerOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(workerOption);
    parser.process(app);

    RedissonSettings settings;
    settings.seconds = parser.value(QStringLiteral("seconds")).toDouble();
    settings.rounds = parser.value(QStringLiteral("rounds")).toInt();
    settings.leaseMs = parser.value(QStringLiteral("lease")).toLongLong();
    settings.handoffSeconds = parser.value(QStringLiteral("handoff-seconds")).toDouble();
    settings.handoffLeaseMs = parser.value(QStringLiteral("handoff-lease")).toLongLong();
    settings.pairs = parser.value(QStringLiteral("pairs")).toInt();
    settings.warmupSeconds = parser.value(QStringLiteral("warmup-seconds")).toDouble();
    if (settings.seconds <= 0 || settings.rounds <= 0 || settings.leaseMs <= 0 || settings.handoffSeconds <= 0
        || settings.handoffLeaseMs <= 0 || settings.pairs <= 0 || settings.warmupSeconds <= 0)
        fatal(QStringLiteral("--seconds, --rounds, --lease, --handoff-seconds, --handoff-lease, --pairs and "
                             "--warmup-seconds must be positive"));

    if (parser.isSet(workerOption))
        return runWorkerFromEnvironment(handoffName, settings.handoffLeaseMs, settings.handoffSeconds);

    settings.processes.clear();
    for (const QString &part : parser.value(QStringLiteral("processes")).split(QLatin1Char(','))) {
        const int n = part.trimmed().toInt();
        if (n < 2 || n > 16)
            fatal(
                QStringLiteral("--processes: each count must be between 2 and 16 (each Redisson contender is a JVM)"));
        settings.processes.push_back(n);
    }

    // Java and the driver first: without them there is nothing to compare with.
    QString error;
    JavaSetup java;
    if (!locateJava(parser.value(QStringLiteral("redisson-version")), &java, &error))
        fatal(error);
    BenchServer server;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    HiredisLoop raw;
    if (!raw.connect(server.options(), &error) || !raw.loadScripts(&error))
        fatal(error);
    report(QStringLiteral("server: %1%2; Redisson %3 from %4, java %5")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString(),
                   java.version, java.driverDir, java.java));

    RedissonRun run;
    run.version = java.version;
    uncontendedPhase(settings, java, server, raw, &run);
    handoffPhase(settings, java, server, raw, &run);

    printJsonLine(summarizeRedisson(settings, run));
    // As bench_handoff: a waiter that sat out a TTL, or two holders at once, fails whatever the figures say.
    for (const auto &[n, pairs] : run.handoff)
        for (const HandoffPair &p : pairs)
            if (p.lockscope.ttlWaits || p.lockscope.overlaps || p.redisson.ttlWaits || p.redisson.overlaps) {
                report(QStringLiteral("FAILED: TTL waits or overlaps with %1 processes").arg(n));
                return 1;
            }
    return 0;
}
