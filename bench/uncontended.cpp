// bench_uncontended: lock+unlock cycles per second on one connection, one cycle at a time, against the same
// server's PING ceiling and a raw hiredis loop sending the very same commands.

#include "benchcommon.h"
#include "clientloops.h"
#include "hiredisloop.h"
#include "lock/lockclient.h"
#include "redis/redisrouter.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <deque>
#include <functional>
#include <memory>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

constexpr qint64 nsPerSecond = 1000000000;

struct RoundFigures
{
    Rate rawPing;
    Rate clientPing;
    Rate rawCycles;
    Rate clientCycles;
};

// Phases run one after another; a phase may finish inside a callback, so each hands over through next().
class Sequence
{
public:
    using Phase = std::function<void(std::function<void()> next)>;
    void add(Phase phase) { m_phases.push_back(std::move(phase)); }
    void run(std::function<void()> finished)
    {
        m_finished = std::move(finished);
        next();
    }

private:
    void next()
    {
        if (m_phases.empty()) {
            m_finished();
            return;
        }
        Phase phase = std::move(m_phases.front());
        m_phases.pop_front();
        phase([this] { next(); });
    }

    std::deque<Phase> m_phases;
    std::function<void()> m_finished;
};

double ratio(double ours, double reference)
{
    return reference > 0 ? ours / reference : 0.0;
}

template <typename F> double medianOf(const std::vector<RoundFigures> &rounds, F figure)
{
    std::vector<double> values;
    for (const auto &r : rounds)
        values.push_back(figure(r));
    return median(values);
}

// Prints the per-round and median figures for people and returns the JSON line.
JsonLine summarize(const std::vector<RoundFigures> &figures, double seconds, qint64 leaseMs)
{
    const int rounds = int(figures.size());
    qint64 totalCycles = 0;
    for (int r = 0; r < rounds; ++r) {
        const RoundFigures &f = figures[size_t(r)];
        totalCycles += f.clientCycles.count;
        report(QStringLiteral("round %1: hiredis PING %2 us, RedisConnection PING %3 us, raw cycle %4 us, "
                              "LockClient cycle %5 us")
                   .arg(r + 1)
                   .arg(f.rawPing.microsEach(), 0, 'f', 1)
                   .arg(f.clientPing.microsEach(), 0, 'f', 1)
                   .arg(f.rawCycles.microsEach(), 0, 'f', 1)
                   .arg(f.clientCycles.microsEach(), 0, 'f', 1));
    }
    const double cyclesPerS = medianOf(figures, [](const RoundFigures &f) { return f.clientCycles.perSecond(); });
    const double pingPerS = medianOf(figures, [](const RoundFigures &f) { return f.rawPing.perSecond(); });
    const double rawCyclesPerS = medianOf(figures, [](const RoundFigures &f) { return f.rawCycles.perSecond(); });
    const double clientPingPerS = medianOf(figures, [](const RoundFigures &f) { return f.clientPing.perSecond(); });
    // Ratios pair figures from the same round: neighbours in time share the machine's mood.
    const double vsCeiling = medianOf(
        figures, [](const RoundFigures &f) { return ratio(f.clientCycles.perSecond(), f.rawPing.perSecond() / 2); });
    const double vsRaw = medianOf(
        figures, [](const RoundFigures &f) { return ratio(f.clientCycles.perSecond(), f.rawCycles.perSecond()); });
    const double pingVsRaw = medianOf(
        figures, [](const RoundFigures &f) { return ratio(f.clientPing.perSecond(), f.rawPing.perSecond()); });

    report(QStringLiteral("LockClient lock+unlock: %1 cycles/s (%2 us per cycle)")
               .arg(cyclesPerS, 0, 'f', 0)
               .arg(1e6 / cyclesPerS, 0, 'f', 1));
    report(QStringLiteral("raw hiredis lock+unlock: %1 cycles/s; PING ceiling: %2 cycles/s (RTT %3 us)")
               .arg(rawCyclesPerS, 0, 'f', 0)
               .arg(pingPerS / 2, 0, 'f', 0)
               .arg(1e6 / pingPerS, 0, 'f', 1));
    report(QStringLiteral("vs ceiling %1 (target >= 0.8), vs raw loop %2")
               .arg(vsCeiling, 0, 'f', 3)
               .arg(vsRaw, 0, 'f', 3));

    JsonLine baseline;
    baseline.add(QStringLiteral("ping_rtt_us"), 1e6 / pingPerS)
        .add(QStringLiteral("ping_per_s"), pingPerS)
        .add(QStringLiteral("ceiling_cycles_per_s"), pingPerS / 2)
        .add(QStringLiteral("raw_cycles_per_s"), rawCyclesPerS)
        .add(QStringLiteral("lockscope_ping_per_s"), clientPingPerS);
    JsonLine ratios;
    ratios.add(QStringLiteral("uncontended_vs_ping_ceiling"), vsCeiling)
        .add(QStringLiteral("uncontended_vs_raw_loop"), vsRaw)
        .add(QStringLiteral("lockscope_ping_vs_hiredis_ping"), pingVsRaw);
    JsonLine json;
    json.add(QStringLiteral("bench"), "uncontended")
        .add(QStringLiteral("cycles_per_s"), cyclesPerS)
        .add(QStringLiteral("cycle_us"), 1e6 / cyclesPerS)
        .add(QStringLiteral("cycles"), totalCycles)
        .add(QStringLiteral("seconds"), seconds)
        .add(QStringLiteral("rounds"), rounds)
        .add(QStringLiteral("lease_ms"), leaseMs)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratios);
    return json;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_uncontended"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Uncontended lock+unlock cycles per second on one connection, against same-run PING and raw-loop baselines."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("seconds"), QStringLiteral("measured time per figure, split over the rounds"),
        QStringLiteral("S"), QStringLiteral("2") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("interleaved rounds; figures are their medians"),
        QStringLiteral("N"), QStringLiteral("5") });
    parser.addOption({ QStringLiteral("lease"), QStringLiteral("explicit lease in ms"), QStringLiteral("MS"),
        QStringLiteral("30000") });
    parser.process(app);

    const double seconds = parser.value(QStringLiteral("seconds")).toDouble();
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    const qint64 leaseMs = parser.value(QStringLiteral("lease")).toLongLong();
    if (seconds <= 0 || rounds <= 0 || leaseMs <= 0)
        fatal(QStringLiteral("--seconds, --rounds and --lease must be positive"));
    const qint64 sliceNs = qint64(seconds * nsPerSecond / rounds);
    const qint64 warmupNs = qMin<qint64>(sliceNs, nsPerSecond / 4);

    QString error;
    BenchServer server;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    HiredisLoop raw;
    if (!raw.connect(server.options(), &error) || !raw.loadScripts(&error))
        fatal(error);

    // Destroyed before the application object, so its sockets close while Qt is still whole.
    auto client = std::make_unique<LockClient>(server.options());
    ClientLoops loops(client.get());
    LockCycle cycle;
    cycle.name = "lockscope-bench:uncontended";
    cycle.owner = client->ownerField(LockClient::currentThreadToken());
    cycle.leaseMs = leaseMs;
    cycle.latchTtlMs = client->options().latchTtlMs;
    cycle.publishCommand = client->publishCommand();

    report(QStringLiteral("server: %1%2")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString()));
    report(QStringLiteral("%1 rounds of %2 ms per figure, lease %3 ms")
               .arg(rounds)
               .arg(double(sliceNs) / 1e6)
               .arg(leaseMs));

    auto checked = [&error](const Rate &rate) {
        if (!error.isEmpty())
            fatal(error);
        return rate;
    };
    std::vector<RoundFigures> figures(static_cast<size_t>(rounds));
    Sequence sequence;
    auto rawPing = [&](Rate *out, qint64 span) {
        sequence.add([&, out, span](auto next) {
            *out = checked(raw.pingUntil(nowNs() + span, &error));
            next();
        });
    };
    auto rawCycles = [&](Rate *out, qint64 span) {
        sequence.add([&, out, span](auto next) {
            *out = checked(raw.lockCyclesUntil(cycle, nowNs() + span, &error));
            next();
        });
    };
    auto clientPing = [&](Rate *out, qint64 span) {
        sequence.add([&, out, span](auto next) {
            loops.pingUntil(nowNs() + span, [out, next](const Rate &rate) {
                *out = rate;
                next();
            });
        });
    };
    auto clientCycles = [&](Rate *out, qint64 span) {
        sequence.add([&, out, span](auto next) {
            loops.lockCyclesUntil(cycle, nowNs() + span, [out, next](const Rate &rate) {
                *out = rate;
                next();
            });
        });
    };

    // Warm-up: connections up, scripts cached, code and allocator paths hot; the figures are thrown away.
    RoundFigures warmup;
    clientPing(&warmup.clientPing, warmupNs);
    clientCycles(&warmup.clientCycles, warmupNs);
    rawCycles(&warmup.rawCycles, warmupNs);
    rawPing(&warmup.rawPing, warmupNs);
    // Interleaved, and in reverse order every other round, so a slow patch of the machine hits both sides alike.
    for (int r = 0; r < rounds; ++r) {
        RoundFigures *f = &figures[size_t(r)];
        if (r % 2 == 0) {
            rawPing(&f->rawPing, sliceNs);
            clientPing(&f->clientPing, sliceNs);
            rawCycles(&f->rawCycles, sliceNs);
            clientCycles(&f->clientCycles, sliceNs);
        } else {
            clientCycles(&f->clientCycles, sliceNs);
            rawCycles(&f->rawCycles, sliceNs);
            clientPing(&f->clientPing, sliceNs);
            rawPing(&f->rawPing, sliceNs);
        }
    }
    sequence.run([] { QCoreApplication::exit(0); });
    const int code = app.exec();
    client.reset();
    if (code != 0)
        return code;

    printJsonLine(summarize(figures, seconds, leaseMs));
    return 0;
}
