// The CLI's destructive paths where they are easy to miss, against a real redis-server: an audit log that cannot be
// written refuses every audited write before anything changes; `watch --enable-keyspace-events` changes nothing in
// read-only mode or for a user who may not CONFIG SET; and the repair-queue record is checked field by field.
#include "aclrules.h"
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QDebug>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <pwd.h>
#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kDeadWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";

// A user that may not change the configuration: the console's rules (CONFIG GET, no @dangerous), and one with no
// CONFIG at all.
QStringList users()
{
    QStringList args { QStringLiteral("--user"), QStringLiteral("console"), QStringLiteral("on"),
        QStringLiteral(">consolepw") };
    args << kConsoleRules;
    QStringList blind = kConsoleRules;
    blind.removeAll(QStringLiteral("+config|get"));
    args << QStringLiteral("--user") << QStringLiteral("noconfig") << QStringLiteral("on")
         << QStringLiteral(">noconfigpw") << blind;
    return args;
}

struct Run
{
    int exitCode = -1; // -1: it crashed, did not finish within 30 s or a sanitizer reported (the test has failed)
    QByteArray out;
    QByteArray err;
    qint64 pid = 0;
};
} // namespace

class TestDestructiveGaps : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions { users() } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    // A path nobody can write, root included: its parent is a regular file.
    QString unwritablePath() const { return m_dir.filePath(QStringLiteral("not-a-directory/audit.log")); }

    Run cli(const QStringList &args, const QString &audit, const QByteArray &input = {}) const
    {
        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("LOCKSCOPE_AUDIT_LOG"), audit);
        QProcess p;
        // The server's own URL unless the test names one (another user's).
        startCli(p,
            args.contains(QStringLiteral("--url")) ? args
                                                   : args + QStringList { QStringLiteral("--url"), m_server.url() },
            env);
        Run r;
        if (p.state() != QProcess::Running)
            return r; // startCli failed the test
        r.pid = p.processId();
        if (!input.isEmpty())
            p.write(input);
        p.closeWriteChannel();
        // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves exitCode -1.
        const CliRun run = finishCli(p);
        r.exitCode = run.exitCode;
        r.out = run.out;
        r.err = run.err;
        return r;
    }

    QList<QJsonObject> auditRecords() const
    {
        QFile f(auditPath());
        QList<QJsonObject> out;
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray &line : f.readAll().split('\n'))
                if (!line.trimmed().isEmpty())
                    out << QJsonDocument::fromJson(line).object();
        return out;
    }

    // Every key whose name holds prefix (a fair lock's queue, a semaphore's timeouts...) with its serialized value and
    // whether it expires: what a write would change.
    static QMap<QByteArray, QByteArray> stateOf(RawRedis &raw, const QByteArray &prefix)
    {
        QMap<QByteArray, QByteArray> state;
        const RedisValue keys = raw.command({ "KEYS", "*" + prefix + "*" });
        for (int i = 0; i < keys.size(); ++i) {
            const QByteArray key = keys.at(i).bytes();
            state.insert(key,
                raw.command({ "DUMP", key }).bytes() + (raw.pttl(key) > 0 ? QByteArray("|ttl") : QByteArray("|none")));
        }
        return state;
    }

    QByteArray keyspaceEvents(RawRedis &raw) const
    {
        return raw.command({ "CONFIG", "GET", "notify-keyspace-events" }).at(1).bytes();
    }

    static void refusedForTheAuditLog(const Run &r, const QString &path)
    {
        QVERIFY2(r.exitCode == 4, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains("audit log") && r.err.contains(path.toUtf8()) && r.err.contains("nothing changed"),
            r.err.constData());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile blocker(m_dir.filePath(QStringLiteral("not-a-directory")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // Every audited write of the CLI, each on something it would act on, with the audit log unwritable: refused with
    // the reason (exit code 4), before any prompt or write, and Redis exactly as it was.
    void unwritableAuditLogRefusesEveryWrite()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("gaps-audit") + ":";
        const QByteArray held = p + "held";
        raw.command({ "HSET", held, kHolder, "2" });
        raw.command({ "PEXPIRE", held, "600000" });
        const QByteArray semaphore = p + "sem";
        raw.command({ "SET", semaphore, "1" });
        const QByteArray expirable = p + "es";
        raw.command({ "SET", expirable, "0" });
        raw.command({ "ZADD", "{" + expirable + "}:timeout", "922337203685477", "0123456789abcdef0123456789abcdef" });
        const QByteArray latch = p + "latch";
        raw.command({ "SET", latch, "2" });
        const QByteArray fair = p + "fair";
        raw.command({ "HSET", fair, kHolder, "1" });
        raw.command({ "PEXPIRE", fair, "600000" });
        raw.command({ "RPUSH", LockNames::fairQueue(fair), kDeadWaiter });
        raw.command({ "ZADD", LockNames::fairTimeouts(fair),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kDeadWaiter });
        raw.command({ "CONFIG", "SET", "notify-keyspace-events", "" });
        const QMap<QByteArray, QByteArray> before = stateOf(raw, p);
        QCOMPARE(before.size(), 8); // with the semaphore's timeouts and the fair lock's queue and deadlines

        const QStringList declared { QStringLiteral("--layout-pattern"),
            QStringLiteral("redisson=") + QString::fromUtf8(p) + QStringLiteral("*") };
        const QList<QStringList> writes {
            { QStringLiteral("release"), QString::fromUtf8(held), QStringLiteral("--owner"),
                QString::fromUtf8(kHolder) },
            { QStringLiteral("force-release"), QString::fromUtf8(held), QStringLiteral("--yes") },
            QStringList { QStringLiteral("add-permits"), QString::fromUtf8(semaphore), QStringLiteral("--permits"),
                QStringLiteral("2") }
                + declared,
            QStringList { QStringLiteral("release-permit"), QString::fromUtf8(expirable), QStringLiteral("--permit"),
                QStringLiteral("0123456789abcdef0123456789abcdef") }
                + declared,
            QStringList { QStringLiteral("open-latch"), QString::fromUtf8(latch), QStringLiteral("--yes") } + declared,
            { QStringLiteral("repair-queue"), QString::fromUtf8(fair), QStringLiteral("--yes"),
                QStringLiteral("--recheck"), QStringLiteral("0") },
            { QStringLiteral("watch"), QStringLiteral("--enable-keyspace-events"), QStringLiteral("--pattern"),
                QString::fromUtf8(p) + QStringLiteral("*") },
        };
        for (const QStringList &args : writes) {
            // "y" answers any prompt: a refusal that came only after the question would still show here.
            const Run r = cli(args, unwritablePath(), "y\n");
            refusedForTheAuditLog(r, unwritablePath());
            if (QTest::currentTestFailed()) {
                qWarning() << "for" << args;
                return;
            }
            QCOMPARE(stateOf(raw, p), before);
            QCOMPARE(keyspaceEvents(raw), QByteArray());
        }
        QVERIFY(!QFile::exists(unwritablePath()));

        // The same force release with a log it can write runs: the refusal above was the log's.
        const Run done
            = cli({ QStringLiteral("force-release"), QString::fromUtf8(held), QStringLiteral("--yes") }, auditPath());
        QVERIFY2(done.exitCode == 0, done.err.constData());
        QCOMPARE(raw.type(held), QByteArray("none"));
    }

    // --read-only is a promise not to write, the server's configuration included: refused before CONFIG SET is sent,
    // notify-keyspace-events as it was, nothing audited.
    void enableKeyspaceEventsRefusedReadOnly()
    {
        RawRedis raw(m_server.port());
        raw.command({ "CONFIG", "SET", "notify-keyspace-events", "E" });
        const int records = int(auditRecords().size());
        const Run r
            = cli({ QStringLiteral("--read-only"), QStringLiteral("watch"), QStringLiteral("--enable-keyspace-events"),
                      QStringLiteral("--pattern"), QString::fromUtf8(uniqueKey("gaps-ro")) + QStringLiteral("*") },
                auditPath());
        QVERIFY2(r.exitCode == 4, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains("read-only") && r.err.contains("enable-keyspace-events"), r.err.constData());
        QCOMPARE(keyspaceEvents(raw), QByteArray("E"));
        QCOMPARE(auditRecords().size(), records);
    }

    // A user the server does not let change its configuration: the server's refusal is said, nothing changes.
    void enableKeyspaceEventsRefusedWithoutConfigRights_data()
    {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::newRow("CONFIG GET only") << QStringLiteral("console") << QStringLiteral("consolepw");
        QTest::newRow("no CONFIG at all") << QStringLiteral("noconfig") << QStringLiteral("noconfigpw");
    }

    void enableKeyspaceEventsRefusedWithoutConfigRights()
    {
        QFETCH(QString, user);
        QFETCH(QString, password);
        RawRedis raw(m_server.port());
        raw.command({ "CONFIG", "SET", "notify-keyspace-events", "E" });
        QVERIFY(RawRedis(m_server.port(), user.toUtf8(), password.toUtf8())
                    .command({ "CONFIG", "SET", "notify-keyspace-events", "KEA" })
                    .isError());
        const int records = int(auditRecords().size());
        qputenv("GAPS_PW", password.toUtf8());
        const QString url = QStringLiteral("redis://%1@127.0.0.1:%2").arg(user).arg(m_server.port());
        const Run r
            = cli({ QStringLiteral("watch"), QStringLiteral("--enable-keyspace-events"), QStringLiteral("--pattern"),
                      QString::fromUtf8(uniqueKey("gaps-acl")) + QStringLiteral("*"), QStringLiteral("--password-env"),
                      QStringLiteral("GAPS_PW"), QStringLiteral("--url"), url },
                auditPath());
        qunsetenv("GAPS_PW");
        QVERIFY2(r.exitCode == 4, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains("NOPERM") || r.err.contains("permission"), r.err.constData());
        QVERIFY2(r.err.contains("config"), r.err.constData());
        QCOMPARE(keyspaceEvents(raw), QByteArray("E"));
        QCOMPARE(auditRecords().size(), records);
    }

    // The control for the two above: a user who may switches them on, and that is audited.
    void enableKeyspaceEventsByAnAdminIsAudited()
    {
        RawRedis raw(m_server.port());
        raw.command({ "CONFIG", "SET", "notify-keyspace-events", "E" });
        QProcess watch;
        startCli(watch,
            { QStringLiteral("watch"), QStringLiteral("--enable-keyspace-events"), QStringLiteral("--pattern"),
                QString::fromUtf8(uniqueKey("gaps-admin")) + QStringLiteral("*"), QStringLiteral("--url"),
                m_server.url() },
            m_dir);
        QByteArray said;
        while (!said.contains("keyspace events switched on") && watch.waitForReadyRead(30000))
            said += watch.readAllStandardOutput();
        QVERIFY2(said.contains("keyspace events switched on"), said.constData());
        const QByteArray flags = keyspaceEvents(raw);
        for (char c : QByteArray("EKh$zgx"))
            QVERIFY2(flags.contains(c), flags.constData());
        watch.terminate();
        CLI_EXIT(finishCli(watch), CliExit::Done);
        QCOMPARE(
            auditRecords().last().value(QStringLiteral("action")).toString(), QStringLiteral("enable-keyspace-events"));
        raw.command({ "CONFIG", "SET", "notify-keyspace-events", "" });
    }

    // One repair-queue record, every field: what it says, and nothing it should not.
    void repairQueueRecordWhole()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("gaps-repair");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        raw.command({ "RPUSH", LockNames::fairQueue(name), kDeadWaiter });
        raw.command({ "ZADD", LockNames::fairTimeouts(name),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kDeadWaiter });
        const int records = int(auditRecords().size());
        const QDateTime start = QDateTime::currentDateTimeUtc().addMSecs(-1);
        const Run r = cli({ QStringLiteral("repair-queue"), QString::fromUtf8(name), QStringLiteral("--yes"),
                              QStringLiteral("--recheck"), QStringLiteral("0"), QStringLiteral("--json") },
            auditPath());
        const QDateTime end = QDateTime::currentDateTimeUtc().addMSecs(1);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("removed")).toInt(), 1);
        QCOMPARE(raw.command({ "LLEN", LockNames::fairQueue(name) }).toInteger(), 0);

        const QList<QJsonObject> all = auditRecords();
        QCOMPARE(all.size(), records + 1);
        const QJsonObject record = all.last();
        QStringList keys = record.keys();
        keys.sort();
        QCOMPARE(keys,
            QStringList({ QStringLiteral("action"), QStringLiteral("client_id"), QStringLiteral("host"),
                QStringLiteral("name"), QStringLiteral("outcome"), QStringLiteral("pid"), QStringLiteral("removed"),
                QStringLiteral("result"), QStringLiteral("ts"), QStringLiteral("url"), QStringLiteral("user") }));
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("repair-queue"));
        QCOMPARE(record.value(QStringLiteral("url")).toString(),
            QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port()));
        QCOMPARE(record.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(record.value(QStringLiteral("removed")).toArray(), QJsonArray { QString::fromUtf8(kDeadWaiter) });
        QCOMPARE(record.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
        QCOMPARE(record.value(QStringLiteral("result")).toString(), QStringLiteral("done"));
        // The client id the repair ran as: a UUID, as every record about a lock has.
        QVERIFY2(!QUuid::fromString(record.value(QStringLiteral("client_id")).toString()).isNull(),
            qPrintable(record.value(QStringLiteral("client_id")).toString()));
        QCOMPARE(record.value(QStringLiteral("pid")).toInteger(), r.pid);
        QCOMPARE(record.value(QStringLiteral("host")).toString(), QSysInfo::machineHostName());
        // The operating system's account, not $USER (unset under cron and systemd).
        QCOMPARE(record.value(QStringLiteral("user")).toString(), QString::fromLocal8Bit(getpwuid(geteuid())->pw_name));
        const QDateTime ts = QDateTime::fromString(record.value(QStringLiteral("ts")).toString(), Qt::ISODateWithMs);
        QVERIFY2(ts.isValid() && ts.timeSpec() == Qt::UTC && ts >= start && ts <= end,
            qPrintable(record.value(QStringLiteral("ts")).toString()));
    }
};

QTEST_GUILESS_MAIN(TestDestructiveGaps)
#include "tst_destructivegaps.moc"
