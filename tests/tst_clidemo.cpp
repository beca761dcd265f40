// lockscope-cli demo as people demoing the watchdog use it: it starts, shows simulated clients at work, and on
// Ctrl+C stops cleanly: exit 0, its private server gone, nothing left held on a server it was pointed at.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace LockScope;
using namespace LockScope::Test;

class TestCliDemo : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    void startDemo(QProcess &p, int clients, const QStringList &extra)
    {
        startCli(p,
            QStringList { QStringLiteral("demo"), QStringLiteral("--json"), QStringLiteral("--clients"),
                QString::number(clients), QStringLiteral("--locks"), QStringLiteral("2") }
                + extra,
            m_dir);
    }

    // The JSON events printed so far, parsed; appended to *events as lines arrive.
    static void readEvents(QProcess &p, QList<QJsonObject> *events)
    {
        while (p.canReadLine())
            events->append(QJsonDocument::fromJson(p.readLine()).object());
    }

    static bool hasEvent(const QList<QJsonObject> &events, const QString &name)
    {
        return std::any_of(events.cbegin(), events.cend(),
            [&name](const QJsonObject &o) { return o.value(QStringLiteral("event")).toString() == name; });
    }

    static int count(const QList<QJsonObject> &events, const QString &name)
    {
        return int(std::count_if(events.cbegin(), events.cend(),
            [&name](const QJsonObject &o) { return o.value(QStringLiteral("event")).toString() == name; }));
    }

    // Interrupts the demo once simulated clients hold locks (and, when asked, once one waits for a lock), and
    // returns every event it printed. How it ended is finishCli's: a crash, a hang or a sanitizer's report fails the
    // test; *run has its exit code.
    static QList<QJsonObject> runThenInterrupt(QProcess &p, int signal, int acquired, bool waiting, CliRun *run)
    {
        QList<QJsonObject> events;
        QDeadlineTimer deadline(30000);
        while ((count(events, QStringLiteral("acquired")) < acquired
                   || (waiting && !hasEvent(events, QStringLiteral("waiting"))))
            && !deadline.hasExpired() && p.state() == QProcess::Running) {
            p.waitForReadyRead(200);
            readEvents(p, &events);
        }
        // Only while it runs: processId() is 0 once it has ended, and kill(0) would signal this test's own group.
        if (p.state() == QProcess::Running)
            ::kill(pid_t(p.processId()), signal);
        *run = finishCli(p, 20000);
        for (const QByteArray &line : run->out.split('\n'))
            if (!line.trimmed().isEmpty())
                events.append(QJsonDocument::fromJson(line).object());
        return events;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void demoOnItsOwnServerStopsCleanly()
    {
        QProcess p;
        startDemo(p, 4, {});
        CliRun run;
        const QList<QJsonObject> events = runThenInterrupt(p, SIGINT, 1, false, &run);
        CLI_EXIT(run, CliExit::Done);
        QVERIFY2(hasEvent(events, QStringLiteral("acquired")), "no simulated client took a lock");
        QCOMPARE(events.last().value(QStringLiteral("event")).toString(), QStringLiteral("demo-stopped"));
        // The private server it started is gone with it.
        QCOMPARE(events.first().value(QStringLiteral("event")).toString(), QStringLiteral("server-started"));
        const auto serverPid = pid_t(events.first().value(QStringLiteral("pid")).toInteger());
        QVERIFY(serverPid > 0);
        QTRY_VERIFY(::kill(serverPid, 0) != 0);
    }

    // Twelve clients on four names: waiters are in the middle of their waits when the demo stops.
    void demoOnAServerLeavesNothingHeld_data()
    {
        QTest::addColumn<int>("acquired");
        for (int acquired : { 1, 6, 12 })
            QTest::addRow("after %d acquired", acquired) << acquired;
    }

    void demoOnAServerLeavesNothingHeld()
    {
        QFETCH(int, acquired);
        RawRedis raw(m_server.port());
        raw.command({ "FLUSHALL" });
        QProcess p;
        startDemo(p, 12, { QStringLiteral("--url"), m_server.url() });
        CliRun run;
        const QList<QJsonObject> events = runThenInterrupt(p, SIGTERM, acquired, true, &run);
        CLI_EXIT(run, CliExit::Done);
        QVERIFY2(count(events, QStringLiteral("acquired")) >= acquired, "the simulated clients took too few locks");
        QCOMPARE(events.last().value(QStringLiteral("event")).toString(), QStringLiteral("demo-stopped"));
        // Every simulated holder released before the demo ended. Only a holder that played a crash may still hold
        // its lock (until its lease runs out: that is what it demonstrates), and unlock latches expire by themselves.
        QSet<QByteArray> crashed;
        for (const QJsonObject &o : events) {
            if (o.value(QStringLiteral("event")).toString() == QLatin1String("crashed"))
                crashed << o.value(QStringLiteral("owner")).toString().toUtf8();
        }
        QList<QByteArray> left;
        const RedisValue keys = raw.command({ "KEYS", "*" });
        for (const RedisValue &key : keys.elements()) {
            const QByteArray name = key.bytes();
            if (name.startsWith("redisson_unlock_latch:"))
                continue;
            if (raw.type(name) == "hash") {
                const QMap<QByteArray, QByteArray> fields = raw.hgetall(name);
                const bool onlyCrashed
                    = std::all_of(fields.keyBegin(), fields.keyEnd(), [&crashed](const QByteArray &f) {
                          return f == "mode" || crashed.contains(f.chopped(f.endsWith(":write") ? 6 : 0));
                      });
                if (onlyCrashed)
                    continue;
            }
            left << name;
        }
        QVERIFY2(left.isEmpty(), left.join(' ').constData());
    }
};

QTEST_GUILESS_MAIN(TestCliDemo)
#include "tst_clidemo.moc"
