// The questions a recording answers the morning after, asked of lockscope-cli as a support engineer asks them: who
// held what at a chosen moment (a lock held since before the recording began, one taken while it ran, one released);
// LockScope's own force release in the timeline with its reason, and in the story explain tells; one client's doings
// across locks; the timeline exported as JSON lines and CSV; the error messages explain recognises (the recording files
// themselves: tst_recordingfiles). Real redis-server, holds
// written as Redisson writes them.
#include "rawredis.h"
#include "recordingcli.h"
#include "redisserver.h"
#include "testutil.h"

#include "recording/explainrequest.h"
#include "recording/recordingstore.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString ms(qint64 epochMs)
{
    return QString::number(epochMs);
}

// A moment strictly after now, so that what happens next is after it.
qint64 momentNow()
{
    const qint64 t = now();
    while (now() <= t + 1)
        QTest::qWait(1);
    return t + 1;
}

} // namespace

class TestRecordingQuestions : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;
    RecordingCli m_cli { m_server, m_dir };

    // at's holders of name at t, as owners.
    QStringList holdersAt(const QString &db, qint64 t, const QByteArray &name)
    {
        QStringList owners;
        for (const QJsonObject &o : m_cli.ask({ QStringLiteral("at"), ms(t), QStringLiteral("--db"), db }))
            if (o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name))
                for (const QJsonValue &h : o.value(QStringLiteral("holders")).toArray())
                    owners << h.toObject().value(QStringLiteral("owner")).toString();
        return owners;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // Three moments of one morning: a lock held since before the recorder started (known from its first snapshot),
    // a second taken while recording, the first released.
    void atTellsWhoHeldWhat()
    {
        const QByteArray p = uniqueKey("at");
        const QByteArray before = p + ":before", during = p + ":during";
        const QString db = m_dir.filePath(QStringLiteral("at.sqlite"));
        RawRedis raw(m_server.port());
        acquire(raw, before, kOwnerA, "600000");
        const qint64 beforeRecording = momentNow();
        QProcess recorder;
        m_cli.startRecorder(recorder, db, p);
        // The first complete pass is kept whole: from then on "before" is known held, without an event of it.
        QTRY_COMPARE_WITH_TIMEOUT(holdersAt(db, now(), before), QStringList { QString::fromUtf8(kOwnerA) }, 30000);
        const qint64 t1 = momentNow();
        acquire(raw, during, kOwnerB, "600000");
        QVERIFY(m_cli.recordedEvent(db, during, QStringLiteral("acquired")));
        const qint64 t2 = momentNow();
        release(raw, before, kOwnerA);
        QVERIFY(m_cli.recordedEvent(db, before, QStringLiteral("released")));
        const qint64 t3 = momentNow();
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));

        QCOMPARE(holdersAt(db, t1, before), QStringList { QString::fromUtf8(kOwnerA) });
        QCOMPARE(holdersAt(db, t1, during), QStringList());
        QCOMPARE(holdersAt(db, t2, before), QStringList { QString::fromUtf8(kOwnerA) });
        QCOMPARE(holdersAt(db, t2, during), QStringList { QString::fromUtf8(kOwnerB) });
        QCOMPARE(holdersAt(db, t3, before), QStringList());
        QCOMPARE(holdersAt(db, t3, during), QStringList { QString::fromUtf8(kOwnerB) });
        // Before the recording there is nothing to tell, and at says so rather than "nothing held".
        const QList<QJsonObject> early
            = m_cli.ask({ QStringLiteral("at"), ms(beforeRecording), QStringLiteral("--db"), db });
        QCOMPARE(early.size(), 1);
        QCOMPARE(early.first().value(QStringLiteral("seen")).toBool(true), false);
        const CliRun text = runCli({ QStringLiteral("at"), ms(t2), QStringLiteral("--db"), db }, m_dir);
        CLI_EXIT(text, CliExit::Done);
        QVERIFY2(text.out.contains(during) && text.out.contains(kOwnerB), text.describe().constData());
        raw.command({ "DEL", during });
    }

    // A force release by lockscope-cli with its reason: the audit record sits in the lock's history beside the
    // deletion, and explain tells who released the holder's lock, with what, and why.
    void forceReleaseIsInTheTimelineWithItsReason()
    {
        const QByteArray p = uniqueKey("audit");
        const QByteArray name = p + ":orders";
        const QString db = m_dir.filePath(QStringLiteral("audit.sqlite"));
        const QString reason = QStringLiteral("stuck after the 03:10 deploy, ticket OPS-7");
        RawRedis raw(m_server.port());
        QProcess recorder;
        m_cli.startRecorder(recorder, db, p);
        acquire(raw, name, kOwnerA, "600000");
        QVERIFY(m_cli.recordedEvent(db, name, QStringLiteral("acquired")));
        const CliRun released
            = runCli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                         QStringLiteral("--reason"), reason, QStringLiteral("--url"), m_server.url() },
                m_dir);
        CLI_EXIT(released, CliExit::Done);
        QVERIFY(m_cli.recordedEvent(db, name, QStringLiteral("force-released")));
        QVERIFY(m_cli.recordedEvent(db, name, QStringLiteral("audit")));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));

        QJsonObject audit;
        for (const QJsonObject &o : m_cli.history(db, name))
            if (o.value(QStringLiteral("event")).toString() == QLatin1String("audit"))
                audit = o;
        QCOMPARE(audit.value(QStringLiteral("owner")).toString(), QString::fromUtf8(kOwnerA));
        QCOMPARE(audit.value(QStringLiteral("audit")).toObject().value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(audit.value(QStringLiteral("audit")).toObject().value(QStringLiteral("action")).toString(),
            QStringLiteral("force-release"));

        const QList<QJsonObject> story = m_cli.ask({ QStringLiteral("explain"), QStringLiteral("--owner"),
            QString::fromUtf8(kOwnerA), QStringLiteral("--db"), db });
        QCOMPARE(story.size(), 1);
        const QJsonObject end = story.first().value(QStringLiteral("end")).toObject();
        QCOMPARE(story.first().value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(end.value(QStringLiteral("event")).toString(), QStringLiteral("force-released"));
        QCOMPARE(end.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(end.value(QStringLiteral("reason")).toString(), reason);
        QVERIFY(end.value(QStringLiteral("by")).toString().contains(QLatin1Char('@')));
    }

    // One client, two of its threads, and another client: client names the whole client or one thread; export gives
    // the same timeline as JSON lines and as CSV.
    void clientAndExport()
    {
        const QByteArray p = uniqueKey("client");
        const QString db = m_dir.filePath(QStringLiteral("client.sqlite"));
        const QByteArray clientA = kOwnerA.left(kOwnerA.indexOf(':'));
        const QByteArray otherThread = clientA + ":32";
        RawRedis raw(m_server.port());
        QProcess recorder;
        m_cli.startRecorder(recorder, db, p);
        acquire(raw, p + ":a", kOwnerA, "600000");
        acquire(raw, p + ":b", otherThread, "600000");
        acquire(raw, p + ":c", kOwnerB, "600000");
        for (const QByteArray &n : { p + ":a", p + ":b", p + ":c" })
            QVERIFY(m_cli.recordedEvent(db, n, QStringLiteral("acquired")));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));

        const auto namesOf = [](const QList<QJsonObject> &events) {
            QStringList names;
            for (const QJsonObject &o : events)
                names << o.value(QStringLiteral("name")).toString();
            names.sort();
            return names;
        };
        QCOMPARE(
            namesOf(m_cli.ask({ QStringLiteral("client"), QString::fromUtf8(clientA), QStringLiteral("--db"), db })),
            (QStringList { QString::fromUtf8(p + ":a"), QString::fromUtf8(p + ":b") }));
        QCOMPARE(
            namesOf(m_cli.ask({ QStringLiteral("client"), QString::fromUtf8(kOwnerA), QStringLiteral("--db"), db })),
            QStringList { QString::fromUtf8(p + ":a") });

        const QList<QJsonObject> jsonl = m_cli.ask({ QStringLiteral("export"), QStringLiteral("--db"), db,
            QStringLiteral("--pattern"), QString::fromUtf8(p + "*") });
        QCOMPARE(eventsOf(jsonl),
            (QStringList { QStringLiteral("acquired"), QStringLiteral("acquired"), QStringLiteral("acquired") }));
        const CliRun csv = runCli({ QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--format"),
                                      QStringLiteral("csv"), QStringLiteral("--pattern"), QString::fromUtf8(p + "*") },
            m_dir);
        CLI_EXIT(csv, CliExit::Done);
        const QList<QByteArray> rows = csv.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows.first().startsWith("ts,server,event,name,owner"));
        QVERIFY(rows.at(1).contains(",acquired," + p + ":a," + kOwnerA + ","));
        const CliRun bad = runCli(
            { QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--format"), QStringLiteral("xml") },
            m_dir);
        CLI_EXIT(bad, CliExit::Usage);
        for (const QByteArray &n : { p + ":a", p + ":b", p + ":c" })
            raw.command({ "DEL", n });
    }

    // stats --db: a recorded hour's contention in the JSON live stats prints, for a window of the recording.
    void statsOfARecordedWindow()
    {
        const QByteArray p = uniqueKey("stats");
        const QByteArray name = p + ":orders";
        const QString db = m_dir.filePath(QStringLiteral("stats.sqlite"));
        RawRedis raw(m_server.port());
        QProcess recorder;
        m_cli.startRecorder(recorder, db, p);
        for (int i = 0; i < 3; ++i) {
            acquire(raw, name, kOwnerA, "600000");
            QVERIFY(m_cli.recorded(db, name, 2 * i + 1));
            release(raw, name, kOwnerA);
            QVERIFY(m_cli.recorded(db, name, 2 * i + 2));
        }
        const qint64 afterThree = momentNow();
        acquire(raw, name, kOwnerB, "600000");
        QVERIFY(m_cli.recorded(db, name, 7));
        raw.command({ "PEXPIRE", name, "1" }); // its lease ran out
        QVERIFY(m_cli.recordedEvent(db, name, QStringLiteral("expired")));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));

        const auto lockOf = [&](const QList<QJsonObject> &report) {
            for (const QJsonValue &l : report.value(0).value(QStringLiteral("locks")).toArray())
                if (l.toObject().value(QStringLiteral("name")).toString() == QString::fromUtf8(name))
                    return l.toObject();
            return QJsonObject();
        };
        const QList<QJsonObject> all = m_cli.ask({ QStringLiteral("stats"), QStringLiteral("--db"), db,
            QStringLiteral("--pattern"), QString::fromUtf8(p + "*") });
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.first().value(QStringLiteral("mode")).toString(), QStringLiteral("recording"));
        QJsonObject l = lockOf(all);
        QCOMPARE(l.value(QStringLiteral("acquisitions")).toInt(), 4);
        QCOMPARE(l.value(QStringLiteral("releases")).toInt(), 3);
        QCOMPARE(l.value(QStringLiteral("expiries")).toInt(), 1);
        QCOMPARE(l.value(QStringLiteral("hold_ms")).toObject().value(QStringLiteral("samples")).toInt(), 4);
        // The window before the fourth hold: three holds, none expired.
        l = lockOf(m_cli.ask({ QStringLiteral("stats"), QStringLiteral("--db"), db, QStringLiteral("--until"),
            ms(afterThree), QStringLiteral("--pattern"), QString::fromUtf8(p + "*") }));
        QCOMPARE(l.value(QStringLiteral("acquisitions")).toInt(), 3);
        QCOMPARE(l.value(QStringLiteral("expiries")).toInt(), 0);
        const CliRun text = runCli({ QStringLiteral("stats"), QStringLiteral("--db"), db }, m_dir);
        CLI_EXIT(text, CliExit::Done);
        QVERIFY2(text.out.contains(name) && text.out.contains("recording "), text.describe().constData());
    }

    // advise on a recording whose night is known exactly (rows written as a recorder writes them): a fixed lease
    // the work outgrows, a watchdog that paused, clients of one lock on different timeouts, a hold far past usual.
    void adviseNamesWhatToChange()
    {
        const QString db = m_dir.filePath(QStringLiteral("advise.sqlite"));
        const QByteArray server = "redis://127.0.0.1:1/0";
        const QByteArray a = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", x = "0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6:7",
                         y = "9a9b9c9d-1b2d-4c5e-8f90-a1b2c3d4e5f6:8";
        QList<RecordedEvent> rows;
        const auto add = [&](qint64 t, const char *type, const QByteArray &name, const QByteArray &owner, qint64 ttl) {
            rows << RecordedEvent { t, server, type, name, owner, {}, QByteArray(type) == "released" ? 0 : 1, ttl, -1,
                "reentrant", "redisson", {} };
        };
        const qint64 t0 = 1764300000000;
        qint64 t = t0;
        for (int i = 0; i < 10; ++i) { // a 3 s lease; two holds of ten outlive two thirds of it
            add(t, "acquired", "fixed", a, 3000);
            add(t + (i < 8 ? 1000 : 2500), "released", "fixed", a, -2);
            t += 5000;
        }
        t = t0;
        add(t, "acquired", "wd", x, 30000); // x renews every 10 s, then pauses 30 s
        for (const qint64 at : { 10000, 20000, 30000, 40000, 50000, 80000, 90000 })
            add(t + at, "renewed", "wd", x, 30000);
        add(t + 95000, "released", "wd", x, -2);
        add(t + 100000, "acquired", "wd", y, 60000); // y renews every 20 s: a 60 s lockWatchdogTimeout
        for (const qint64 at : { 120000, 140000, 160000 })
            add(t + at, "renewed", "wd", y, 60000);
        add(t + 170000, "released", "wd", y, -2);
        for (int i = 0; i < 20; ++i) { // one-second holds, then one of five minutes
            add(t0 + i * 2000, "acquired", "long", a, 30000);
            add(t0 + i * 2000 + 1000, "released", "long", a, -2);
        }
        add(t0 + 100000, "acquired", "long", a, 600000);
        add(t0 + 400000, "released", "long", a, -2);
        // Watchdog locks, no fixed lease among them: two readers of one read-write lock, whose key's renewals name the
        // first (the second's 25 s hold of a 30 s lease was renewed all the same); a hold that ended before its first
        // renewal; a holder whose client stopped and whose lease ran out.
        add(t0, "acquired", "rw", x, 30000);
        add(t0 + 1000, "acquired", "rw", y, 30000);
        for (const qint64 at : { 10000, 20000 })
            add(t0 + at, "renewed", "rw", x, 30000);
        add(t0 + 26000, "released", "rw", y, -2);
        add(t0 + 27000, "released", "rw", x, -2);
        add(t0, "acquired", "wd-short", x, 30000);
        add(t0 + 2000, "released", "wd-short", x, -2);
        add(t0 + 3000, "acquired", "wd-short", x, 30000);
        add(t0 + 13000, "renewed", "wd-short", x, 30000);
        add(t0 + 15000, "released", "wd-short", x, -2);
        add(t0, "acquired", "crashed", y, 30000);
        for (const qint64 at : { 10000, 20000, 30000 })
            add(t0 + at, "renewed", "crashed", y, 30000);
        add(t0 + 60000, "expired", "crashed", y, -2);
        std::sort(rows.begin(), rows.end(),
            [](const RecordedEvent &l, const RecordedEvent &r) { return l.timeMs < r.timeMs; });
        {
            RecordingStore store;
            QString error;
            QVERIFY2(store.open(db, true, &error), qPrintable(error));
            QVERIFY2(store.append(rows, &error), qPrintable(error));
        }
        QHash<QString, QJsonObject> byName;
        for (const QJsonObject &o : m_cli.ask({ QStringLiteral("advise"), QStringLiteral("--db"), db }))
            byName.insert(o.value(QStringLiteral("name")).toString(), o);
        const auto codes = [&](const QString &name) {
            QStringList all;
            for (const QJsonValue &v : byName.value(name).value(QStringLiteral("verdicts")).toArray())
                all << v.toObject().value(QStringLiteral("code")).toString();
            return all;
        };
        QCOMPARE(byName.size(), 6);
        for (const char *watchdog : { "rw", "wd-short", "crashed" }) {
            QVERIFY2(codes(QLatin1String(watchdog)).isEmpty(), watchdog);
            QVERIFY(byName.value(QLatin1String(watchdog)).value(QStringLiteral("watchdog")).toBool());
        }
        QCOMPARE(byName.value(QStringLiteral("crashed")).value(QStringLiteral("expiries")).toInt(), 1);
        QCOMPARE(codes(QStringLiteral("fixed")), QStringList { QStringLiteral("lease-too-short") });
        QCOMPARE(byName.value(QStringLiteral("fixed")).value(QStringLiteral("past_two_thirds")).toDouble(), 0.2);
        QCOMPARE(codes(QStringLiteral("wd")),
            (QStringList { QStringLiteral("renewal-gap"), QStringLiteral("mixed-timeouts") }));
        const QJsonArray clients = byName.value(QStringLiteral("wd")).value(QStringLiteral("clients")).toArray();
        QCOMPARE(clients.size(), 2);
        for (const QJsonValue &c : clients) {
            const QJsonObject o = c.toObject();
            const bool isX = o.value(QStringLiteral("client")).toString() == QString::fromUtf8(x.left(36));
            QCOMPARE(o.value(QStringLiteral("inferred_watchdog_timeout_ms")).toInteger(), isX ? 30000 : 60000);
            if (isX)
                QCOMPARE(
                    o.value(QStringLiteral("longest_gap")).toObject().value(QStringLiteral("ms")).toInteger(), 30000);
        }
        QCOMPARE(codes(QStringLiteral("long")), QStringList { QStringLiteral("long-hold") });
        const CliRun text = runCli({ QStringLiteral("advise"), QStringLiteral("--db"), db }, m_dir);
        CLI_EXIT(text, CliExit::Done);
        QVERIFY2(text.out.contains("lease too short: 20 % of holds passed"), text.describe().constData());
    }

    // The messages people paste: each library's own words, with the holder, the lock and the time they carry.
    void explainKnowsTheLibrariesMessages()
    {
        ExplainRequest r;
        QVERIFY(ExplainRequest::parse(
            QStringLiteral("2026-11-26 03:12:15,123 ERROR [pool-3-thread-7] o.e.Orders - unlock failed\n"
                           "java.lang.IllegalMonitorStateException: attempt to unlock lock, not locked by current "
                           "thread by node id: 2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901 thread-id: 93\n\tat "
                           "org.redisson.RedissonBaseLock.lambda$unlockAsync0$2(RedissonBaseLock.java:292)"),
            &r));
        QCOMPARE(r.owner, QByteArray("2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901:93"));
        QCOMPARE(r.library, QByteArray("redisson"));
        QVERIFY(r.unlockFailed);
        QCOMPARE(r.aroundMs, QDateTime(QDate(2026, 11, 26), QTime(3, 12, 15, 123)).toMSecsSinceEpoch());
        r = {};
        QVERIFY(ExplainRequest::parse(QStringLiteral("IllegalMonitorStateException: attempt to unlock read lock, not "
                                                     "locked by current thread by node id: "
                                                     "2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901 thread-id: 1"),
            &r));
        QCOMPARE(r.owner, QByteArray("2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901:1"));
        r = {};
        QVERIFY(ExplainRequest::parse(
            QStringLiteral("redis_lock.NotAcquired: Lock lock:report is not acquired or it already expired."), &r));
        QCOMPARE(r.lock, QByteArray("lock:report"));
        QCOMPARE(r.library, QByteArray("python-redis-lock"));
        r = {};
        QVERIFY(ExplainRequest::parse(
            QStringLiteral("[2026-11-26T03:12:15Z] redbeat: redis.exceptions.LockNotOwnedError: Cannot extend a lock "
                           "that's no longer owned"),
            &r));
        QCOMPARE(r.lock, QByteArray("redbeat::lock"));
        QCOMPARE(r.aroundMs, QDateTime(QDate(2026, 11, 26), QTime(3, 12, 15), Qt::UTC).toMSecsSinceEpoch());
        r = {};
        QVERIFY(ExplainRequest::parse(QStringLiteral("redis.exceptions.LockNotOwnedError: Cannot release a lock that's "
                                                     "no longer owned"),
            &r));
        QCOMPARE(r.library, QByteArray("redis-py"));
        QVERIFY(r.lock.isEmpty());
        r = {};
        QVERIFY(ExplainRequest::parse(
            QStringLiteral("2026-11-26T03:12:15+08:00 unlock: redsync: failed to unlock, lock was already expired"),
            &r));
        QCOMPARE(r.library, QByteArray("redsync"));
        QCOMPARE(r.aroundMs, QDateTime(QDate(2026, 11, 25), QTime(19, 12, 15), Qt::UTC).toMSecsSinceEpoch());
        r = {};
        QVERIFY(ExplainRequest::parse(QStringLiteral("Can't update lock orders:42 expiration"), &r));
        QCOMPARE(r.lock, QByteArray("orders:42"));
        r = {};
        QVERIFY(!ExplainRequest::parse(QStringLiteral("java.lang.NullPointerException at Foo.bar"), &r));

        // A question about something that is no recording: refused, and nothing is written to it.
        for (const QString &path : { QStringLiteral("/dev/null"), m_dir.filePath(QStringLiteral("empty.sqlite")) }) {
            if (!path.startsWith(QLatin1Char('/') + QStringLiteral("dev"))) {
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly));
            }
            const CliRun refused = runCli({ QStringLiteral("advise"), QStringLiteral("--db"), path }, m_dir);
            CLI_EXIT(refused, CliExit::Usage);
            QVERIFY2(refused.err.contains("not a LockScope recording"), refused.describe().constData());
            QCOMPARE(QFileInfo(path).size(), 0);
        }

        // Not a message it knows, and nothing else to go on: a usage error, nothing read.
        const CliRun unknown = runCli({ QStringLiteral("explain"), QStringLiteral("something else went wrong"),
                                          QStringLiteral("--db"), m_dir.filePath(QStringLiteral("none.sqlite")) },
            m_dir);
        CLI_EXIT(unknown, CliExit::Usage);
    }
};

QTEST_GUILESS_MAIN(TestRecordingQuestions)
#include "tst_recordingquestions.moc"
