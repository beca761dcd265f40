#include "monitorprobe.h"

#include "benchcommon.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTimer>

#include <cstdio>

namespace LockScope::Bench {

namespace {
constexpr int kSnapshotTimeoutMs = 300000;
constexpr int kModeTimeoutMs = 10000;
constexpr int kEventTimeoutMs = 5000;
constexpr int kEventPauseMs = 10; // between events, so each is read on its own rather than batched with the next
} // namespace

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

double procStatusMb(const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

bool waitUntil(QEventLoop &loop, const std::function<bool()> &done, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        timer.start(int(qMax<qint64>(1, deadline.remainingTime())));
        loop.exec();
    }
    return true;
}

void idle(QEventLoop &loop, int ms)
{
    waitUntil(
        loop, [] { return false; }, ms);
}

SnapshotRun takeSnapshot(QEventLoop &loop, LockMonitor *monitor, LockTableModel *model)
{
    SnapshotRun run;
    QObject scope; // the connections below end with this function
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    qint64 lastTick = 0;
    // And how much of each gap this thread itself was busy: on a shared machine a gap also counts the time other
    // processes (or the hypervisor) had the CPU.
    qint64 lastTickCpu = 0;
    auto tick = [&] {
        const qint64 now = nowNs();
        const qint64 cpu = threadCpuNs();
        const double gap = ms(now - lastTick);
        const double busy = ms(cpu - lastTickCpu);
        run.maxGapMs = qMax(run.maxGapMs, gap);
        run.maxBusyMs = qMax(run.maxBusyMs, busy);
        if (gap > kLongGapMs) {
            ++run.gapsOverLong;
            run.longGaps << QStringLiteral("%1 ms (busy %2) at %3 rows")
                                .arg(gap, 0, 'f', 1)
                                .arg(busy, 0, 'f', 1)
                                .arg(model->rowCount());
        }
        if (busy > kLongGapMs)
            ++run.busyOverLong;
        lastTick = now;
        lastTickCpu = cpu;
    };
    QObject::connect(&probe, &QTimer::timeout, &scope, tick);
    QObject::connect(monitor, &LockMonitor::errorOccurred, &scope,
        [](const RedisError &error) { std::fprintf(stderr, "monitor: %s\n", qPrintable(error.toString())); });
    QObject::connect(monitor, &LockMonitor::modeChanged, &scope, [&loop] { loop.quit(); });
    const qint64 start = nowNs();
    QObject::connect(
        monitor, &LockMonitor::snapshotFinished, &scope, [&, start](const RedisError &error, int keysSeen) {
            run.elapsedNs = nowNs() - start;
            tick(); // a stall that ends with the snapshot counts too
            probe.stop();
            run.finished = true;
            run.error = error;
            run.keysSeen = keysSeen;
            run.rows = model->rowCount();
            loop.quit();
        });
    lastTick = start;
    lastTickCpu = threadCpuNs();
    probe.start();
    monitor->start();
    if (!waitUntil(
            loop, [&] { return run.finished; }, kSnapshotTimeoutMs))
        fatal(QStringLiteral("no snapshot within %1 s").arg(kSnapshotTimeoutMs / 1000));
    if (!waitUntil(
            loop, [&] { return monitor->mode() != LockEventFeed::Mode::Starting; }, kModeTimeoutMs))
        fatal(QStringLiteral("the monitor's event mode was not settled within %1 s").arg(kModeTimeoutMs / 1000));
    return run;
}

EventFigures measureEvents(QEventLoop &loop, RawPipe &client, LockMonitor *monitor, const QList<QByteArray> &names,
    const Arm &arm, const Send &send)
{
    EventFigures figures;
    QString error;
    for (const QByteArray &name : names) {
        QObject scope;
        qint64 seenAt = 0;
        arm(&scope, name, [&] {
            if (seenAt == 0) {
                seenAt = nowNs();
                loop.quit();
            }
        });
        const bool busy = monitor->connection()->pendingCount() > 0;
        const qint64 sentAt = nowNs();
        send(client, name);
        if (!client.flush(&error))
            fatal(error);
        const bool seen = waitUntil(
            loop, [&] { return seenAt != 0; }, kEventTimeoutMs);
        const qint64 backAt = nowNs();
        RawReply reply = client.next(&error);
        if (!reply || isErrorReply(reply.get()))
            fatal(
                QStringLiteral("event on %1: %2")
                    .arg(QString::fromUtf8(name), error.isEmpty() ? QString::fromUtf8(replyText(reply.get())) : error));
        if (seen) {
            figures.latencyMs.push_back(ms(seenAt - sentAt));
            figures.tailMs.push_back(ms(backAt - seenAt));
            if (busy)
                figures.busyLatencyMs.push_back(ms(seenAt - sentAt));
        } else {
            ++figures.missed;
            std::fprintf(stderr, "no model change for %s within %d ms\n", name.constData(), kEventTimeoutMs);
        }
        idle(loop, kEventPauseMs);
    }
    return figures;
}

void reportEvents(const QString &what, const EventFigures &f)
{
    QString line = QStringLiteral("%1: median %2 ms, p95 %3 ms, max %4 ms over %5 events (%6 missed); the model's "
                                  "own work after its signal: median %7 ms")
                       .arg(what)
                       .arg(median(f.latencyMs), 0, 'f', 2)
                       .arg(percentile(f.latencyMs, 95), 0, 'f', 2)
                       .arg(percentile(f.latencyMs, 100), 0, 'f', 2)
                       .arg(f.latencyMs.size())
                       .arg(f.missed)
                       .arg(median(f.tailMs), 0, 'f', 2);
    if (!f.busyLatencyMs.empty())
        line += QStringLiteral("; %1 sent while the monitor had reads in flight (a re-scan pass), their median %2 ms")
                    .arg(f.busyLatencyMs.size())
                    .arg(median(f.busyLatencyMs), 0, 'f', 2);
    report(line);
}

} // namespace LockScope::Bench
