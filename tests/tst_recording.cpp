// The flight recorder, as people meet it the morning after: lockscope-cli record kept every event of the night on
// disk, and history answers from the file exactly (acquired, the renewal, released; the force release's deletion);
// a recorder killed with -9 keeps what it had written, and started again it appends to the same file; a file that is
// not a recording (random bytes, another program's SQLite database, a damaged recording) is refused and left as it is;
// retention takes only the oldest. Real redis-server, real processes; the store's pruning on rows built by hand.
#include "rawredis.h"
#include "recordingcli.h"
#include "redisserver.h"
#include "statsworkload.h"
#include "testutil.h"

#include "monitor/lockmonitor.h"
#include "recording/recorder.h"
#include "recording/recordingstore.h"
#include "redis/connectionoptions.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QByteArray sha(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                       : QByteArray();
}
} // namespace

class TestRecording : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;

    RecordingCli m_cli { m_server, m_dir };

    void startRecorder(QProcess &p, const QString &db, const QByteArray &prefix) { m_cli.startRecorder(p, db, prefix); }
    QList<QJsonObject> history(const QString &db, const QByteArray &name) { return m_cli.history(db, name); }
    bool recorded(const QString &db, const QByteArray &name, int n) { return m_cli.recorded(db, name, n); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // A night: acquired, renewed, released; another lock force-released by lockscope-cli. Stopped with SIGTERM, the
    // recording tells each as it happened, in order, with owners, counts and TTLs.
    void historyTellsWhatHappened()
    {
        const QByteArray p = uniqueKey("rec");
        const QByteArray name = p + ":orders";
        const QString db = m_dir.filePath(QStringLiteral("night.sqlite"));
        QProcess recorder;
        startRecorder(recorder, db, p);
        RawRedis raw(m_server.port());
        acquire(raw, name, kOwnerA, "20000");
        QVERIFY(recorded(db, name, 1));
        // A renewal: the TTL set back up, well beyond where the first deadline would have it.
        raw.command({ "PEXPIRE", name, "30000" });
        QVERIFY(recorded(db, name, 2));
        release(raw, name, kOwnerA);
        QVERIFY(recorded(db, name, 3));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));
        QCOMPARE(recorder.exitCode(), 0);

        const QList<QJsonObject> h = history(db, name);
        QCOMPARE(eventsOf(h),
            (QStringList { QStringLiteral("acquired"), QStringLiteral("renewed"), QStringLiteral("released") }));
        QCOMPARE(h.at(0).value(QStringLiteral("owner")).toString(), QString::fromUtf8(kOwnerA));
        QCOMPARE(h.at(0).value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(h.at(0).value(QStringLiteral("kind")).toString(), QStringLiteral("reentrant"));
        QCOMPARE(h.at(0).value(QStringLiteral("source")).toString(), QStringLiteral("recording"));
        QCOMPARE(h.at(2).value(QStringLiteral("count")).toInt(), 0);
        // Nothing recorded of a lock that was never there.
        const CliRun none = runCli(
            { QStringLiteral("history"), QString::fromUtf8(p + ":nothing"), QStringLiteral("--db"), db }, m_dir);
        CLI_EXIT(none, CliExit::NotDone);
    }

    // kill -9 mid-run: what was written stays, and a recorder started again on the file appends to it.
    void aKilledRecorderKeepsWhatItWroteAndARestartAppends()
    {
        const QByteArray p = uniqueKey("rec-kill");
        const QByteArray name = p + ":import";
        const QString db = m_dir.filePath(QStringLiteral("killed.sqlite"));
        RawRedis raw(m_server.port());
        {
            QProcess recorder;
            startRecorder(recorder, db, p);
            acquire(raw, name, kOwnerA, "600000");
            QVERIFY(recorded(db, name, 1));
            recorder.kill();
            QVERIFY(recorder.waitForFinished(30000));
        }
        release(raw, name, kOwnerA); // while nobody records: not in the recording
        QProcess again;
        startRecorder(again, db, p);
        acquire(raw, name, kOwnerB, "600000");
        QVERIFY(recorded(db, name, 2));
        again.terminate();
        QVERIFY(again.waitForFinished(30000));
        const QList<QJsonObject> h = history(db, name);
        QCOMPARE(eventsOf(h), (QStringList { QStringLiteral("acquired"), QStringLiteral("acquired") }));
        QCOMPARE(h.at(0).value(QStringLiteral("owner")).toString(), QString::fromUtf8(kOwnerA));
        QCOMPARE(h.at(1).value(QStringLiteral("owner")).toString(), QString::fromUtf8(kOwnerB));
        raw.command({ "DEL", name });
    }

    // serve-metrics records by default, into the data directory; --no-record serves the metrics alone.
    void serveMetricsRecordsByDefault()
    {
        const QByteArray p = uniqueKey("rec-serve");
        const QByteArray name = p + ":orders";
        const QString db = m_dir.filePath(QStringLiteral("data/lockscope/recording.sqlite")); // cliEnvironment's
        RawRedis raw(m_server.port());
        {
            QProcess serve;
            startCli(serve,
                { QStringLiteral("serve-metrics"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                    QStringLiteral("--pattern"), QString::fromUtf8(p + "*"), QStringLiteral("--url"), m_server.url() },
                m_dir);
            waitForStatus(serve, "watching");
            acquire(raw, name, kOwnerA, "600000");
            QVERIFY(recorded(db, name, 1));
            serve.terminate();
            QVERIFY(serve.waitForFinished(30000));
            QCOMPARE(serve.exitCode(), 0);
        }
        const QString other = m_dir.filePath(QStringLiteral("no-record"));
        QProcess plain;
        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("XDG_DATA_HOME"), other);
        startCli(plain,
            { QStringLiteral("serve-metrics"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                QStringLiteral("--no-record"), QStringLiteral("--pattern"), QString::fromUtf8(p + "*"),
                QStringLiteral("--url"), m_server.url() },
            env);
        waitForStatus(plain, "watching");
        plain.terminate();
        QVERIFY(plain.waitForFinished(30000));
        QVERIFY(!QFile::exists(other + QStringLiteral("/lockscope/recording.sqlite")));
        raw.command({ "DEL", name });
    }

    // Not a recording: said, refused, and the file left byte for byte as it was.
    void aForeignOrDamagedFileIsRefused()
    {
        const QString random = m_dir.filePath(QStringLiteral("random.bin"));
        {
            QFile f(random);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, '\x5a'));
        }
        const QString foreign = m_dir.filePath(QStringLiteral("foreign.sqlite"));
        {
            QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("foreign"));
            other.setDatabaseName(foreign);
            QVERIFY(other.open());
            QSqlQuery q(other);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount INTEGER)")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO invoices (amount) VALUES (42)")));
            other.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
        const QString damaged = m_dir.filePath(QStringLiteral("damaged.sqlite"));
        {
            RecordingStore store;
            QString error;
            QVERIFY2(store.open(damaged, true, &error), qPrintable(error));
            QList<RecordedEvent> rows;
            for (int i = 0; i < 2000; ++i)
                rows << RecordedEvent { 1000 + i, "redis://h:1/0", "acquired", "lock:" + QByteArray::number(i), "owner",
                    {}, 1, 30000, -1, "reentrant", "redisson", {} };
            QVERIFY2(store.append(rows, &error), qPrintable(error));
        }
        {
            // Its pages overwritten past the header: what a disk error leaves.
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(8192);
            f.write(QByteArray(16384, '\xff'));
        }
        for (const QString &path : { random, foreign, damaged }) {
            const QByteArray before = sha(path);
            QProcess recorder;
            startCli(recorder,
                { QStringLiteral("record"), QStringLiteral("--db"), path, QStringLiteral("--url"), m_server.url() },
                m_dir);
            const CliRun r = finishCli(recorder, 30000);
            QVERIFY2(r.exitCode == CliExit::Usage, r.describe().constData());
            QVERIFY2(
                r.err.contains("not a LockScope recording") || r.err.contains("damaged"), r.describe().constData());
            QCOMPARE(sha(path), before);
        }
    }

    // A writer far behind the monitor (a disk, a database slower than the events for long): past the backlog the
    // recorder holds, what it gathers is left out rather than kept in memory without end, said once on its way, and
    // recorded as a gap with how many events it lost; what came before and after is all there. The writer is held
    // back by a write transaction of the test's own on the file, taken before and given up after a few milliseconds
    // of work (SQLite lets the writer wait 5 s for it).
    void aWriterFarBehindLeavesAGapNotMemory()
    {
        const QString db = m_dir.filePath(QStringLiteral("behind.sqlite"));
        const QByteArray p = uniqueKey("behind");
        LockMonitor::Options monitorOptions;
        monitorOptions.pattern = p + "*";
        LockMonitor monitor(ConnectionOptions::fromUrl(m_server.url()), monitorOptions);
        RecorderOptions options;
        options.path = db;
        options.maxBacklogEvents = 100;
        options.flushMs = 3600 * 1000; // flushed by hand below
        Recorder recorder(&monitor, m_server.url().toUtf8(), options);
        QSignalSpy opened(&recorder, &Recorder::opened);
        QSignalSpy behind(&recorder, &Recorder::fellBehind);
        recorder.start();
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 30000);
        QCOMPARE(opened.first().first().toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(monitor.isSnapshotComplete(), 30000);
        bool idle = false;
        recorder.flush([&] { idle = true; }); // the first snapshot written: the writer has nothing left to do
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);

        qint64 sent = 0;
        const qint64 base = QDateTime::currentMSecsSinceEpoch();
        const auto send = [&](int n) {
            for (int i = 0; i < n; ++i, ++sent) {
                LockEvent e;
                e.type = LockEvent::Type::Renewed;
                e.name = p + ":lock";
                e.owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
                e.count = 1;
                e.ttlMs = 30000;
                e.timeMs = base + sent;
                monitor.noteEvent(e);
            }
        };
        {
            QSqlDatabase blocker = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blocker"));
            blocker.setDatabaseName(db);
            QVERIFY(blocker.open());
            QSqlQuery q(blocker);
            QVERIFY2(q.exec(QStringLiteral("BEGIN IMMEDIATE")), qPrintable(q.lastError().text()));
            send(80);
            recorder.flush(); // the writer takes it, and waits for the file
            send(50);
            recorder.flush(); // 130 would be behind: left out
            send(50);
            recorder.flush();
            QCOMPARE(behind.size(), 1); // said once
            QCOMPARE(recorder.dropped(), qint64(100));
            QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
            blocker.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("blocker"));
        send(10);
        bool written = false;
        recorder.flush([&] { written = true; });
        QTRY_VERIFY_WITH_TIMEOUT(written, 30000);

        RecordingStore store;
        QString error;
        QVERIFY2(store.open(db, false, &error), qPrintable(error));
        EventQuery query;
        query.name = p + ":lock";
        query.withGaps = true;
        QStringList seen;
        for (const RecordedEvent &e : store.events(query, &error))
            seen << (e.type == "renewed" ? QStringLiteral("r") : QString::fromLatin1(e.type));
        QCOMPARE(seen.count(QStringLiteral("r")), 90);
        const qsizetype gap = seen.indexOf(QStringLiteral("gap-start"));
        QCOMPARE(gap, 80);
        QCOMPARE(seen.at(81), QStringLiteral("gap-end"));
        query.types = { "gap-start" };
        const QList<RecordedEvent> gaps = store.events(query, &error);
        QCOMPARE(gaps.size(), 1);
        QVERIFY2(gaps.first().detail.contains(QStringLiteral("100 event")), qPrintable(gaps.first().detail));
        QCOMPARE(gaps.first().timeMs, base + 80);
    }

    // Retention by age takes what is older than the window, by size the oldest first; the newest stays.
    void retentionTakesOnlyTheOldest()
    {
        const QString db = m_dir.filePath(QStringLiteral("retained.sqlite"));
        RecordingStore store;
        QString error;
        QVERIFY2(store.open(db, true, &error), qPrintable(error));
        const qint64 now = 10LL * 24 * 3600 * 1000;
        QList<RecordedEvent> rows;
        for (int i = 0; i < 20000; ++i) // one a minute, ~14 days back to now
            rows << RecordedEvent { now - (20000 - i) * 60000LL, "redis://h:1/0", "renewed", "lock:a", "owner", {}, 1,
                30000, -1, "reentrant", "redisson", QStringLiteral("a detail that takes some room on its page") };
        QVERIFY2(store.append(rows, &error), qPrintable(error));
        const qint64 week = 7LL * 24 * 3600 * 1000;
        QVERIFY(store.prune(now, week, -1, &error) > 0);
        QVERIFY(store.firstTimeMs() >= now - week);
        QCOMPARE(store.lastTimeMs(), now - 60000);
        const qint64 left = store.eventCount();
        const qint64 cap = store.dataBytes() / 2;
        QVERIFY(store.prune(now, -1, cap, &error) > 0);
        QVERIFY2(store.dataBytes() <= cap, qPrintable(QString::number(store.dataBytes())));
        QVERIFY(store.eventCount() < left);
        QCOMPARE(store.lastTimeMs(), now - 60000); // the newest stays
        QCOMPARE(store.history("lock:a", now - 60000, now, &error).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
