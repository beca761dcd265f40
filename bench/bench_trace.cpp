// bench_trace: what `lockscope-cli trace` costs the server it watches. A string lock workload (worker threads, each on
// a hiredis connection of its own: SET NX PX, then the compare-and-delete release script, one command at a time over a
// fixed set of locks, a fresh token per acquire as redsync and redis-py make them) runs for --seconds twice in each
// round: untraced, and while a TraceSession reads MONITOR. Each phase gives the lock commands per second and the
// server's CPU (INFO cpu, user + system) per 1000 of them; the untraced phase is the same-run baseline.

#include "benchcommon.h"
#include "hiredisloop.h"

#include "clients/tracesession.h"
#include "redis/redisrouter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>

#include <hiredis.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

const QByteArray releaseScript
    = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

struct Phase
{
    qint64 ops = 0;
    double seconds = 0;
    double serverCpuMs = 0;
    double opsPerS() const { return seconds > 0 ? double(ops) / seconds : 0; }
    double cpuPer1000() const { return ops > 0 ? serverCpuMs * 1000 / double(ops) : 0; }
};

struct Round
{
    Phase untraced;
    Phase traced;
    TraceFindings findings;
    int mapped = 0; // workers whose first token the trace mapped to their own connection
};

// One blocking hiredis command; the reply, or nullptr (the bench stops: its server went away).
redisReply *command(redisContext *c, const QList<QByteArray> &argv)
{
    std::vector<const char *> ptrs;
    std::vector<size_t> lens;
    for (const QByteArray &a : argv) {
        ptrs.push_back(a.constData());
        lens.push_back(size_t(a.size()));
    }
    return static_cast<redisReply *>(redisCommandArgv(c, int(ptrs.size()), ptrs.data(), lens.data()));
}

redisContext *connect(const ConnectionOptions &options, const QString &who)
{
    QString error;
    redisContext *c = connectHiredis(options, who, &error);
    if (!c)
        fatal(error);
    const auto ok = [c](const QList<QByteArray> &argv) {
        redisReply *r = command(c, argv);
        const bool good = r && r->type != REDIS_REPLY_ERROR;
        freeReplyObject(r);
        return good;
    };
    if (!options.password.isEmpty()
        && !ok(options.user.isEmpty() ? QList<QByteArray> { "AUTH", options.password }
                                      : QList<QByteArray> { "AUTH", options.user, options.password }))
        fatal(QStringLiteral("%1: AUTH failed").arg(who));
    if (options.db != 0 && !ok({ "SELECT", QByteArray::number(options.db) }))
        fatal(QStringLiteral("%1: SELECT failed").arg(who));
    return c;
}

// The server's CPU so far (used_cpu_user + used_cpu_sys), in ms.
double serverCpuMs(redisContext *c)
{
    redisReply *r = command(c, { "INFO", "cpu" });
    if (!r || r->type != REDIS_REPLY_STRING)
        fatal(QStringLiteral("INFO cpu failed"));
    double total = 0;
    for (const QByteArray &line : QByteArray(r->str, qsizetype(r->len)).split('\n')) {
        if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:"))
            total += line.mid(line.indexOf(':') + 1).trimmed().toDouble() * 1000;
    }
    freeReplyObject(r);
    return total;
}

// The workers: each its own connection, its own tokens; the keys are shared, so some acquires find the lock taken.
class Workload
{
public:
    Workload(const ConnectionOptions &options, int workers, int locks)
    {
        redisContext *admin = connect(options, QStringLiteral("the workload"));
        redisReply *r = command(admin, { "SCRIPT", "LOAD", releaseScript });
        if (!r || r->type != REDIS_REPLY_STRING)
            fatal(QStringLiteral("SCRIPT LOAD failed"));
        m_sha = QByteArray(r->str, qsizetype(r->len));
        freeReplyObject(r);
        redisFree(admin);
        for (int i = 0; i < locks; ++i)
            m_keys << "lock:bench-trace:" + QByteArray::number(i);
        for (int w = 0; w < workers; ++w) {
            Worker worker;
            worker.context = connect(options, QStringLiteral("worker %1").arg(w));
            sockaddr_in local {};
            socklen_t size = sizeof(local);
            getsockname(worker.context->fd, reinterpret_cast<sockaddr *>(&local), &size);
            worker.addr = "127.0.0.1:" + QByteArray::number(ntohs(local.sin_port));
            worker.prefix = "bench-trace-w" + QByteArray::number(w) + "-";
            m_workers.push_back(std::move(worker));
        }
    }
    ~Workload()
    {
        for (Worker &w : m_workers)
            redisFree(w.context);
    }

    // Runs every worker for seconds (threads of their own, so the event loop stays free for the trace), then done()
    // on this thread with the lock commands they sent.
    void run(double seconds, std::function<void(qint64 ops, double elapsed)> done)
    {
        m_finished = 0;
        const qint64 start = nowNs();
        const qint64 deadline = start + qint64(seconds * 1e9);
        m_threads.clear();
        for (Worker &w : m_workers) {
            w.ops = 0;
            w.firstToken.clear();
            m_threads.emplace_back([this, &w, deadline] {
                work(w, deadline);
                ++m_finished;
            });
        }
        auto *poll = new QTimer;
        QObject::connect(poll, &QTimer::timeout, poll, [this, poll, start, done] {
            if (m_finished < int(m_workers.size()))
                return;
            const double elapsed = double(nowNs() - start) / 1e9;
            for (std::thread &t : m_threads)
                t.join();
            qint64 ops = 0;
            for (const Worker &w : m_workers)
                ops += w.ops;
            poll->deleteLater();
            done(ops, elapsed);
        });
        poll->start(10);
    }

    // How many workers' first token of the run the trace saw on their own connection (the first: past its bound of
    // identities a trace keeps the early ones, and counts the rest).
    int mapped(const TraceFindings &f) const
    {
        int n = 0;
        for (const Worker &w : m_workers) {
            for (const TraceFindings::Sighting &s : f.sightings) {
                if (s.identity == w.firstToken && s.addr == w.addr) {
                    ++n;
                    break;
                }
            }
        }
        return n;
    }

private:
    struct Worker
    {
        redisContext *context = nullptr;
        QByteArray addr;
        QByteArray prefix;
        QByteArray firstToken;
        qint64 ops = 0;
        qint64 cycle = 0;
    };

    void work(Worker &w, qint64 deadline)
    {
        while (nowNs() < deadline) {
            const QByteArray &key = m_keys.at(qsizetype(w.cycle % m_keys.size()));
            const QByteArray token = w.prefix + QByteArray::number(w.cycle++);
            if (w.firstToken.isEmpty())
                w.firstToken = token;
            redisReply *r = command(w.context, { "SET", key, token, "NX", "PX", "30000" });
            if (!r)
                fatal(QStringLiteral("a worker lost its connection"));
            ++w.ops;
            const bool acquired = r->type == REDIS_REPLY_STATUS;
            freeReplyObject(r);
            if (!acquired)
                continue;
            r = command(w.context, { "EVALSHA", m_sha, "1", key, token });
            if (!r)
                fatal(QStringLiteral("a worker lost its connection"));
            ++w.ops;
            freeReplyObject(r);
        }
    }

    QByteArray m_sha;
    QList<QByteArray> m_keys;
    std::vector<Worker> m_workers;
    std::vector<std::thread> m_threads;
    std::atomic<int> m_finished { 0 };
};

double medianOf(const std::vector<Round> &rounds, const std::function<double(const Round &)> &figure)
{
    std::vector<double> values;
    for (const Round &r : rounds)
        values.push_back(figure(r));
    return median(values);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_trace"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What a trace (MONITOR) costs the server: a lock workload untraced and traced, server CPU per 1000 lock "
        "commands and throughput."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption(
        { QStringLiteral("seconds"), QStringLiteral("each phase's length"), QStringLiteral("S"), QStringLiteral("5") });
    parser.addOption(
        { QStringLiteral("rounds"), QStringLiteral("rounds, each untraced and traced; figures are medians"),
            QStringLiteral("N"), QStringLiteral("3") });
    parser.addOption(
        { QStringLiteral("workers"), QStringLiteral("worker threads"), QStringLiteral("N"), QStringLiteral("4") });
    parser.addOption({ QStringLiteral("locks"), QStringLiteral("lock names they share"), QStringLiteral("N"),
        QStringLiteral("64") });
    parser.process(app);
    const double seconds = parser.value(QStringLiteral("seconds")).toDouble();
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    const int workers = parser.value(QStringLiteral("workers")).toInt();
    const int locks = parser.value(QStringLiteral("locks")).toInt();
    if (seconds <= 0 || rounds <= 0 || workers <= 0 || locks <= 0)
        fatal(QStringLiteral("--seconds, --rounds, --workers and --locks must be positive"));

    QString error;
    BenchServer server;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    redisContext *probe = connect(server.options(), QStringLiteral("the CPU probe"));
    Workload workload(server.options(), workers, locks);
    report(QStringLiteral("server: %1%2; %3 workers on %4 locks, %5 rounds of %6 s per phase")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString())
               .arg(workers)
               .arg(locks)
               .arg(rounds)
               .arg(seconds));

    std::vector<Round> figures(size_t(rounds), Round {});
    auto router = std::make_unique<RedisRouter>(server.options());
    using Step = std::function<void(int round, std::function<void()> next)>;
    const Step untraced = [&](int round, std::function<void()> next) {
        const double cpu = serverCpuMs(probe);
        workload.run(seconds, [&, round, cpu, next](qint64 ops, double elapsed) {
            figures[size_t(round)].untraced = { ops, elapsed, serverCpuMs(probe) - cpu };
            next();
        });
    };
    const Step traced = [&](int round, std::function<void()> next) {
        // Longer than the phase: the session is stopped when the workers are done, not by its own timer.
        auto *session = new TraceSession(router.get(), qint64(seconds * 1000) + 600000);
        auto cpu = std::make_shared<double>(0);
        QObject::connect(session, &TraceSession::started, session, [&, session, cpu, round] {
            *cpu = serverCpuMs(probe);
            workload.run(seconds, [&, session, cpu, round](qint64 ops, double elapsed) {
                figures[size_t(round)].traced = { ops, elapsed, serverCpuMs(probe) - *cpu };
                session->stop();
            });
        });
        QObject::connect(session, &TraceSession::finished, session,
            [&, session, round, next](const TraceFindings &findings, const RedisError &error) {
                if (error.isError())
                    fatal(QStringLiteral("the trace failed: %1").arg(error.message()));
                figures[size_t(round)].findings = findings;
                figures[size_t(round)].mapped = workload.mapped(findings);
                session->deleteLater();
                next();
            });
        session->start();
    };
    // Both phases in each round, the traced one first in every other round: a slow stretch hits both alike.
    std::vector<std::pair<int, Step>> steps;
    for (int r = 0; r < rounds; ++r) {
        steps.emplace_back(r, r % 2 == 0 ? untraced : traced);
        steps.emplace_back(r, r % 2 == 0 ? traced : untraced);
    }
    std::function<void(size_t)> runFrom = [&](size_t i) {
        if (i == steps.size()) {
            QCoreApplication::quit();
            return;
        }
        steps[i].second(steps[i].first, [&runFrom, i] { runFrom(i + 1); });
    };
    QTimer::singleShot(0, [&] { runFrom(0); });
    app.exec();
    redisFree(probe);

    for (int r = 0; r < rounds; ++r) {
        const Round &f = figures[size_t(r)];
        report(QStringLiteral("round %1: untraced %2 ops/s, %3 ms CPU/1000 ops; traced %4 ops/s, %5 ms CPU/1000 ops, "
                              "MONITOR %6 lines, %7 KiB, trace said %8 ms CPU; %9/%10 workers mapped%11")
                   .arg(r + 1)
                   .arg(f.untraced.opsPerS(), 0, 'f', 0)
                   .arg(f.untraced.cpuPer1000(), 0, 'f', 2)
                   .arg(f.traced.opsPerS(), 0, 'f', 0)
                   .arg(f.traced.cpuPer1000(), 0, 'f', 2)
                   .arg(f.findings.cost.lines)
                   .arg(f.findings.cost.bytes / 1024)
                   .arg(f.findings.cost.serverCpuMs)
                   .arg(f.mapped)
                   .arg(workers)
                   .arg(f.findings.partial.isEmpty()
                           ? QString()
                           : QStringLiteral(" (partial: %1)").arg(f.findings.partial.join(QStringLiteral("; ")))));
    }
    const double untracedOps = medianOf(figures, [](const Round &r) { return r.untraced.opsPerS(); });
    const double tracedOps = medianOf(figures, [](const Round &r) { return r.traced.opsPerS(); });
    const double untracedCpu = medianOf(figures, [](const Round &r) { return r.untraced.cpuPer1000(); });
    const double tracedCpu = medianOf(figures, [](const Round &r) { return r.traced.cpuPer1000(); });
    const double linesPerS = medianOf(
        figures, [](const Round &r) { return r.traced.seconds > 0 ? r.findings.cost.lines / r.traced.seconds : 0; });
    const double bytesPerS = medianOf(
        figures, [](const Round &r) { return r.traced.seconds > 0 ? r.findings.cost.bytes / r.traced.seconds : 0; });
    // Ratios pair the phases of one round: neighbours in time share the machine's mood.
    const double cpuRatio = medianOf(figures,
        [](const Round &r) { return r.traced.cpuPer1000() > 0 ? r.untraced.cpuPer1000() / r.traced.cpuPer1000() : 0; });
    const double throughputRatio = medianOf(figures,
        [](const Round &r) { return r.untraced.opsPerS() > 0 ? r.traced.opsPerS() / r.untraced.opsPerS() : 0; });
    int mapped = workers;
    bool partial = false;
    for (const Round &r : figures) {
        mapped = qMin(mapped, r.mapped);
        partial = partial || !r.findings.partial.isEmpty();
    }
    report(QStringLiteral("traced: %1 ops/s against %2 untraced (%3); server CPU per 1000 lock commands %4 ms "
                          "against %5 ms (%6); MONITOR %7 lines/s, %8 KiB/s")
               .arg(tracedOps, 0, 'f', 0)
               .arg(untracedOps, 0, 'f', 0)
               .arg(throughputRatio, 0, 'f', 3)
               .arg(tracedCpu, 0, 'f', 2)
               .arg(untracedCpu, 0, 'f', 2)
               .arg(cpuRatio, 0, 'f', 3)
               .arg(linesPerS, 0, 'f', 0)
               .arg(bytesPerS / 1024, 0, 'f', 0));

    JsonLine baseline;
    baseline.add(QStringLiteral("ops_per_s_untraced"), untracedOps)
        .add(QStringLiteral("server_cpu_ms_per_1000_ops_untraced"), untracedCpu);
    JsonLine ratios;
    ratios.add(QStringLiteral("cpu_per_op_untraced_vs_traced"), cpuRatio)
        .add(QStringLiteral("throughput_traced_vs_untraced"), throughputRatio);
    JsonLine json;
    json.add(QStringLiteral("bench"), "trace")
        .add(QStringLiteral("seconds"), seconds)
        .add(QStringLiteral("rounds"), rounds)
        .add(QStringLiteral("workers"), workers)
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("ops_per_s_traced"), tracedOps)
        .add(QStringLiteral("server_cpu_ms_per_1000_ops_traced"), tracedCpu)
        .add(QStringLiteral("monitor_lines_per_s"), linesPerS)
        .add(QStringLiteral("monitor_bytes_per_s"), bytesPerS)
        .add(QStringLiteral("workers_mapped"), mapped)
        .add(QStringLiteral("partial"), partial)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratios);
    printJsonLine(json);
    return mapped == workers ? 0 : 1;
}
