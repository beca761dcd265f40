// Home-grown locks read through owner templates (issue 49 point 4): a team's own scheme declared per key pattern
// gets holders, ages and liveness evidence (its heartbeat), and a release that compares and deletes exactly the value
// that was read. The template language itself on values built by hand, then three real-world schemes on a real
// server through the CLI (docs/protocol/templates.md).
#include "clirun.h"
#include "kinds/custom/ownertemplate.h"
#include "kinds/lockclassifier.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
OwnerTemplate parsed(const QByteArray &entry)
{
    QString error;
    const std::optional<OwnerTemplate> t = OwnerTemplate::parse(entry, &error);
    if (!t)
        QTest::qFail(qPrintable(error), __FILE__, __LINE__);
    return t.value_or(OwnerTemplate {});
}

QJsonObject firstHolder(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object().value(QStringLiteral("holders")).toArray().first().toObject();
}
} // namespace

class TestOwnerTemplates : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void readsJsonValues()
    {
        const OwnerTemplate t = parsed(
            "jobs:lock:*=json:$.actor,run=$.runId,host=$.meta.host,pid=$.meta.pid,since=$.since,heartbeat=hb:{run}");
        const std::optional<OwnerReading> r = t.read(
            R"({"actor":"scheduler","runId":"r-42","since":"2026-11-26T03:12:00Z","meta":{"host":"worker-7","pid":4242}})");
        QVERIFY(r);
        QCOMPARE(r->owner, QByteArray("scheduler"));
        QCOMPARE(r->run, QByteArray("r-42"));
        QCOMPARE(r->host, QByteArray("worker-7"));
        QCOMPARE(r->pid, 4242);
        QCOMPARE(
            r->sinceMs, QDateTime::fromString(QStringLiteral("2026-11-26T03:12:00Z"), Qt::ISODate).toMSecsSinceEpoch());
        QCOMPARE(t.heartbeatKey("jobs:lock:nightly", *r), QByteArray("hb:r-42"));
        // Not its shape: no owner is read, and nothing is guessed.
        QVERIFY(!t.read("not json"));
        QVERIFY(!t.read(R"({"runId":"r-42"})"));
    }

    void readsTimes()
    {
        const qint64 at
            = QDateTime::fromString(QStringLiteral("2026-11-26T03:12:00Z"), Qt::ISODate).toMSecsSinceEpoch();
        QCOMPARE(parseLockTime("2026-11-26T03:12:00Z"), at);
        QCOMPARE(parseLockTime("2026-11-26T03:12:00.000Z"), at);
        QCOMPARE(parseLockTime(QByteArray::number(at / 1000)), at);
        QCOMPARE(parseLockTime(QByteArray::number(at)), at);
        QCOMPARE(parseLockTime("1"), 0); // a flag, not a time
        QCOMPARE(parseLockTime("soon"), 0);
    }

    void readsRegexValues()
    {
        // A comma inside the pattern: the regex takes the rest of the spec.
        const OwnerTemplate t
            = parsed("imports:*=heartbeat=hb:{owner},regex:^ADDED:(?<owner>[^@]+)@(?<host>[^,]+),(?<since>\\d+)$");
        const std::optional<OwnerReading> r = t.read("ADDED:4f1c9e2a@worker-3,1795000000");
        QVERIFY(r);
        QCOMPARE(r->owner, QByteArray("4f1c9e2a"));
        QCOMPARE(r->host, QByteArray("worker-3"));
        QCOMPARE(r->sinceMs, qint64(1795000000) * 1000); // epoch seconds
        QCOMPARE(t.heartbeatKey("imports:a", *r), QByteArray("hb:4f1c9e2a"));
        QVERIFY(!t.read("REMOVED:4f1c9e2a@worker-3,1"));
    }

    void refusesWhatItCannotRead_data()
    {
        QTest::addColumn<QByteArray>("entry");
        QTest::addColumn<QString>("said");
        QTest::newRow("no glob") << QByteArray("json:$.a") << "GLOB=SPEC";
        QTest::newRow("no source") << QByteArray("a:*=host=$.h") << "where the owner is";
        QTest::newRow("bad path") << QByteArray("a:*=json:actor") << "where the owner is";
        QTest::newRow("unknown item") << QByteArray("a:*=value,colour=red") << "unknown item";
        QTest::newRow("path outside json") << QByteArray("a:*=value,host=$.h") << "JSON path";
        QTest::newRow("regex without owner") << QByteArray("a:*=regex:^(?<host>.*)$") << "group named owner";
        QTest::newRow("bad regex") << QByteArray("a:*=regex:(") << "does not compile";
        QTest::newRow("bad age") << QByteArray("a:*=value,heartbeat=h,heartbeat-age=soon") << "seconds";
        QTest::newRow("queue without format") << QByteArray("a:*=value,queue=q:{name}") << "KEY:value";
    }
    void refusesWhatItCannotRead()
    {
        QFETCH(QByteArray, entry);
        QFETCH(QString, said);
        QString error;
        QVERIFY(!OwnerTemplate::parse(entry, &error));
        QVERIFY2(error.contains(said), qPrintable(error));
        // The CLI says the same, and does nothing else.
        const CliRun r = cli({ QStringLiteral("list"), QStringLiteral("--owner-template"), QString::fromUtf8(entry) });
        QCOMPARE(r.exitCode, CliExit::Usage);
        QVERIFY2(r.err.contains(said.toUtf8()), r.err.constData());
    }

    // Example 1 (docs/protocol/templates.md): a JSON value {actor, runId, since, host, pid} and a heartbeat key per
    // run that its holder refreshes with a TTL.
    void jsonLockWithHeartbeat()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("tpl-json");
        const QByteArray name = p + ":lock:nightly";
        const QByteArray value
            = R"({"actor":"scheduler","runId":"r-42","since":"2026-11-26T03:12:00Z","host":"worker-7","pid":4242})";
        raw.command({ "SET", name, value, "EX", "600" });
        raw.command({ "SET", p + ":hb:r-42", "1", "EX", "600" });
        const QStringList tpl { QStringLiteral("--owner-template"),
            QString::fromUtf8(p)
                + QStringLiteral(":lock:*=json:$.actor,run=$.runId,since=$.since,host=$.host,pid=$.pid,"
                                 "heartbeat=")
                + QString::fromUtf8(p) + QStringLiteral(":hb:{run}") };

        CliRun r = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--json") } + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        const QJsonObject lock = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("custom"));
        QJsonObject h = firstHolder(r.out);
        QCOMPARE(h.value(QStringLiteral("client")).toString(), QStringLiteral("scheduler"));
        QCOMPARE(h.value(QStringLiteral("thread")).toString(), QStringLiteral("r-42"));
        QCOMPARE(h.value(QStringLiteral("host")).toString(), QStringLiteral("worker-7"));
        QCOMPARE(h.value(QStringLiteral("pid")).toInt(), 4242);
        QCOMPARE(h.value(QStringLiteral("since")).toString(), QStringLiteral("2026-11-26T03:12:00.000Z"));
        QCOMPARE(h.value(QStringLiteral("owner")).toString(), QString::fromUtf8(value));
        QCOMPARE(h.value(QStringLiteral("liveness")).toString(), QStringLiteral("alive"));
        QVERIFY2(r.out.contains("heartbeat"), r.out.constData());
        // Without its template it is nobody's lock: its name is in no string lock pattern.
        QCOMPARE(cli({ QStringLiteral("show"), QString::fromUtf8(name) }).exitCode, CliExit::NotDone);

        // The heartbeat gone: one signal, said as such.
        raw.command({ "DEL", p + ":hb:r-42" });
        r = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--json") } + tpl);
        h = firstHolder(r.out);
        QCOMPARE(h.value(QStringLiteral("liveness")).toString(), QStringLiteral("unknown"));
        QVERIFY2(r.out.contains("heartbeat") && r.out.contains("is gone"), r.out.constData());

        // Released by compare-and-delete of exactly the value read: another value in its place is left alone.
        r = cli(QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                    QStringLiteral("--expect-owner"), QStringLiteral("{\"actor\":\"someone-else\"}") }
            + tpl);
        QCOMPARE(r.exitCode, CliExit::NotDone);
        QCOMPARE(raw.command({ "GET", name }).bytes(), value);
        r = cli(
            QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") } + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", name }).toInteger(), 0);
    }

    // Example 2: "ADDED:<id>@<host>,<epoch s>" read with a regex, no TTL: a stale heartbeat that holds a time and its
    // process gone from this very host make two signals.
    void regexLockWithStaleHeartbeat()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("tpl-regex");
        const QByteArray name = p + ":import";
        const QByteArray host = QSysInfo::machineHostName().toUtf8();
        // A pid no process has: the highest a Linux kernel hands out is below 2^22.
        raw.command({ "SET", name, "ADDED:run7@" + host + ",1795000000,pid=4194999" });
        raw.command({ "SET", p + ":hb:run7", QByteArray::number(QDateTime::currentSecsSinceEpoch() - 3600) });
        const QStringList tpl { QStringLiteral("--owner-template"),
            QString::fromUtf8(p) + QStringLiteral(":import=heartbeat=") + QString::fromUtf8(p)
                + QStringLiteral(":hb:{owner},heartbeat-age=300,regex:^ADDED:(?<owner>[^@]+)@(?<host>[^,]+),(?<since>"
                                 "\\d+),pid=(?<pid>\\d+)$") };
        const CliRun r
            = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--json") } + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        const QJsonObject h = firstHolder(r.out);
        QCOMPARE(h.value(QStringLiteral("client")).toString(), QStringLiteral("run7"));
        QCOMPARE(h.value(QStringLiteral("liveness")).toString(), QStringLiteral("likely-dead"));
        const QString evidence = QJsonDocument(h.value(QStringLiteral("liveness_evidence")).toArray()).toJson();
        QVERIFY2(evidence.contains(QStringLiteral("stale")) && evidence.contains(QStringLiteral("process 4194999")),
            qPrintable(evidence));
        const QJsonArray warnings = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("warnings")).toArray();
        QVERIFY2(QJsonDocument(warnings).toJson().contains("never expires"), r.out.constData());
        raw.command({ "DEL", name, p + ":hb:run7" });
    }

    // Example 3: the bare session id as value, a heartbeat key per session kept with a TTL; and a value that is not
    // the template's shape, shown with a warning rather than guessed at. A heartbeat holding "1" is no time.
    void sessionLockAndAValueOfAnotherShape()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("tpl-session");
        raw.command({ "SET", p + ":lock:a", "sess-9f3", "PX", "600000" });
        raw.command({ "SET", p + ":session:sess-9f3", "1", "PX", "600000" });
        raw.command({ "SET", p + ":lock:b", "{\"unexpected\":true}", "PX", "600000" });
        const QStringList tpl { QStringLiteral("--owner-template"),
            QString::fromUtf8(p) + QStringLiteral(":lock:*=heartbeat=") + QString::fromUtf8(p)
                + QStringLiteral(":session:{owner},regex:^(?<owner>sess-[0-9a-f]+)$") };
        const CliRun r = cli(QStringList { QStringLiteral("list"), QStringLiteral("--pattern"),
                                 QString::fromUtf8(p) + QStringLiteral(":*"), QStringLiteral("--json") }
            + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        const QJsonArray locks = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(locks.size(), 2);
        const QJsonObject a = locks.at(0).toObject();
        QCOMPARE(a.value(QStringLiteral("library")).toString(), QStringLiteral("custom"));
        QCOMPARE(
            a.value(QStringLiteral("holders")).toArray().first().toObject().value(QStringLiteral("client")).toString(),
            QStringLiteral("sess-9f3"));
        const QJsonObject b = locks.at(1).toObject();
        QVERIFY2(QJsonDocument(b.value(QStringLiteral("warnings")).toArray()).toJson().contains("owner template"),
            QJsonDocument(b).toJson().constData());
        QCOMPARE(
            b.value(QStringLiteral("holders")).toArray().first().toObject().value(QStringLiteral("client")).toString(),
            QString());
    }
    // A home-grown queue: the waiters' list a template declares is read as the lock's queue, and blockers shows who
    // waits behind the holder.
    void aHomeGrownQueueIsReadAndBlocks()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("tpl-queue");
        const QByteArray name = p + ":lock:export";
        raw.command({ "SET", name, "job-7", "PX", "600000" });
        raw.command({ "RPUSH", p + ":queue:" + name, R"({"who":"w1"})", R"({"who":"w2"})", "not json" });
        const QStringList tpl { QStringLiteral("--owner-template"),
            QString::fromUtf8(p) + QStringLiteral(":lock:*=value,queue=") + QString::fromUtf8(p)
                + QStringLiteral(":queue:{name}:json:$.who") };
        CliRun r = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--json") } + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        const QJsonArray queue = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("queue")).toArray();
        QCOMPARE(queue.size(), 2); // a member without the declared shape names nobody
        QCOMPARE(queue.at(0).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("w1"));
        QCOMPARE(queue.at(1).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("w2"));

        r = cli(QStringList { QStringLiteral("blockers"), QStringLiteral("--pattern"),
                    QString::fromUtf8(p) + QStringLiteral(":lock:*"), QStringLiteral("--json") }
            + tpl);
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        const QJsonObject root
            = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("roots")).toArray().first().toObject();
        QCOMPARE(root.value(QStringLiteral("owner")).toString(), QStringLiteral("job-7"));
        QCOMPARE(root.value(QStringLiteral("blocked")).toInt(), 2);
        QCOMPARE(raw.command({ "LLEN", p + ":queue:" + name }).toInteger(), 3); // read only
    }
};

QTEST_GUILESS_MAIN(TestOwnerTemplates)
#include "tst_ownertemplates.moc"
