#include "redissonsummary.h"

#include "handoffcontest.h"

#include <functional>

namespace LockScope::Bench {

namespace {

double ratio(double numerator, double denominator)
{
    return denominator > 0 ? numerator / denominator : 0.0;
}

template <typename T> double medianOf(const std::vector<T> &items, const std::function<double(const T &)> &figure)
{
    std::vector<double> values;
    for (const T &item : items)
        values.push_back(figure(item));
    return median(values);
}

using Side = std::function<const ContestFigures &(const HandoffPair &)>;

const ContestFigures &lockscopeSide(const HandoffPair &p)
{
    return p.lockscope;
}

const ContestFigures &redissonSide(const HandoffPair &p)
{
    return p.redisson;
}

// One side's contests for one process count: medians over the pairs, and the checks summed.
JsonLine sideJson(const std::vector<HandoffPair> &pairs, const Side &side)
{
    qint64 acquisitions = 0, toOther = 0, toSame = 0, ttlWaits = 0, overlaps = 0;
    double maxMs = 0;
    for (const HandoffPair &p : pairs) {
        const ContestFigures &f = side(p);
        acquisitions += f.acquisitions;
        toOther += f.toOtherProcess;
        toSame += f.toSameProcess;
        ttlWaits += f.ttlWaits;
        overlaps += f.overlaps;
        maxMs = qMax(maxMs, f.maxMs);
    }
    using P = HandoffPair;
    JsonLine j;
    j.add(QStringLiteral("acquisitions"), acquisitions)
        .add(QStringLiteral("acquisitions_per_s"),
            medianOf<P>(pairs, [&](const P &p) { return side(p).acquisitionsPerS(); }))
        .add(QStringLiteral("median_us"), medianOf<P>(pairs, [&](const P &p) { return side(p).medianUs; }))
        .add(QStringLiteral("p99_us"), medianOf<P>(pairs, [&](const P &p) { return side(p).p99Us; }))
        .add(QStringLiteral("max_handoff_ms"), maxMs)
        .add(QStringLiteral("median_other_us"), medianOf<P>(pairs, [&](const P &p) { return side(p).medianOtherUs; }))
        .add(QStringLiteral("to_other_process"), toOther)
        .add(QStringLiteral("to_same_process"), toSame)
        .add(QStringLiteral("ttl_waits"), ttlWaits)
        .add(QStringLiteral("overlaps"), overlaps)
        .add(QStringLiteral("loaded_rtt_us"), medianOf<P>(pairs, [&](const P &p) { return side(p).loadedRttUs; }));
    return j;
}

} // namespace

JsonLine summarizeRedisson(const RedissonSettings &settings, const RedissonRun &run)
{
    using R = UncontendedRound;
    const auto &rounds = run.rounds;
    for (size_t r = 0; r < rounds.size(); ++r) {
        const R &f = rounds[r];
        report(QStringLiteral("round %1: hiredis PING %2 us, raw cycle %3 us, LockClient cycle %4 us, "
                              "Redisson cycle %5 us (p50 %6, p99 %7)")
                   .arg(r + 1)
                   .arg(f.rawPing.microsEach(), 0, 'f', 1)
                   .arg(f.rawCycles.microsEach(), 0, 'f', 1)
                   .arg(f.lockscope.microsEach(), 0, 'f', 1)
                   .arg(f.redisson.microsEach(), 0, 'f', 1)
                   .arg(f.redissonP50Us, 0, 'f', 1)
                   .arg(f.redissonP99Us, 0, 'f', 1));
    }
    const double ours = medianOf<R>(rounds, [](const R &f) { return f.lockscope.perSecond(); });
    const double theirs = medianOf<R>(rounds, [](const R &f) { return f.redisson.perSecond(); });
    const double pingPerS = medianOf<R>(rounds, [](const R &f) { return f.rawPing.perSecond(); });
    const double rawPerS = medianOf<R>(rounds, [](const R &f) { return f.rawCycles.perSecond(); });
    const double uncontended
        = medianOf<R>(rounds, [](const R &f) { return ratio(f.lockscope.perSecond(), f.redisson.perSecond()); });
    report(QStringLiteral("uncontended: LockClient %1 cycles/s, Redisson %2 cycles/s: LockScope/Redisson %3 "
                          "(median of the rounds' ratios)")
               .arg(ours, 0, 'f', 0)
               .arg(theirs, 0, 'f', 0)
               .arg(uncontended, 0, 'f', 3));

    JsonLine json;
    json.add(QStringLiteral("bench"), "redisson")
        .add(QStringLiteral("redisson_version"), run.version)
        .add(QStringLiteral("java_version"), run.javaVersion)
        .add(QStringLiteral("jvm_gc"), run.gc)
        .add(QStringLiteral("seconds"), settings.seconds)
        .add(QStringLiteral("rounds"), settings.rounds)
        .add(QStringLiteral("lease_ms"), settings.leaseMs)
        .add(QStringLiteral("handoff_seconds"), settings.handoffSeconds)
        .add(QStringLiteral("handoff_lease_ms"), settings.handoffLeaseMs)
        .add(QStringLiteral("pairs"), settings.pairs)
        .add(QStringLiteral("lockscope_cycles_per_s"), ours)
        .add(QStringLiteral("redisson_cycles_per_s"), theirs)
        .add(QStringLiteral("lockscope_cycle_us"), 1e6 / ours)
        .add(QStringLiteral("redisson_cycle_us"), 1e6 / theirs)
        .add(QStringLiteral("redisson_cycle_p50_us"), medianOf<R>(rounds, [](const R &f) { return f.redissonP50Us; }))
        .add(QStringLiteral("redisson_cycle_p99_us"), medianOf<R>(rounds, [](const R &f) { return f.redissonP99Us; }));

    JsonLine baseline;
    baseline.add(QStringLiteral("ping_rtt_us"), 1e6 / pingPerS)
        .add(QStringLiteral("ping_per_s"), pingPerS)
        .add(QStringLiteral("ceiling_cycles_per_s"), pingPerS / 2)
        .add(QStringLiteral("raw_cycles_per_s"), rawPerS)
        .add(QStringLiteral("handoff_ping_rtt_us"), median(run.idleRttUs));
    JsonLine ratios;
    ratios.add(QStringLiteral("uncontended_lockscope_vs_redisson"), uncontended);
    qint64 ttlWaits = 0, overlaps = 0;
    using P = HandoffPair;
    for (const auto &[n, pairs] : run.handoff) {
        const QString suffix = QStringLiteral("_%1_processes").arg(n);
        for (const P &p : pairs) {
            report(QStringLiteral("LockScope, ") + describeContest(p.lockscope));
            report(QStringLiteral("Redisson, ") + describeContest(p.redisson));
        }
        JsonLine both;
        const JsonLine ls = sideJson(pairs, lockscopeSide);
        const JsonLine rs = sideJson(pairs, redissonSide);
        both.add(QStringLiteral("lockscope"), ls).add(QStringLiteral("redisson"), rs);
        json.add(QStringLiteral("handoff") + suffix, both);
        for (const P &p : pairs) {
            ttlWaits += p.lockscope.ttlWaits + p.redisson.ttlWaits;
            overlaps += p.lockscope.overlaps + p.redisson.overlaps;
        }
        baseline.add(QStringLiteral("loaded_rtt_us") + suffix + QStringLiteral("_lockscope"),
            medianOf<P>(pairs, [](const P &p) { return p.lockscope.loadedRttUs; }));
        baseline.add(QStringLiteral("loaded_rtt_us") + suffix + QStringLiteral("_redisson"),
            medianOf<P>(pairs, [](const P &p) { return p.redisson.loadedRttUs; }));
        // A hand-off is a latency: Redisson's over ours, so that above 1 LockScope hands over faster.
        const double latency
            = medianOf<P>(pairs, [](const P &p) { return ratio(p.redisson.medianUs, p.lockscope.medianUs); });
        ratios.add(QStringLiteral("handoff_lockscope_vs_redisson") + suffix, latency);
        ratios.add(QStringLiteral("handoff_to_other_lockscope_vs_redisson") + suffix,
            medianOf<P>(pairs, [](const P &p) { return ratio(p.redisson.medianOtherUs, p.lockscope.medianOtherUs); }));
        ratios.add(QStringLiteral("acquisitions_lockscope_vs_redisson") + suffix, medianOf<P>(pairs, [](const P &p) {
            return ratio(p.lockscope.acquisitionsPerS(), p.redisson.acquisitionsPerS());
        }));
        report(QStringLiteral("%1 processes: hand-off median LockScope/Redisson %2 (Redisson's median over ours)")
                   .arg(n)
                   .arg(latency, 0, 'f', 3));
    }
    ratios.add(QStringLiteral("uncontended_vs_ping_ceiling"),
        medianOf<R>(rounds, [](const R &f) { return ratio(f.lockscope.perSecond(), f.rawPing.perSecond() / 2); }));
    ratios.add(QStringLiteral("redisson_uncontended_vs_ping_ceiling"),
        medianOf<R>(rounds, [](const R &f) { return ratio(f.redisson.perSecond(), f.rawPing.perSecond() / 2); }));
    ratios.add(QStringLiteral("uncontended_vs_raw_loop"),
        medianOf<R>(rounds, [](const R &f) { return ratio(f.lockscope.perSecond(), f.rawCycles.perSecond()); }));
    ratios.add(QStringLiteral("redisson_uncontended_vs_raw_loop"),
        medianOf<R>(rounds, [](const R &f) { return ratio(f.redisson.perSecond(), f.rawCycles.perSecond()); }));

    JsonLine warmup;
    const QJsonObject &w = run.uncontendedWarmup;
    warmup.add(QStringLiteral("uncontended_ms"), w.value(QStringLiteral("ms")).toDouble())
        .add(QStringLiteral("uncontended_cycles"), qint64(w.value(QStringLiteral("cycles")).toDouble()))
        .add(QStringLiteral("uncontended_first_s_cycles"), qint64(w.value(QStringLiteral("first_s_cycles")).toDouble()))
        .add(QStringLiteral("uncontended_last_s_cycles"), qint64(w.value(QStringLiteral("last_s_cycles")).toDouble()))
        .add(QStringLiteral("handoff_jvm_ms_max"), run.handoffWarmupMsMax)
        .add(QStringLiteral("handoff_contests_s"), run.handoffWarmupContestSeconds);
    json.add(QStringLiteral("ttl_waits"), ttlWaits)
        .add(QStringLiteral("overlaps"), overlaps)
        .add(QStringLiteral("jvm_warmup"), warmup)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratios);
    return json;
}

} // namespace LockScope::Bench
