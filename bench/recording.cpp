// The flight recorder under load, as people run it: lockscope-cli record's recorder (a LockMonitor feeding a Recorder
// that writes on its own thread) kept up with 50,000 events a second, every event kept, against a plain SQLite insert
// loop of the same rows into the same schema in the same run; then the questions users ask the morning after (at,
// one lock's day of history, explain) run as lockscope-cli processes on a recording of 10 million events, against
// the same CLI answering from an empty recording (what starting a process costs). Bytes per event and the
// recorder's RSS growth are reported too.
#include "benchcommon.h"
#include "clirun.h"
#include "recordingseed.h"
#include "recordingworkload.h"

#include "monitor/lockmonitor.h"
#include "recording/recorder.h"
#include "recording/recordingstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTimer>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {
double rssMb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return -1;
}

// Phase A: the recorder fed by its monitor. paced: rate events a second (in 10 ms slices); else as fast as the
// monitor hands them over. Returns the events a second from the first event to the last one on disk.
double recordThroughRecorder(const BenchServer &server, const QString &path, qint64 events, int locks, int rate,
    qint64 *kept, double *rssGrowthMb, double *backlogMs)
{
    WorkloadRecorder recorder(server, path);
    const double rssBefore = rssMb();
    QElapsedTimer clock;
    clock.start();
    qint64 sent = 0;
    const qint64 base = QDateTime::currentMSecsSinceEpoch();
    while (sent < events) {
        const qint64 due = rate > 0 ? qMin<qint64>(events, qint64(clock.elapsed() + 10) * rate / 1000) : sent + 5000;
        recorder.send(sent, qMin(due, events), locks, base);
        sent = qMax(sent, qMin(due, events));
        QCoreApplication::processEvents(QEventLoop::AllEvents, rate > 0 ? 10 : 0);
    }
    const qint64 lastSent = clock.elapsed();
    recorder.waitWritten();
    const qint64 done = clock.elapsed();
    *backlogMs = double(done - lastSent);
    *rssGrowthMb = rssMb() - rssBefore;
    *kept = rowsIn(path);
    return double(events) * 1000.0 / double(qMax<qint64>(1, done));
}

// Phase A's baseline: the same rows into the same schema, a prepared INSERT in a loop, one transaction per 12,500
// rows (the recorder's quarter-second batch at 50,000 a second), on the calling thread.
double plainInsertLoop(const QString &path, qint64 events, int locks)
{
    { // the schema, as a recording has it
        RecordingStore store;
        QString error;
        if (!store.open(path, true, &error))
            fatal(error);
    }
    double perSecond = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("plain"));
        db.setDatabaseName(path);
        if (!db.open())
            fatal(QStringLiteral("cannot open %1").arg(path));
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
        q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
        q.exec(QStringLiteral("PRAGMA cache_size=-65536")); // as the recorder's: the same rows, the same settings
        q.prepare(QStringLiteral("INSERT INTO events (ts, server, type, name, owner, previous_owner, count, ttl_ms, "
                                 "late_ms, kind, library, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        const qint64 base = QDateTime::currentMSecsSinceEpoch();
        const QString server = QStringLiteral("redis://127.0.0.1:1/0");
        QElapsedTimer clock;
        clock.start();
        for (qint64 i = 0; i < events; ++i) {
            if (i % 12500 == 0)
                db.transaction();
            const LockEvent e = eventAt(i, locks, base + i / 50);
            q.addBindValue(e.timeMs);
            q.addBindValue(server);
            q.addBindValue(QString::fromLatin1(LockEvent::typeName(e.type)));
            q.addBindValue(e.name);
            q.addBindValue(e.owner);
            q.addBindValue(QVariant(QMetaType(QMetaType::QByteArray))); // no previous owner: NULL, as recorded
            q.addBindValue(e.count);
            q.addBindValue(e.ttlMs);
            q.addBindValue(e.lateMs);
            q.addBindValue(QStringLiteral("reentrant"));
            q.addBindValue(QStringLiteral("redisson"));
            q.addBindValue(QString());
            if (!q.exec())
                fatal(QStringLiteral("plain insert failed"));
            if (i % 12500 == 12499 || i == events - 1)
                db.commit();
        }
        perSecond = double(events) * 1000.0 / double(qMax<qint64>(1, clock.elapsed()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("plain"));
    return perSecond;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_recording"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The recorder at 50k events/s against a plain SQLite insert loop; "
                                                    "at, history and explain on a big recording."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("events"), QStringLiteral("events the recorder records"), QStringLiteral("N"),
        QStringLiteral("1000000") });
    parser.addOption({ QStringLiteral("rate"), QStringLiteral("events a second of the paced run"), QStringLiteral("N"),
        QStringLiteral("50000") });
    parser.addOption({ QStringLiteral("big"), QStringLiteral("events in the recording the questions read"),
        QStringLiteral("N"), QStringLiteral("10000000") });
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("distinct locks"), QStringLiteral("N"), QStringLiteral("10000") });
    parser.process(app);
    const qint64 events = parser.value(QStringLiteral("events")).toLongLong();
    const int rate = parser.value(QStringLiteral("rate")).toInt();
    const qint64 big = parser.value(QStringLiteral("big")).toLongLong();
    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const QString cli = QStringLiteral(LOCKSCOPE_CLI_PATH);

    BenchServer server;
    QString error;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    QTemporaryDir dir;

    // A: paced at the workload's rate (every event kept?), then unpaced against the plain loop.
    qint64 keptPaced = 0, keptMax = 0;
    double rssPaced = 0, rssMax = 0, backlogPaced = 0, backlogMax = 0;
    const double pacedRate = recordThroughRecorder(server, dir.filePath(QStringLiteral("paced.sqlite")), events, locks,
        rate, &keptPaced, &rssPaced, &backlogPaced);
    const double recorderMax = recordThroughRecorder(
        server, dir.filePath(QStringLiteral("max.sqlite")), events, locks, 0, &keptMax, &rssMax, &backlogMax);
    const double plain = plainInsertLoop(dir.filePath(QStringLiteral("plain.sqlite")), events, locks);
    report(QStringLiteral("recorder paced at %1/s: %2 events/s, %3 of %4 kept, caught up %5 ms after the last; "
                          "unpaced %6 events/s vs a plain insert loop %7 rows/s; RSS growth %8 MB")
               .arg(rate)
               .arg(pacedRate, 0, 'f', 0)
               .arg(keptPaced)
               .arg(events)
               .arg(backlogPaced, 0, 'f', 0)
               .arg(recorderMax, 0, 'f', 0)
               .arg(plain, 0, 'f', 0)
               .arg(qMax(rssPaced, rssMax), 0, 'f', 1));

    // C: the questions on a big recording, as processes, against the same CLI on an empty recording.
    const QString bigPath = dir.filePath(QStringLiteral("big.sqlite"));
    QByteArray owner;
    QElapsedTimer seedClock;
    seedClock.start();
    const qint64 middle = seedBig(bigPath, big, locks, &owner);
    const double seedS = seedClock.elapsed() / 1000.0;
    const double bytesPerEvent = double(QFileInfo(bigPath).size()) / double(big);
    const QString emptyPath = dir.filePath(QStringLiteral("empty.sqlite"));
    seedBig(emptyPath, 10, locks, &owner);
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const QString at = QString::number(middle);
    const QString lock = QStringLiteral("bench:rec:orders:42");
    const auto best = [&](const QStringList &args) {
        double wall = 1e12;
        for (int i = 0; i < 3; ++i)
            wall = qMin(wall, runCliProcess(cli, args, out, true).wallMs);
        return wall;
    };
    // What each answered, so that a fast answer is known to be a whole one.
    const auto linesOut = [&] {
        QFile f(out);
        return f.open(QIODevice::ReadOnly) ? qint64(f.readAll().count('\n')) : qint64(-1);
    };
    const double atMs = best({ QStringLiteral("at"), at, QStringLiteral("--db"), bigPath, QStringLiteral("--json") });
    const qint64 atLocks = linesOut();
    const double historyMs = best({ QStringLiteral("history"), lock, QStringLiteral("--db"), bigPath,
        QStringLiteral("--since"), QString::number(middle - 12LL * 3600 * 1000), QStringLiteral("--json") });
    const qint64 historyEvents = linesOut();
    const double explainMs = best({ QStringLiteral("explain"), QStringLiteral("--owner"), QString::fromUtf8(owner),
        QStringLiteral("--around"), at, QStringLiteral("--db"), bigPath, QStringLiteral("--json") });
    const double emptyMs = best({ QStringLiteral("history"), QStringLiteral("bench:rec:orders:1"),
        QStringLiteral("--db"), emptyPath, QStringLiteral("--json") });
    report(QStringLiteral("%1 events (seeded in %2 s, %3 bytes each): at %4 ms, a day of history %5 ms, explain %6 ms; "
                          "the CLI on an empty recording %7 ms")
               .arg(big)
               .arg(seedS, 0, 'f', 1)
               .arg(bytesPerEvent, 0, 'f', 1)
               .arg(atMs, 0, 'f', 1)
               .arg(historyMs, 0, 'f', 1)
               .arg(explainMs, 0, 'f', 1)
               .arg(emptyMs, 0, 'f', 1));

    printJsonLine(JsonLine()
                      .add(QStringLiteral("bench"), "recording")
                      .add(QStringLiteral("events"), events)
                      .add(QStringLiteral("paced_rate"), rate)
                      .add(QStringLiteral("paced_events_per_s"), pacedRate)
                      .add(QStringLiteral("paced_kept"), keptPaced)
                      .add(QStringLiteral("paced_catch_up_ms"), backlogPaced)
                      .add(QStringLiteral("recorder_events_per_s"), recorderMax)
                      .add(QStringLiteral("recorder_kept"), keptMax)
                      .add(QStringLiteral("recorder_rss_growth_mb"), qMax(rssPaced, rssMax))
                      .add(QStringLiteral("big_events"), big)
                      .add(QStringLiteral("bytes_per_event"), bytesPerEvent)
                      .add(QStringLiteral("at_ms"), atMs)
                      .add(QStringLiteral("at_locks"), atLocks)
                      .add(QStringLiteral("history_events"), historyEvents)
                      .add(QStringLiteral("history_day_ms"), historyMs)
                      .add(QStringLiteral("explain_ms"), explainMs)
                      .add(QStringLiteral("baseline"),
                          JsonLine()
                              .add(QStringLiteral("plain_insert_rows_per_s"), plain)
                              .add(QStringLiteral("cli_empty_recording_ms"), emptyMs))
                      .add(QStringLiteral("ratio"),
                          JsonLine()
                              .add(QStringLiteral("recorder_vs_plain_insert"), recorderMax / plain)
                              .add(QStringLiteral("paced_kept_fraction"), double(keptPaced) / double(events))
                              .add(QStringLiteral("at_vs_empty_cli"), atMs / emptyMs)
                              .add(QStringLiteral("history_vs_empty_cli"), historyMs / emptyMs)
                              .add(QStringLiteral("explain_vs_empty_cli"), explainMs / emptyMs)));
    return 0;
}
