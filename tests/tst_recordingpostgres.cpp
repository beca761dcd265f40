// The flight recorder into PostgreSQL (docs/recording.md#postgresql): the store answers every question as the SQLite
// file answers it (the same rows through one helper, compared row for row, binary names and owners included); a
// database that is not a recording, or one of a newer schema, is refused and left as it is; a URL nobody answers at
// is said without its password; and two recorders, each on its own Redis, write one history that history and at read
// back with each server's own rows. Real PostgreSQL (initdb into a temporary directory), real redis-servers, real
// lockscope-cli processes.
#include "postgresserver.h"
#include "rawredis.h"
#include "recordingcli.h"
#include "redisserver.h"
#include "statsworkload.h"
#include "testutil.h"

#include "recording/recordingstore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kServerA = "redis://10.0.0.1:6379/0";
const QByteArray kServerB = "redis://10.0.0.2:6379/0";

RecordedEvent row(qint64 ts, const QByteArray &server, const QByteArray &type, const QByteArray &name,
    const QByteArray &owner, const QByteArray &previous = {})
{
    return RecordedEvent { ts, server, type, name, owner, previous, type == "released" ? 0 : 1, 30000, -1, "reentrant",
        "redisson", {} };
}

// The timeline both stores are given: two servers, names and owners that are no text (a NUL, bytes that are no UTF-8),
// an owner change, a client's threads, a gap.
QList<RecordedEvent> timeline()
{
    const QByteArray nul("orders:\0:7", 10), raw("\xff\xfe\x80lock", 7), owner("c1:\0\xff", 6);
    QList<RecordedEvent> all {
        row(1000, kServerA, "acquired", nul, "c1:1"),
        row(1100, kServerA, "acquired", raw, owner),
        row(1200, kServerB, "acquired", "jobs:1", "c2:5"),
        row(1300, kServerA, "renewed", nul, "c1:1"),
        row(1400, kServerA, "owner-changed", raw, "c1:2", owner),
        row(1500, kServerB, "acquired", "jobs:2", "c1:3"),
        row(1600, kServerA, "released", nul, "c1:1"),
        row(1700, kServerB, "released", "jobs:1", "c2:5"),
        row(1800, kServerA, "acquired", nul, "c10:1"),
    };
    RecordedEvent gap;
    gap.timeMs = 1650;
    gap.server = kServerB;
    gap.type = "gap-start";
    gap.detail = QStringLiteral("connection reset");
    all.insert(7, gap);
    gap.timeMs = 1690;
    gap.type = "gap-end";
    gap.detail = QStringLiteral("40");
    all.insert(8, gap);
    all[2].detail = QStringLiteral("détail ünïcode");
    return all;
}

QList<EventQuery> questions()
{
    QList<EventQuery> all;
    const auto add = [&all](auto &&set) {
        EventQuery q;
        set(q);
        all << q;
    };
    add([](EventQuery &) {});
    add([](EventQuery &q) { q.name = QByteArray("orders:\0:7", 10); });
    add([](EventQuery &q) {
        q.name = QByteArray("orders:\0:7", 10);
        q.withGaps = true;
    });
    add([](EventQuery &q) { q.name = QByteArray("\xff\xfe\x80lock", 7); });
    add([](EventQuery &q) { q.owner = QByteArray("c1:\0\xff", 6); });
    add([](EventQuery &q) {
        q.owner = "c1";
        q.ownerPrefix = true;
    });
    add([](EventQuery &q) { q.server = kServerB; });
    add([](EventQuery &q) { q.types = { "acquired", "gap-start" }; });
    add([](EventQuery &q) {
        q.sinceMs = 1200;
        q.untilMs = 1600;
    });
    add([](EventQuery &q) {
        q.name = QByteArray("orders:\0:7", 10);
        q.sinceMs = 1100;
        q.untilMs = 1700;
    });
    add([](EventQuery &q) {
        q.newestFirst = true;
        q.limit = 3;
    });
    add([](EventQuery &q) {
        q.server = kServerA;
        q.types = { "acquired" };
        q.newestFirst = true;
        q.limit = 1;
    });
    return all;
}

QString describe(const RecordedEvent &e)
{
    return QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12")
        .arg(e.timeMs)
        .arg(QString::fromUtf8(e.server), QString::fromLatin1(e.type), QString::fromLatin1(e.name.toHex()),
            QString::fromLatin1(e.owner.toHex()), QString::fromLatin1(e.previousOwner.toHex()))
        .arg(e.count)
        .arg(e.ttlMs)
        .arg(e.lateMs)
        .arg(QString::fromLatin1(e.kind), QString::fromUtf8(e.library), e.detail);
}

QStringList described(const QList<RecordedEvent> &events)
{
    QStringList out;
    for (const RecordedEvent &e : events)
        out << describe(e);
    return out;
}

QStringList described(const QList<RecordedSnapshot> &snapshots)
{
    QStringList out;
    for (const RecordedSnapshot &s : snapshots) {
        out << QStringLiteral("%1 at %2").arg(QString::fromUtf8(s.server)).arg(s.timeMs);
        for (const RecordedHolding &h : s.holdings)
            out << QStringLiteral("  %1 %2 %3 %4 %5 %6")
                       .arg(QString::fromLatin1(h.name.toHex()), QString::fromLatin1(h.owner.toHex()))
                       .arg(h.count)
                       .arg(h.ttlMs)
                       .arg(QString::fromLatin1(h.kind), QString::fromUtf8(h.library));
    }
    return out;
}

// Everything a store answers about the timeline, in one list of lines: two stores given the same rows must give the
// same lines.
QStringList answers(RecordingStore &store)
{
    QString error;
    QStringList out;
    if (!store.append(timeline(), &error))
        return { QStringLiteral("append: ") + error };
    for (const qint64 t : { 900LL, 1250LL, 1900LL }) {
        RecordedSnapshot s;
        s.server = t == 1250 ? kServerB : kServerA;
        s.timeMs = t;
        s.holdings << RecordedHolding { QByteArray("orders:\0:7", 10), "c1:1", 1, 29000, "reentrant", "redisson" };
        s.holdings << RecordedHolding { QByteArray("\xff\xfe\x80lock", 7), {}, 0, -1, "count-down-latch", "redisson" };
        if (!store.appendSnapshot(s, &error))
            return { QStringLiteral("snapshot: ") + error };
        // A second table at the same moment replaces the first's mark (the recorder's snapshot after a reconnect).
        if (t == 1900 && !store.appendSnapshot(s, &error))
            return { QStringLiteral("snapshot again: ") + error };
    }
    int i = 0;
    for (const EventQuery &q : questions()) {
        out << QStringLiteral("question %1").arg(i++);
        out << described(store.events(q, &error));
        if (!error.isEmpty())
            return out << error;
    }
    out << QStringLiteral("history") << described(store.history(QByteArray("orders:\0:7", 10), 1000, 1700, &error));
    for (const qint64 t : { 800LL, 1000LL, 1300LL, 2000LL })
        out << QStringLiteral("at %1").arg(t) << described(store.snapshotsAt(t, &error));
    out << QStringLiteral("servers");
    for (const QByteArray &s : store.servers())
        out << QString::fromUtf8(s);
    out << QStringLiteral("count %1, %2 to %3")
               .arg(store.eventCount())
               .arg(store.firstTimeMs())
               .arg(store.lastTimeMs());
    out << QStringLiteral("pruned %1").arg(store.prune(2000, 500, -1, &error)); // what is older than 1500
    out << described(store.events({}, &error)) << described(store.snapshotsAt(2000, &error));
    out << QStringLiteral("count %1, %2 to %3")
               .arg(store.eventCount())
               .arg(store.firstTimeMs())
               .arg(store.lastTimeMs());
    if (!error.isEmpty())
        out << error;
    return out;
}

quint16 closedPort()
{
    QTcpServer s;
    return s.listen(QHostAddress::LocalHost, 0) ? s.serverPort() : 0;
}
} // namespace

class TestRecordingPostgres : public QObject
{
    Q_OBJECT
    PostgresServer m_postgres;
    QTemporaryDir m_dir;

    QString freshDatabase()
    {
        QString error;
        const QString name = m_postgres.createDatabase(&error);
        [&] { QVERIFY2(!name.isEmpty(), qPrintable(error)); }();
        return m_postgres.url(name);
    }
    QByteArray psql(const QString &url, const QString &sql)
    {
        QString error;
        const QByteArray out = m_postgres.psql(url.section(QLatin1Char('/'), -1), sql, &error);
        [&] { QVERIFY2(error.isEmpty(), qPrintable(error)); }();
        return out.trimmed();
    }

private slots:
    void initTestCase()
    {
        if (PostgresServer::binDir().isEmpty()) {
            if (PostgresServer::required())
                QFAIL("PostgreSQL is not installed and LOCKSCOPE_REQUIRE_POSTGRES is set (Debian: postgresql)");
            QSKIP("PostgreSQL is not installed (Debian: postgresql); LOCKSCOPE_REQUIRE_POSTGRES=1 fails instead");
        }
        QString error;
        QVERIFY2(m_postgres.start(&error), qPrintable(error));
    }

    // The same rows in an SQLite file and in PostgreSQL: every question gets the same answer from both.
    void answersAsTheSqliteFileDoes()
    {
        RecordingStore sqlite, postgres;
        QString error;
        QVERIFY2(sqlite.open(m_dir.filePath(QStringLiteral("same.sqlite")), true, &error), qPrintable(error));
        const QString url = freshDatabase();
        QVERIFY2(postgres.open(url, true, &error), qPrintable(error));
        QCOMPARE(postgres.fileVersion(), RecordingStore::schemaVersion());
        const QStringList expected = answers(sqlite);
        QVERIFY(expected.size() > 60); // the questions have answers to compare
        QCOMPARE(answers(postgres), expected);
        // The bytes are stored as they are, not as text.
        QCOMPARE(psql(url,
                     QStringLiteral("SELECT encode(name, 'hex') || ' ' || encode(owner, 'hex') FROM events "
                                    "WHERE ts = 1800")),
            QByteArray("6f72646572733a003a37 6331303a31"));
    }

    // A cap on the size takes the oldest rows until the rows left fit, though PostgreSQL keeps the space they took:
    // the next round finds them fitting and takes nothing more.
    void aSizeCapTakesTheOldest()
    {
        RecordingStore store;
        QString error;
        QVERIFY2(store.open(freshDatabase(), true, &error), qPrintable(error));
        QList<RecordedEvent> rows;
        for (int i = 0; i < 20000; ++i)
            rows << RecordedEvent { 1000 + i, kServerA, "renewed", "lock:a", "owner", {}, 1, 30000, -1, "reentrant",
                "redisson", QStringLiteral("a detail that takes some room on its page") };
        QVERIFY2(store.append(rows, &error), qPrintable(error));
        const qint64 size = store.dataBytes();
        const qint64 cap = size / 2;
        QVERIFY(cap > 0);
        const qint64 removed = store.prune(100000, -1, cap, &error);
        QVERIFY2(removed > 0, qPrintable(error));
        // About half, not everything (the tables' size stays where it was).
        QVERIFY2(store.eventCount() >= 20000 / 4 && store.eventCount() <= 20000 * 3 / 4,
            qPrintable(QString::number(store.eventCount())));
        QCOMPARE(store.lastTimeMs(), 1000 + 19999);
        QCOMPARE(store.prune(100000, -1, cap, &error), 0);
        QVERIFY(store.dataBytes() >= size / 2);
    }

    // The server restarted under a recorder: the next batch is written on a new connection, not lost.
    void aRestartedServerIsConnectedAgain()
    {
        RecordingStore store;
        QString error;
        const QString url = freshDatabase();
        QVERIFY2(store.open(url, true, &error), qPrintable(error));
        QVERIFY2(store.append({ row(1000, kServerA, "acquired", "lock:r", "c1:1") }, &error), qPrintable(error));
        QVERIFY2(m_postgres.restart(&error), qPrintable(error));
        QVERIFY2(store.append({ row(2000, kServerA, "released", "lock:r", "c1:1") }, &error), qPrintable(error));
        RecordedSnapshot s;
        s.server = kServerA;
        s.timeMs = 2000;
        QVERIFY2(m_postgres.restart(&error), qPrintable(error));
        QVERIFY2(store.appendSnapshot(s, &error), qPrintable(error));
        QCOMPARE(psql(url, QStringLiteral("SELECT string_agg(type, ',' ORDER BY ts) FROM events")),
            QByteArray("acquired,released"));
    }

    // Another program's events table: refused, by the store and by lockscope-cli record, and left as it was.
    void anotherProgramsDatabaseIsRefused()
    {
        const QString url = freshDatabase();
        psql(url, QStringLiteral("CREATE TABLE events (id serial, what text); INSERT INTO events (what) VALUES ('x')"));
        {
            RecordingStore store;
            QString error;
            QVERIFY(!store.open(url, true, &error));
            QVERIFY2(error.contains(QLatin1String("not a LockScope recording")), qPrintable(error));
        }
        RedisServer redis;
        QString error;
        QVERIFY2(redis.start(&error), qPrintable(error));
        QProcess recorder;
        startCli(recorder,
            { QStringLiteral("record"), QStringLiteral("--db"), url, QStringLiteral("--url"), redis.url() }, m_dir);
        const CliRun r = finishCli(recorder, 30000);
        QVERIFY2(r.exitCode == CliExit::Usage, r.describe().constData());
        QVERIFY2(r.err.contains("not a LockScope recording"), r.describe().constData());
        QCOMPARE(psql(url, QStringLiteral("SELECT to_regclass('lockscope_meta') IS NULL")), QByteArray("t"));
        QCOMPARE(psql(url,
                     QStringLiteral("SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM "
                                    "information_schema.columns WHERE table_name = 'events'")),
            QByteArray("id,what"));
        QCOMPARE(psql(url, QStringLiteral("SELECT what FROM events")), QByteArray("x"));
        // Nor is a database without anything of ours a recording to read.
        const QString empty = freshDatabase();
        RecordingStore reader;
        QVERIFY(!reader.open(empty, false, &error));
        QVERIFY2(error.contains(QLatin1String("no such recording")), qPrintable(error));
        QCOMPARE(psql(empty, QStringLiteral("SELECT to_regclass('lockscope_meta') IS NULL")), QByteArray("t"));
    }

    // Marked as LockScope's, but by a newer schema, or marked by somebody else: refused, nothing written.
    void aNewerOrForeignMarkIsRefused()
    {
        for (const auto &[key, value, says] : { std::tuple { "user_version", "99", "newer LockScope" },
                 std::tuple { "application_id", "1", "not a LockScope recording" } }) {
            const QString url = freshDatabase();
            {
                RecordingStore store;
                QString error;
                QVERIFY2(store.open(url, true, &error), qPrintable(error));
            }
            psql(url,
                QStringLiteral("UPDATE lockscope_meta SET value = %1 WHERE key = '%2'")
                    .arg(QString::fromLatin1(value), QString::fromLatin1(key)));
            for (const bool create : { true, false }) {
                RecordingStore store;
                QString error;
                QVERIFY(!store.open(url, create, &error));
                QVERIFY2(error.contains(QLatin1String(says)), qPrintable(error));
            }
            QCOMPARE(
                psql(url,
                    QStringLiteral("SELECT value FROM lockscope_meta WHERE key = '%1'").arg(QString::fromLatin1(key))),
                QByteArray(value));
            QCOMPARE(psql(url, QStringLiteral("SELECT count(*) FROM events")), QByteArray("0"));
        }
    }

    // Nobody at the address: said at once, with the URL but never its password.
    void anUnreachableServerIsSaidWithoutItsPassword()
    {
        const QString url = QStringLiteral("postgresql://lockscope:s3cr3t-pw@127.0.0.1:%1/history").arg(closedPort());
        RecordingStore store;
        QString error;
        QVERIFY(!store.open(url, true, &error));
        QVERIFY2(error.contains(QLatin1String("127.0.0.1")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1String("s3cr3t-pw")), qPrintable(error));
        const CliRun r = runCli({ QStringLiteral("history"), QStringLiteral("x"), QStringLiteral("--db"), url }, m_dir);
        QVERIFY2(r.exitCode == CliExit::Usage, r.describe().constData());
        QVERIFY2(r.err.contains("127.0.0.1") && !r.err.contains("s3cr3t-pw") && !r.out.contains("s3cr3t-pw"),
            r.describe().constData());
    }

    // Two recorders, each on its own Redis, started together on one empty database: one history, each lock's rows
    // naming the server they happened on, and at tells both servers' holders.
    void twoRecordersWriteOneHistory()
    {
        const RedisServerOptions notify { { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } };
        RedisServer first(notify), second(notify);
        QString error;
        QVERIFY2(first.start(&error), qPrintable(error));
        QVERIFY2(second.start(&error), qPrintable(error));
        const QString url = freshDatabase();
        const QByteArray p = uniqueKey("pg");
        const QByteArray one = p + ":one", two = p + ":two";
        QProcess a, b;
        for (const auto &[process, server] : { std::pair { &a, &first }, std::pair { &b, &second } })
            startCli(*process,
                { QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("--db"), url,
                    QStringLiteral("--pattern"), QString::fromUtf8(p + "*"), QStringLiteral("--url"), server->url() },
                m_dir);
        waitForStatus(a, "watching");
        waitForStatus(b, "watching");
        RawRedis rawOne(first.port()), rawTwo(second.port());
        acquire(rawOne, one, kOwnerA, "600000");
        acquire(rawTwo, two, kOwnerB, "600000");
        RecordingCli cliOne(first, m_dir), cliTwo(second, m_dir);
        QVERIFY(cliOne.recordedEvent(url, one, QStringLiteral("acquired")));
        QVERIFY(cliTwo.recordedEvent(url, two, QStringLiteral("acquired")));
        release(rawOne, one, kOwnerA);
        QVERIFY(cliOne.recordedEvent(url, one, QStringLiteral("released")));
        for (QProcess *process : { &a, &b }) {
            process->terminate();
            QVERIFY(process->waitForFinished(30000));
            QCOMPARE(process->exitCode(), 0);
        }

        const QString atFirst = QStringLiteral(":%1").arg(first.port()),
                      atSecond = QStringLiteral(":%1").arg(second.port());
        const QList<QJsonObject> h1 = cliOne.history(url, one), h2 = cliTwo.history(url, two);
        QCOMPARE(eventsOf(h1), (QStringList { QStringLiteral("acquired"), QStringLiteral("released") }));
        QCOMPARE(eventsOf(h2), QStringList { QStringLiteral("acquired") });
        for (const QJsonObject &o : h1)
            QVERIFY2(o.value(QStringLiteral("server")).toString().contains(atFirst),
                qPrintable(o.value(QStringLiteral("server")).toString()));
        QVERIFY2(h2.first().value(QStringLiteral("server")).toString().contains(atSecond),
            qPrintable(h2.first().value(QStringLiteral("server")).toString()));
        QCOMPARE(h2.first().value(QStringLiteral("owner")).toString(), QString::fromUtf8(kOwnerB));

        // Now: the second server's lock held, the first's free; each server's table of its own.
        QStringList servers;
        QMap<QString, QStringList> holders;
        for (const QJsonObject &o :
            cliOne.ask({ QStringLiteral("at"), QStringLiteral("now"), QStringLiteral("--db"), url })) {
            servers << o.value(QStringLiteral("server")).toString();
            for (const QJsonValue &h : o.value(QStringLiteral("holders")).toArray())
                holders[o.value(QStringLiteral("name")).toString()]
                    << h.toObject().value(QStringLiteral("owner")).toString();
        }
        QCOMPARE(holders.value(QString::fromUtf8(two)), QStringList { QString::fromUtf8(kOwnerB) });
        QVERIFY(holders.value(QString::fromUtf8(one)).isEmpty());
        QVERIFY2(servers.filter(atSecond).size() >= 1, qPrintable(servers.join(QLatin1Char(' '))));
        // The whole timeline exported: both servers' rows, in one stream.
        QStringList exported;
        for (const QJsonObject &o : cliOne.ask({ QStringLiteral("export"), QStringLiteral("--db"), url }))
            exported << o.value(QStringLiteral("server")).toString();
        QVERIFY2(!exported.filter(atFirst).isEmpty() && !exported.filter(atSecond).isEmpty(),
            qPrintable(exported.join(QLatin1Char(' '))));
        // Both servers' recorders kept their tables: the store names both.
        RecordingStore store;
        QVERIFY2(store.open(url, false, &error), qPrintable(error));
        const QList<QByteArray> recorded = store.servers();
        QCOMPARE(recorded.size(), 2);
        QVERIFY(QString::fromUtf8(recorded.join(' ')).contains(atFirst));
        QVERIFY(QString::fromUtf8(recorded.join(' ')).contains(atSecond));
        rawTwo.command({ "DEL", two });
    }
};

QTEST_GUILESS_MAIN(TestRecordingPostgres)
#include "tst_recordingpostgres.moc"
