// bench_accuracy: how close `lockscope-cli stats` comes to the truth. Worker threads contend for a few locks with
// Redisson's own acquire and release scripts, holding each for a time drawn from a known distribution and waiting
// on the lock's channel while it is taken; each records what really happened (every hold's length, the acquisitions,
// how many waited at once). The CLI, a process of its own as users run it, watches the same run; its report is
// compared with the workers' record: once with keyspace events, once with only re-scans and wake-up messages.
#include "benchcommon.h"
#include "hiredisloop.h"
#include "kinds/locknames.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <hiredis.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <random>
#include <thread>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

const char *kAcquire = "if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then "
                       "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); "
                       "return nil; end; return redis.call('pttl', KEYS[1]);";
const char *kRelease = "local c = redis.call('hincrby', KEYS[1], ARGV[1], -1); if c > 0 then return 0; end; "
                       "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], '0'); return 1;";

struct LockTruth
{
    QByteArray name;
    double medianMs = 0;
    std::mutex mutex;
    std::vector<double> holds;
    std::atomic<int> waiting { 0 };
    std::atomic<int> waitingMax { 0 };
};

void freeReply(void *r)
{
    if (r)
        freeReplyObject(r);
}

// One contender: think, acquire (subscribed to the lock's channel while it waits, as Redisson's waiters are), hold
// for a log-normal time around the lock's median, release; until the deadline.
void contend(const ConnectionOptions &options, LockTruth *lock, qint64 deadlineNs, unsigned seed)
{
    QString error;
    redisContext *c = connectHiredis(options, QStringLiteral("worker"), &error);
    redisContext *sub = connectHiredis(options, QStringLiteral("waiter"), &error);
    if (!c || !sub)
        fatal(error);
    const QByteArray owner = LockNames::newClientId() + ':' + QByteArray::number(seed);
    const QByteArray channel = LockNames::lockChannel(lock->name);
    std::mt19937 rng(seed);
    std::lognormal_distribution<double> hold(std::log(lock->medianMs), 0.5);
    std::uniform_real_distribution<double> think(0, lock->medianMs);
    const auto acquire = [&] {
        auto *r = static_cast<redisReply *>(redisCommand(c, "EVAL %s 1 %b 30000 %b", kAcquire, lock->name.constData(),
            size_t(lock->name.size()), owner.constData(), size_t(owner.size())));
        if (!r)
            fatal(QStringLiteral("acquire failed"));
        const bool got = r->type == REDIS_REPLY_NIL;
        freeReply(r);
        return got;
    };
    while (nowNs() < deadlineNs) {
        std::this_thread::sleep_for(std::chrono::microseconds(qint64(think(rng) * 1000)));
        if (!acquire()) {
            freeReply(redisCommand(sub, "SUBSCRIBE %b", channel.constData(), size_t(channel.size())));
            const int now = ++lock->waiting;
            int seen = lock->waitingMax.load();
            while (now > seen && !lock->waitingMax.compare_exchange_weak(seen, now)) { }
            while (!acquire())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            --lock->waiting;
            redisAppendCommand(sub, "UNSUBSCRIBE %b", channel.constData(), size_t(channel.size()));
            // Wake-up messages that came while it waited, then the unsubscribe's confirmation.
            for (;;) {
                void *r = nullptr;
                if (redisGetReply(sub, &r) != REDIS_OK)
                    fatal(QStringLiteral("waiter connection failed"));
                auto *reply = static_cast<redisReply *>(r);
                const bool done = reply->type == REDIS_REPLY_ARRAY && reply->elements > 0
                    && QByteArray(reply->element[0]->str, int(reply->element[0]->len)) == "unsubscribe";
                freeReply(r);
                if (done)
                    break;
            }
        }
        const qint64 from = nowNs();
        std::this_thread::sleep_for(std::chrono::microseconds(qint64(hold(rng) * 1000)));
        const qint64 to = nowNs();
        freeReply(redisCommand(c, "EVAL %s 2 %b %b %b", kRelease, lock->name.constData(), size_t(lock->name.size()),
            channel.constData(), size_t(channel.size()), owner.constData(), size_t(owner.size())));
        std::lock_guard<std::mutex> guard(lock->mutex);
        lock->holds.push_back(double(to - from) / 1e6);
    }
    redisFree(c);
    redisFree(sub);
}

struct Comparison
{
    qint64 acquisitionsTrue = 0;
    qint64 acquisitionsSeen = 0;
    double p50ErrorMax = 0; // relative, the worst lock
    double p95ErrorMax = 0;
    int waitersMaxTrue = 0;
    int waitersMaxSeen = 0;
    QString sources;
};

Comparison runPhase(const BenchServer &server, const QString &cli, const QString &prefix, int locks, int workers,
    double seconds, int intervalMs)
{
    std::vector<std::unique_ptr<LockTruth>> truth;
    for (int l = 0; l < locks; ++l) {
        truth.push_back(std::make_unique<LockTruth>());
        truth.back()->name = (prefix + QStringLiteral(":%1").arg(l)).toUtf8();
        truth.back()->medianMs = 10.0 * std::pow(2.0, l); // 10, 20, 40, 80 ms...
    }
    QProcess stats;
    stats.start(cli,
        { QStringLiteral("--url"), server.url(), QStringLiteral("--json"), QStringLiteral("stats"),
            QStringLiteral("--seconds"), QStringLiteral("100000"), QStringLiteral("--interval"),
            QString::number(intervalMs), QStringLiteral("--pattern"), prefix + QStringLiteral(":*") });
    QByteArray status;
    stats.setReadChannel(QProcess::StandardError);
    while (!status.contains("watching")) {
        if (!stats.waitForReadyRead(30000))
            fatal(QStringLiteral("stats did not start: %1").arg(QString::fromLocal8Bit(status)));
        status += stats.readAllStandardError();
    }
    const qint64 deadline = nowNs() + qint64(seconds * 1e9);
    std::vector<std::thread> threads;
    unsigned seed = 1;
    for (auto &lock : truth)
        for (int w = 0; w < workers; ++w)
            threads.emplace_back(contend, server.options(), lock.get(), deadline, seed++);
    for (std::thread &t : threads)
        t.join();
    stats.terminate();
    if (!stats.waitForFinished(60000) || stats.exitCode() != 0)
        fatal(QStringLiteral("stats failed: %1").arg(QString::fromLocal8Bit(stats.readAllStandardError())));
    const QJsonObject seenReport = QJsonDocument::fromJson(stats.readAllStandardOutput()).object();

    Comparison c;
    QStringList sources;
    for (auto &lock : truth) {
        QJsonObject seen;
        for (const QJsonValue &v : seenReport.value(QStringLiteral("locks")).toArray())
            if (v[QStringLiteral("name")].toString().toUtf8() == lock->name)
                seen = v.toObject();
        const double p50 = percentile(lock->holds, 50), p95 = percentile(lock->holds, 95);
        const double seenP50 = seen[QStringLiteral("hold_ms")][QStringLiteral("p50")].toDouble(-1);
        const double seenP95 = seen[QStringLiteral("hold_ms")][QStringLiteral("p95")].toDouble(-1);
        c.acquisitionsTrue += qint64(lock->holds.size());
        c.acquisitionsSeen += seen[QStringLiteral("acquisitions")].toInteger();
        c.p50ErrorMax = qMax(c.p50ErrorMax, seenP50 < 0 ? 1.0 : std::abs(seenP50 - p50) / p50);
        c.p95ErrorMax = qMax(c.p95ErrorMax, seenP95 < 0 ? 1.0 : std::abs(seenP95 - p95) / p95);
        c.waitersMaxTrue = qMax(c.waitersMaxTrue, lock->waitingMax.load());
        c.waitersMaxSeen = qMax(c.waitersMaxSeen, seen[QStringLiteral("waiters_max")].toInt());
        sources << seen[QStringLiteral("sources")][QStringLiteral("hold_ms")].toString();
        report(QStringLiteral("  %1 (median %2 ms): holds %3 true / %4 seen; p50 %5 / %6 ms; p95 %7 / %8 ms; "
                              "most waiting %9 / %10")
                   .arg(QString::fromUtf8(lock->name))
                   .arg(lock->medianMs)
                   .arg(lock->holds.size())
                   .arg(seen[QStringLiteral("acquisitions")].toInteger())
                   .arg(p50, 0, 'f', 1)
                   .arg(seenP50)
                   .arg(p95, 0, 'f', 1)
                   .arg(seenP95)
                   .arg(lock->waitingMax.load())
                   .arg(seen[QStringLiteral("waiters_max")].toInt()));
    }
    sources.removeDuplicates();
    c.sources = sources.join(QLatin1Char(','));
    return c;
}

JsonLine phaseJson(const Comparison &c)
{
    JsonLine j;
    j.add(QStringLiteral("acquisitions_true"), c.acquisitionsTrue)
        .add(QStringLiteral("acquisitions_seen"), c.acquisitionsSeen)
        .add(QStringLiteral("hold_p50_error_max"), std::round(c.p50ErrorMax * 1000) / 1000)
        .add(QStringLiteral("hold_p95_error_max"), std::round(c.p95ErrorMax * 1000) / 1000)
        .add(QStringLiteral("waiters_max_true"), c.waitersMaxTrue)
        .add(QStringLiteral("waiters_max_seen"), c.waitersMaxSeen)
        .add(QStringLiteral("hold_source"), c.sources);
    return j;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    addUrlOption(parser);
    parser.addOptions({
        { QStringLiteral("seconds"), QStringLiteral("workload per phase (default 20)"), QStringLiteral("S"),
            QStringLiteral("20") },
        { QStringLiteral("locks"), QStringLiteral("locks, hold medians 10, 20, 40... ms (default 4)"),
            QStringLiteral("N"), QStringLiteral("4") },
        { QStringLiteral("workers"), QStringLiteral("contenders per lock (default 3)"), QStringLiteral("N"),
            QStringLiteral("3") },
        { QStringLiteral("interval"), QStringLiteral("the polling phase's re-scan interval, ms (default 500)"),
            QStringLiteral("MS"), QStringLiteral("500") },
    });
    parser.process(app);
    const double seconds = parser.value(QStringLiteral("seconds")).toDouble();
    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int workers = parser.value(QStringLiteral("workers")).toInt();
    const int interval = parser.value(QStringLiteral("interval")).toInt();
    BenchServer server;
    QString error;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    const QString cli = QStringLiteral(LOCKSCOPE_CLI_PATH);
    HiredisLoop admin;
    QByteArray reply;
    if (!admin.connect(server.options(), &error))
        fatal(error);
    const QString run = QStringLiteral("bench:acc:%1").arg(QCoreApplication::applicationPid());

    if (!admin.run({ "CONFIG", "SET", "notify-keyspace-events", "KEA" }, &reply, &error))
        fatal(error);
    report(QStringLiteral("with keyspace events, %1 s:").arg(seconds));
    const Comparison keyspace = runPhase(server, cli, run + QStringLiteral(":ks"), locks, workers, seconds, interval);
    if (!admin.run({ "CONFIG", "SET", "notify-keyspace-events", "" }, &reply, &error))
        fatal(error);
    report(QStringLiteral("with re-scans every %1 ms and wake-up messages only, %2 s:").arg(interval).arg(seconds));
    const Comparison polling = runPhase(server, cli, run + QStringLiteral(":poll"), locks, workers, seconds, interval);

    const auto ratio = [](qint64 seen, qint64 truth) {
        return truth > 0 ? std::round(1000.0 * double(seen) / double(truth)) / 1000 : 0.0;
    };
    JsonLine json;
    json.add(QStringLiteral("bench"), "accuracy")
        .add(QStringLiteral("seconds"), seconds)
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("workers_per_lock"), workers)
        .add(QStringLiteral("poll_interval_ms"), interval)
        .add(QStringLiteral("keyspace"), phaseJson(keyspace))
        .add(QStringLiteral("polling"), phaseJson(polling))
        .add(QStringLiteral("baseline"),
            JsonLine()
                .add(QStringLiteral("truth"), "the workers' own record of every hold, in the same run")
                .add(QStringLiteral("keyspace_acquisitions_true"), keyspace.acquisitionsTrue)
                .add(QStringLiteral("polling_acquisitions_true"), polling.acquisitionsTrue))
        .add(QStringLiteral("ratio"),
            JsonLine()
                .add(QStringLiteral("keyspace_acquisitions_seen_vs_true"),
                    ratio(keyspace.acquisitionsSeen, keyspace.acquisitionsTrue))
                .add(QStringLiteral("keyspace_hold_p50_accuracy"), std::round((1 - keyspace.p50ErrorMax) * 1000) / 1000)
                .add(QStringLiteral("keyspace_hold_p95_accuracy"), std::round((1 - keyspace.p95ErrorMax) * 1000) / 1000)
                .add(QStringLiteral("polling_acquisitions_seen_vs_true"),
                    ratio(polling.acquisitionsSeen, polling.acquisitionsTrue))
                .add(QStringLiteral("polling_hold_p50_accuracy"), std::round((1 - polling.p50ErrorMax) * 1000) / 1000)
                .add(QStringLiteral("polling_hold_p95_accuracy"), std::round((1 - polling.p95ErrorMax) * 1000) / 1000));
    printJsonLine(json);
    return 0;
}
