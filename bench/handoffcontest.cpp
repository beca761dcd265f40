#include "handoffcontest.h"

#include "handoffworker.h"
#include "hiredisloop.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>

#include <memory>

namespace LockScope::Bench {

namespace {

constexpr qint64 nsPerSecond = 1000000000;
constexpr int readyTimeoutMs = 10000;

using Workers = std::vector<std::unique_ptr<QProcess>>;

void killAll(Workers &workers)
{
    for (auto &w : workers) {
        w->kill();
        w->waitForFinished(1000);
    }
}

// The raw logs, for digging into outliers after the fact (which process stalled, and where).
void saveLog(const QString &dir, int processes, int worker, const QByteArray &log)
{
    QFile file(QDir(dir).filePath(QStringLiteral("handoff-%1p-worker%2.log").arg(processes).arg(worker)));
    if (!file.open(QIODevice::WriteOnly) || file.write(log) != log.size())
        fatal(QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
}

} // namespace

ContestFigures runWorkerContest(
    const HandoffSettings &settings, int processes, const QStringList &workerArgs, HiredisLoop &raw)
{
    QString error;
    QByteArray reply;
    if (!raw.run({ "DEL", settings.lockName }, &reply, &error))
        fatal(error);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(handoffUrlVariable), settings.url);
    Workers workers;
    for (int i = 0; i < processes; ++i) {
        auto w = std::make_unique<QProcess>();
        w->setProgram(QCoreApplication::applicationFilePath());
        w->setArguments(workerArgs);
        w->setProcessEnvironment(env);
        w->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        w->start();
        workers.push_back(std::move(w));
    }
    QDeadlineTimer readyBy(readyTimeoutMs);
    for (int i = 0; i < processes; ++i) {
        QProcess &w = *workers[size_t(i)];
        while (!w.canReadLine()) {
            if (!w.waitForReadyRead(int(qMax<qint64>(1, readyBy.remainingTime())))) {
                killAll(workers);
                fatal(
                    QStringLiteral("worker %1 of %2 never said ready: %3").arg(i).arg(processes).arg(w.errorString()));
            }
        }
        const QByteArray line = w.readLine().trimmed();
        if (line != "ready") {
            killAll(workers);
            fatal(QStringLiteral("worker %1 said %2 instead of ready").arg(i).arg(QString::fromUtf8(line)));
        }
    }
    const qint64 goNs = nowNs();
    for (auto &w : workers)
        w->write("go\n");
    for (auto &w : workers)
        w->waitForBytesWritten(1000);

    // The round trip the hand-off competes with: measured while the contenders load the same two CPUs.
    const Rate loaded = raw.pingUntil(goNs + qint64(settings.seconds * 0.9 * double(nsPerSecond)), &error);
    if (!error.isEmpty()) {
        killAll(workers);
        fatal(error);
    }

    // A waiter that missed its wake-up sleeps until the TTL it saw runs out: allow for that, then give up.
    QDeadlineTimer doneBy(qint64(settings.seconds * 1000) + 2 * settings.leaseMs + 5000);
    std::vector<ContestEvent> events;
    for (int i = 0; i < processes; ++i) {
        QProcess &w = *workers[size_t(i)];
        if (!w.waitForFinished(int(qMax<qint64>(1, doneBy.remainingTime())))) {
            killAll(workers);
            fatal(QStringLiteral("with %1 processes, worker %2 had not finished %3 s after go (lease %4 ms): "
                                 "a waiter never woke up")
                      .arg(processes)
                      .arg(i)
                      .arg(double(nowNs() - goNs) / 1e9, 0, 'f', 1)
                      .arg(settings.leaseMs));
        }
        if (w.exitStatus() != QProcess::NormalExit || w.exitCode() != 0) {
            killAll(workers);
            fatal(QStringLiteral("worker %1 of %2 failed (exit code %3)").arg(i).arg(processes).arg(w.exitCode()));
        }
        const QByteArray log = w.readAllStandardOutput();
        if (!settings.eventsDir.isEmpty())
            saveLog(settings.eventsDir, processes, i, log);
        if (!parseWorkerLog(log, i, &events, &error))
            fatal(error);
    }
    ContestFigures figures = analyseContest(std::move(events), processes, goNs, settings.leaseMs);
    figures.loadedRttUs = loaded.microsEach();
    return figures;
}

JsonLine contestJson(const ContestFigures &f)
{
    JsonLine j;
    j.add(QStringLiteral("processes"), f.processes)
        .add(QStringLiteral("acquisitions"), f.acquisitions)
        .add(QStringLiteral("acquisitions_per_s"), f.acquisitionsPerS())
        .add(QStringLiteral("median_us"), f.medianUs)
        .add(QStringLiteral("p99_us"), f.p99Us)
        .add(QStringLiteral("max_handoff_ms"), f.maxMs)
        .add(QStringLiteral("to_other_process"), f.toOtherProcess)
        .add(QStringLiteral("to_same_process"), f.toSameProcess)
        .add(QStringLiteral("median_other_us"), f.medianOtherUs)
        .add(QStringLiteral("median_same_us"), f.medianSameUs)
        .add(QStringLiteral("ttl_waits"), f.ttlWaits)
        .add(QStringLiteral("overlaps"), f.overlaps)
        .add(QStringLiteral("max_wait_ms"), f.maxWaitMs)
        .add(QStringLiteral("loaded_rtt_us"), f.loadedRttUs);
    return j;
}

QString describeContest(const ContestFigures &f)
{
    QStringList counts;
    for (const qint64 n : f.perWorker)
        counts << QString::number(n);
    return QStringLiteral("%1 processes: %2 acquisitions, %3/s; hand-off median %4 us, p99 %5 us, max %6 ms; "
                          "to another process %7 (median %8 us), to the same %9 (median %10 us); "
                          "per process %11; longest acquire %12 ms; TTL waits %13; overlaps %14")
        .arg(f.processes)
        .arg(f.acquisitions)
        .arg(f.acquisitionsPerS(), 0, 'f', 0)
        .arg(f.medianUs, 0, 'f', 1)
        .arg(f.p99Us, 0, 'f', 1)
        .arg(f.maxMs, 0, 'f', 2)
        .arg(f.toOtherProcess)
        .arg(f.medianOtherUs, 0, 'f', 1)
        .arg(f.toSameProcess)
        .arg(f.medianSameUs, 0, 'f', 1)
        .arg(counts.join(QLatin1Char('/')))
        .arg(f.maxWaitMs, 0, 'f', 1)
        .arg(f.ttlWaits)
        .arg(f.overlaps);
}

int runWorkerFromEnvironment(const QByteArray &name, qint64 leaseMs, double seconds)
{
    HandoffWorkerOptions options;
    RedisError urlError;
    options.connection = ConnectionOptions::fromUrl(qEnvironmentVariable(handoffUrlVariable), &urlError);
    if (urlError.isError())
        fatal(urlError.toString());
    options.name = name;
    options.leaseMs = leaseMs;
    options.seconds = seconds;
    return runHandoffWorker(options);
}

} // namespace LockScope::Bench
