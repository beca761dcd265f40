// bench_monitor: the lock monitor on a big keyspace. Time to the first complete snapshot against a raw hiredis loop
// sending the scanner's very commands, peak RSS, the longest event-loop stall during the scan, and how long a
// release (or, with keyspace events, an acquisition) by another client takes to reach the table model.

#include "base/heappolicy.h"
#include "benchcommon.h"
#include "kinds/locknames.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "monitorprobe.h"
#include "monitorraw.h"
#include "monitorseed.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

#include <hiredis.h>

#include <functional>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

constexpr int kPings = 1000;

// What Redisson's release script does to the keys once the last hold is gone (docs/protocol/reentrant.md#release,
// without the latch).
const QByteArray kReleaseScript = "if redis.call('del', KEYS[1]) == 1 then redis.call('publish', KEYS[2], ARGV[1]); "
                                  "return 1; end; return 0;";
// Redisson's acquire of a free lock (docs/protocol/reentrant.md#acquire).
const QByteArray kAcquireScript
    = "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil;";

RawSnapshot runBaseline(RawPipe &raw, int scanCount, const QString &when)
{
    RawSnapshot snapshot;
    QString error;
    if (!rawSnapshot(raw, scanCount, &snapshot, &error))
        fatal(error);
    report(QStringLiteral("raw snapshot (%1): %2 ms, %3 SCAN calls, %4 keys, %5 hashes, %6 lock-shaped, %7 commands")
               .arg(when)
               .arg(ms(snapshot.elapsedNs), 0, 'f', 1)
               .arg(snapshot.scanCalls)
               .arg(snapshot.keysSeen)
               .arg(snapshot.hashesSeen)
               .arg(snapshot.lockShaped)
               .arg(snapshot.commands));
    return snapshot;
}

double pingRttMs(RawPipe &raw)
{
    std::vector<double> rtts;
    QString error;
    for (int i = 0; i < kPings; ++i) {
        const qint64 start = nowNs();
        if (!raw.command({ "PING" }, &error))
            fatal(error);
        rtts.push_back(ms(nowNs() - start));
    }
    return median(rtts);
}

// Evenly spread over the table, reentrant ones only: those a plain DEL + PUBLISH releases exactly as Redisson does.
QList<QByteArray> releaseTargets(int locks, int events)
{
    QList<int> reentrant;
    for (int i = 0; i < locks; ++i)
        if (seedKind(i) == SeedKind::Reentrant)
            reentrant << i;
    QList<QByteArray> names;
    for (int k = 0; k < events; ++k)
        names << seedLockName(reentrant.at(int(qint64(k) * reentrant.size() / events)));
    return names;
}

std::unique_ptr<LockMonitor> newMonitor(const ConnectionOptions &connection, int scanCount)
{
    LockMonitor::Options options;
    options.pattern = "*";
    options.scanCount = scanCount;
    options.useKeyspaceEvents = true; // used when the server sends them; the monitor never turns them on
    return std::make_unique<LockMonitor>(connection, options);
}

} // namespace

int main(int argc, char *argv[])
{
    keepFreedHeapForReuse(); // the heap as the console and lockscope-cli keep it
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_monitor"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The lock monitor on a big keyspace: snapshot time against a raw "
                                                    "loop, peak RSS, event-loop stalls, event-to-model latency."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("locks to seed"), QStringLiteral("N"), QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("noise"), QStringLiteral("other keys to seed"), QStringLiteral("N"),
        QStringLiteral("1000000") });
    parser.addOption({ QStringLiteral("other-locks"),
        QStringLiteral("string locks of the other libraries to seed, each under its default pattern"),
        QStringLiteral("N"), QStringLiteral("20000") });
    parser.addOption({ QStringLiteral("events"), QStringLiteral("releases (and acquisitions) timed to the model"),
        QStringLiteral("N"), QStringLiteral("200") });
    parser.addOption(
        { QStringLiteral("count"), QStringLiteral("SCAN COUNT"), QStringLiteral("N"), QStringLiteral("1000") });
    parser.process(app);

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const int otherLocks = parser.value(QStringLiteral("other-locks")).toInt();
    const int events = parser.value(QStringLiteral("events")).toInt();
    const int scanCount = parser.value(QStringLiteral("count")).toInt();
    if (locks < 10 || noise < 0 || otherLocks < 0 || events < 1 || scanCount < 1)
        fatal(QStringLiteral(
            "--locks must be >= 10, --events and --count positive, --noise and --other-locks not negative"));
    if (events > locks * 7 / 10)
        fatal(QStringLiteral("--events may be at most the number of reentrant locks (70% of --locks)"));

    QString error;
    BenchServer server;
    RawPipe raw; // seeding and the reference loop
    openSeedServer(parser.value(QStringLiteral("url")), server, raw);
    RawPipe actor; // "another client": releases and acquires
    if (!actor.connect(server.options(), &error))
        fatal(error);
    report(QStringLiteral("server: %1%2, %3 locks and %4 other libraries' locks among %5 other keys, SCAN COUNT %6")
               .arg(server.options().toDisplayUrl(), server.isPrivate() ? QStringLiteral(" (private)") : QString())
               .arg(locks)
               .arg(otherLocks)
               .arg(noise)
               .arg(scanCount));

    const SeedPlan plan = standardSeedPlan(locks, noise, otherLocks);
    SeedCounts seeded;
    if (!seedKeyspace(raw, plan, kSeedChunk, &seeded, &error))
        fatal(error);
    report(QStringLiteral("seeded in %1 ms (%2 commands): %3 reentrant, %4 fenced, %5 fair, %6 read-write locks; "
                          "%7 strings, %8 hashes, %9 lists, %10 look-alike hashes; %11 other libraries' locks")
               .arg(ms(seeded.elapsedNs), 0, 'f', 0)
               .arg(seeded.commands)
               .arg(seeded.reentrant)
               .arg(seeded.fenced)
               .arg(seeded.fair)
               .arg(seeded.readWrite)
               .arg(seeded.strings)
               .arg(seeded.hashes)
               .arg(seeded.lists)
               .arg(seeded.lookAlikes)
               .arg(seeded.otherLocks));

    // The first pass over a freshly loaded keyspace is often 5-30% slower than later ones (the server is still growing
    // and rehashing its key table): one untimed pass first, so neither side pays for that.
    runBaseline(raw, scanCount, QStringLiteral("warm-up, not counted"));
    // Baseline before, monitor, baseline after: the mean of the two brackets the monitor's run in time.
    const RawSnapshot before = runBaseline(raw, scanCount, QStringLiteral("before"));
    const double rssBeforeMb = procStatusMb("VmHWM");

    QEventLoop loop;
    auto monitor = newMonitor(server.options(), scanCount);
    auto model = std::make_unique<LockTableModel>(monitor.get());
    const SnapshotRun snap = takeSnapshot(loop, monitor.get(), model.get());
    // Right after the snapshot: the peak so far is the monitor's, the loader and the raw loop being far smaller.
    const double rssPeakMb = procStatusMb("VmHWM");
    const QByteArray mode = LockEventFeed::modeName(monitor->mode());
    if (snap.error.isError())
        fatal(QStringLiteral("snapshot failed: %1").arg(snap.error.toString()));
    report(QStringLiteral("monitor snapshot: %1 ms, %2 hashes seen, %3 rows (%4 seeded), mode %5; longest event-loop "
                          "gap %6 ms; peak RSS %7 MiB (%8 MiB before the monitor)")
               .arg(ms(snap.elapsedNs), 0, 'f', 1)
               .arg(snap.keysSeen)
               .arg(snap.rows)
               .arg(locks + otherLocks)
               .arg(QString::fromLatin1(mode))
               .arg(snap.maxGapMs, 0, 'f', 1)
               .arg(rssPeakMb, 0, 'f', 1)
               .arg(rssBeforeMb, 0, 'f', 1));
    if (!snap.longGaps.isEmpty())
        report(QStringLiteral("event-loop gaps over %1 ms: %2")
                   .arg(kLongGapMs)
                   .arg(snap.longGaps.join(QStringLiteral(", "))));

    // The monitor is frozen meanwhile (this loop blocks its thread), so it does not compete for the server.
    const RawSnapshot after = runBaseline(raw, scanCount, QStringLiteral("after"));
    const double rawMs = (ms(before.elapsedNs) + ms(after.elapsedNs)) / 2;
    const double pingMs = pingRttMs(actor);
    report(QStringLiteral("PING round trip: median %1 ms").arg(pingMs, 0, 'f', 3));

    const Arm onRemoved = [&model](QObject *scope, const QByteArray &name, std::function<void()> seen) {
        auto hit = std::make_shared<bool>(false);
        QObject::connect(model.get(), &QAbstractItemModel::rowsAboutToBeRemoved, scope,
            [&model, name, hit](const QModelIndex &, int first, int last) {
                for (int row = first; row <= last && !*hit; ++row)
                    *hit = model->nameAt(row) == name;
            });
        QObject::connect(model.get(), &QAbstractItemModel::rowsRemoved, scope, [hit, seen] {
            if (*hit)
                seen();
        });
    };
    const Send release = [](RawPipe &client, const QByteArray &name) {
        client.append({ "EVAL", kReleaseScript, "2", name, LockNames::lockChannel(name), "0" });
    };
    const EventFigures releases
        = measureEvents(loop, actor, monitor.get(), releaseTargets(locks, events), onRemoved, release);
    reportEvents(QStringLiteral("release to model (%1)").arg(QString::fromLatin1(mode)), releases);
    model.reset();
    monitor.reset();

    // Keyspace events are a server setting: only on a server of our own may the bench switch them on.
    EventFigures acquisitions;
    bool keyspaceMeasured = false;
    bool keyspaceModeReached = true;
    if (server.isPrivate()) {
        RawReply set = raw.command({ "CONFIG", "SET", "notify-keyspace-events", "Kh$zgx" }, &error);
        if (!set || isErrorReply(set.get()))
            fatal(QStringLiteral("CONFIG SET notify-keyspace-events: %1").arg(QString::fromUtf8(replyText(set.get()))));
        auto keyspaceMonitor = newMonitor(server.options(), scanCount);
        auto keyspaceModel = std::make_unique<LockTableModel>(keyspaceMonitor.get());
        const SnapshotRun again = takeSnapshot(loop, keyspaceMonitor.get(), keyspaceModel.get());
        keyspaceModeReached = keyspaceMonitor->mode() == LockEventFeed::Mode::KeyspaceEvents;
        report(QStringLiteral("second monitor: mode %1, snapshot %2 ms, %3 rows, longest gap %4 ms")
                   .arg(QString::fromLatin1(LockEventFeed::modeName(keyspaceMonitor->mode())))
                   .arg(ms(again.elapsedNs), 0, 'f', 1)
                   .arg(again.rows)
                   .arg(again.maxGapMs, 0, 'f', 1));
        if (!again.longGaps.isEmpty())
            report(QStringLiteral("event-loop gaps over %1 ms: %2")
                       .arg(kLongGapMs)
                       .arg(again.longGaps.join(QStringLiteral(", "))));
        if (keyspaceModeReached) {
            LockTableModel *m = keyspaceModel.get();
            const Arm onInserted = [m](QObject *scope, const QByteArray &name, std::function<void()> seen) {
                QObject::connect(m, &QAbstractItemModel::rowsInserted, scope,
                    [m, name, seen](const QModelIndex &, int first, int last) {
                        for (int row = first; row <= last; ++row)
                            if (m->nameAt(row) == name)
                                seen();
                    });
            };
            const QByteArray lease = QByteArray::number(plan.leaseMs);
            int k = 0;
            const Send acquire = [&plan, &lease, &k](RawPipe &client, const QByteArray &name) {
                client.append({ "EVAL", kAcquireScript, "1", name, lease, seedOwner(plan.clients, k++) });
            };
            QList<QByteArray> names;
            for (int i = 0; i < events; ++i)
                names << "bench:acquired:" + QByteArray::number(i);
            acquisitions = measureEvents(loop, actor, keyspaceMonitor.get(), names, onInserted, acquire);
            reportEvents(QStringLiteral("acquisition to model (keyspace-events)"), acquisitions);
            keyspaceMeasured = true;
        } else {
            std::fprintf(stderr, "keyspace events switched on, but the monitor chose %s: %s\n",
                LockEventFeed::modeName(keyspaceMonitor->mode()).constData(),
                qPrintable(keyspaceMonitor->modeReason()));
        }
    } else {
        const qint64 removed = removeSeeded(raw, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded").arg(removed));
    }

    const bool lockShapedOk = before.lockShaped == locks + seeded.lookAlikes && after.lockShaped == before.lockShaped;
    if (!lockShapedOk)
        std::fprintf(stderr, "the raw loop saw %lld and %lld lock-shaped hashes, expected %d\n",
            static_cast<long long>(before.lockShaped), static_cast<long long>(after.lockShaped),
            locks + seeded.lookAlikes);
    const double ratio = snap.elapsedNs > 0 ? rawMs / ms(snap.elapsedNs) : 0.0;
    report(QStringLiteral("raw / monitor snapshot: %1 (raw mean of before and after: %2 ms; target >= 0.67, and the "
                          "snapshot under 5000 ms)")
               .arg(ratio, 0, 'f', 3)
               .arg(rawMs, 0, 'f', 1));

    JsonLine baseline;
    baseline.add(QStringLiteral("raw_snapshot_ms"), rawMs)
        .add(QStringLiteral("raw_snapshot_ms_before"), ms(before.elapsedNs))
        .add(QStringLiteral("raw_snapshot_ms_after"), ms(after.elapsedNs))
        .add(QStringLiteral("raw_lock_shaped"), before.lockShaped)
        .add(QStringLiteral("raw_scan_calls"), before.scanCalls)
        .add(QStringLiteral("raw_type_calls"), before.typeCalls)
        .add(QStringLiteral("raw_string_locks"), before.stringKeys)
        .add(QStringLiteral("raw_zset_locks"), before.zsetKeys)
        .add(QStringLiteral("ping_rtt_ms"), pingMs)
        .add(QStringLiteral("rss_before_monitor_mb"), rssBeforeMb);
    JsonLine ratios;
    ratios.add(QStringLiteral("raw_vs_monitor_snapshot"), ratio);
    JsonLine json;
    json.add(QStringLiteral("bench"), "monitor")
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("other_locks"), otherLocks)
        .add(QStringLiteral("noise_keys"), noise)
        .add(QStringLiteral("scan_count"), scanCount)
        .add(QStringLiteral("mode"), QString::fromLatin1(mode))
        .add(QStringLiteral("snapshot_ms"), ms(snap.elapsedNs))
        .add(QStringLiteral("locks_found"), snap.rows)
        .add(QStringLiteral("events_missed"), releases.missed + acquisitions.missed)
        .add(QStringLiteral("rss_peak_mb"), rssPeakMb)
        .add(QStringLiteral("max_loop_gap_ms"), snap.maxGapMs)
        .add(QStringLiteral("max_loop_busy_ms"), snap.maxBusyMs)
        .add(QStringLiteral("loop_gaps_over_25ms"), snap.gapsOverLong)
        .add(QStringLiteral("loop_busy_over_25ms"), snap.busyOverLong)
        .add(QStringLiteral("events"), events)
        .add(QStringLiteral("event_to_model_ms_median"), median(releases.latencyMs))
        .add(QStringLiteral("event_to_model_ms_p95"), percentile(releases.latencyMs, 95));
    if (keyspaceMeasured) {
        json.add(QStringLiteral("event_to_model_keyspace_ms_median"), median(acquisitions.latencyMs))
            .add(QStringLiteral("event_to_model_keyspace_ms_p95"), percentile(acquisitions.latencyMs, 95));
    }
    json.add(QStringLiteral("baseline"), baseline).add(QStringLiteral("ratio"), ratios);
    printJsonLine(json);

    const bool ok = snap.rows == locks + otherLocks && releases.missed == 0 && acquisitions.missed == 0 && lockShapedOk
        && keyspaceModeReached;
    return ok ? 0 : 1;
}
