// Contention statistics as users read them: `stats --json` and `top --json` against a scripted workload with known
// counts (serve-metrics is in tst_metrics).
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
#include "statsworkload.h"
#include "testutil.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace LockScope;
using namespace LockScope::Test;

class TestStats : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    RedisServer m_plain; // sends no keyspace events
    QTemporaryDir m_dir;

    QStringList url(const RedisServer &server) const { return { QStringLiteral("--url"), server.url() }; }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY2(m_plain.start(&error), qPrintable(error));
    }

    void statsCountsTheWorkload()
    {
        RawRedis raw(m_server.port());
        RawRedis waiter(m_server.port());
        const QString prefix = uniqueName("stats");
        const QByteArray hot = (prefix + QStringLiteral(":hot")).toUtf8();
        const QByteArray expiring = (prefix + QStringLiteral(":expiring")).toUtf8();
        const QByteArray stuck = (prefix + QStringLiteral(":stuck")).toUtf8();

        // stats' own connections: those that opened while it started, before top and the pacer's watch.
        ServerLog log(m_server.port());
        QVERIFY(log.start(raw));
        const QMap<QByteArray, QByteArray> before = clientAddresses(raw);
        QProcess stats, top;
        startCli(stats,
            QStringList { QStringLiteral("--json"), QStringLiteral("stats"), QStringLiteral("--seconds"),
                QStringLiteral("3600"), QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        waitForStatus(stats, "watching 0 lock");
        const QMap<QByteArray, QByteArray> after = clientAddresses(raw);
        for (auto it = after.cbegin(); it != after.cend(); ++it)
            if (!before.contains(it.key()))
                log.readers.insert(it.value());
        QVERIFY(!log.readers.isEmpty());
        startCli(top,
            QStringList { QStringLiteral("--json"), QStringLiteral("top"), QStringLiteral("--interval"),
                QStringLiteral("200"), QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        Pacer pacer;
        startPacer(pacer, m_server, prefix + QLatin1Char('*'), m_dir);
        QTRY_VERIFY_WITH_TIMEOUT(top.canReadLine(), 20000); // its first snapshot is done

        // One client waits on the hot lock throughout. Each change waits for stats, the pacer and top to have read it.
        waiter.command({ "SUBSCRIBE", LockNames::lockChannel(hot) });
        for (int i = 0; i < 5; ++i) {
            const QByteArray owner = i % 2 ? kOwnerB : kOwnerA;
            acquire(raw, hot, owner, "600000");
            QVERIFY(log.readAfterChange(hot));
            QVERIFY(pacer.next("acquired", hot));
            QVERIFY(topCounts(top, hot, i + 1));
            release(raw, hot, owner);
            QVERIFY(log.readAfterChange(hot));
            QVERIFY(pacer.next("released", hot));
        }
        // Its lease runs out once the monitors have seen the hold: a lease short enough to run out by itself could
        // run out before a monitor on a busy machine read it (the acquisition never counted).
        acquire(raw, expiring, kOwnerA, "600000");
        QVERIFY(log.readAfterChange(expiring));
        QVERIFY(pacer.next("acquired", expiring));
        QVERIFY(topCounts(top, expiring, 1));
        QCOMPARE(raw.command({ "PEXPIRE", expiring, "1" }).toInteger(), qint64(1));
        QVERIFY(pacer.next("expired", expiring));
        acquire(raw, stuck, kOwnerB, {}); // never expires: read whenever stats gets to it (its report waits for that)
        QVERIFY(pacer.next("acquired", stuck));

        // stats prints what it saw when stopped, once the events on their way are in.
        stats.terminate();
        const CliRun statsRun = finishCli(stats, 20000);
        CLI_EXIT(statsRun, CliExit::Done);
        const QJsonObject report = json(statsRun.out);
        QCOMPARE(report[QStringLiteral("mode")].toString(), QStringLiteral("keyspace-events"));
        QVERIFY(report[QStringLiteral("blind_spots")].toArray().isEmpty());

        const QJsonObject h = lockIn(report, QString::fromUtf8(hot));
        QCOMPARE(h[QStringLiteral("kind")].toString(), QStringLiteral("reentrant"));
        QCOMPARE(h[QStringLiteral("library")].toString(), QStringLiteral("redisson"));
        QCOMPARE(h[QStringLiteral("acquisitions")].toInt(), 5);
        QCOMPARE(h[QStringLiteral("releases")].toInt(), 5);
        QCOMPARE(h[QStringLiteral("hold_ms")][QStringLiteral("samples")].toInt(), 5);
        QVERIFY(h[QStringLiteral("hold_ms")][QStringLiteral("p95")].toInt()
            <= h[QStringLiteral("hold_ms")][QStringLiteral("max")].toInt());
        QCOMPARE(h[QStringLiteral("expiries")].toInt(), 0);
        QCOMPARE(h[QStringLiteral("owner_changes")].toInt(), 0);
        QCOMPARE(h[QStringLiteral("waiters_max")].toInt(), 1);
        QCOMPARE(h[QStringLiteral("sources")][QStringLiteral("acquisitions")].toString(), QStringLiteral("measured"));
        QCOMPARE(h[QStringLiteral("sources")][QStringLiteral("hold_ms")].toString(), QStringLiteral("measured"));
        QCOMPARE(h[QStringLiteral("sources")][QStringLiteral("waiters_max")].toString(), QStringLiteral("inferred"));

        const QJsonObject e = lockIn(report, QString::fromUtf8(expiring));
        QCOMPARE(e[QStringLiteral("acquisitions")].toInt(), 1);
        QCOMPARE(e[QStringLiteral("expiries")].toInt(), 1);
        QCOMPARE(e[QStringLiteral("sources")][QStringLiteral("expiries")].toString(), QStringLiteral("measured"));
        const QJsonObject s = lockIn(report, QString::fromUtf8(stuck));
        QCOMPARE(s[QStringLiteral("acquisitions")].toInt(), 1);
        QCOMPARE(s[QStringLiteral("holding_now")].toInt(), 1);
        QCOMPARE(s[QStringLiteral("hold_ms")][QStringLiteral("samples")].toInt(), 0);

        // The totals per kind and library, and the clients.
        const QJsonArray totals = report[QStringLiteral("totals")].toArray();
        QCOMPARE(totals.size(), 1);
        QCOMPARE(totals.at(0)[QStringLiteral("acquisitions")].toInt(), 7);
        QCOMPARE(totals.at(0)[QStringLiteral("expiries")].toInt(), 1);
        int clientAcquisitions = 0;
        for (const QJsonValue &c : report[QStringLiteral("clients")].toArray())
            clientAcquisitions += c[QStringLiteral("acquisitions")].toInt();
        QCOMPARE(clientAcquisitions, 7);

        // top: the same counts within a few lines, the hot lock first.
        QJsonObject line;
        for (int i = 0; i < 200 && lockIn(line, QString::fromUtf8(hot))[QStringLiteral("acquisitions")].toInt() != 5;
             ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(top.canReadLine(), 20000);
            line = json(top.readLine());
        }
        QCOMPARE(lockIn(line, QString::fromUtf8(hot))[QStringLiteral("acquisitions")].toInt(), 5);
        QCOMPARE(
            line[QStringLiteral("locks")].toArray().at(0)[QStringLiteral("name")].toString(), QString::fromUtf8(hot));
        QCOMPARE(line[QStringLiteral("interval_ms")].toInt(), 200);
        QVERIFY(lockIn(line, QString::fromUtf8(hot)).contains(QStringLiteral("acquisitions_interval")));
        top.terminate();
        CLI_EXIT(finishCli(top, 20000), CliExit::Done);
        pacer.watch.terminate();
        CLI_EXIT(finishCli(pacer.watch, 20000), CliExit::Done);
    }

    void pollingSaysWhatItInfers()
    {
        RawRedis raw(m_plain.port());
        const QString prefix = uniqueName("statspoll");
        const QByteArray name = (prefix + QStringLiteral(":a")).toUtf8();
        QProcess stats;
        startCli(stats,
            QStringList { QStringLiteral("--json"), QStringLiteral("stats"), QStringLiteral("--seconds"),
                QStringLiteral("3600"), QStringLiteral("--interval"), QStringLiteral("100"),
                QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_plain),
            m_dir);
        waitForStatus(stats, "watching 0 lock");
        Pacer pacer;
        startPacer(pacer, m_plain, prefix + QLatin1Char('*'), m_dir);
        acquire(raw, name, kOwnerA, "30000");
        QVERIFY(pacer.next("acquired", name));
        release(raw, name, kOwnerA);
        QVERIFY(pacer.next("released", name));
        QJsonObject l;
        stats.terminate();
        const CliRun statsRun = finishCli(stats, 20000);
        CLI_EXIT(statsRun, CliExit::Done);
        const QJsonObject report = json(statsRun.out);
        QCOMPARE(report[QStringLiteral("mode")].toString(), QStringLiteral("pubsub+polling"));
        QVERIFY(!report[QStringLiteral("blind_spots")].toArray().isEmpty());
        l = lockIn(report, QString::fromUtf8(name));
        if (!l.isEmpty()) // a re-scan may have missed the whole hold: that is what the blind spots say
            QCOMPARE(
                l[QStringLiteral("sources")][QStringLiteral("acquisitions")].toString(), QStringLiteral("inferred"));
        pacer.watch.terminate();
        CLI_EXIT(finishCli(pacer.watch, 20000), CliExit::Done);
        // Usage errors.
        CLI_REFUSED(runCli(QStringList { QStringLiteral("stats") } + url(m_plain), m_dir), CliExit::Usage,
            "stats needs --seconds N");
        CLI_REFUSED(runCli(QStringList { QStringLiteral("stats"), QStringLiteral("--seconds"), QStringLiteral("x") }
                            + url(m_plain),
                        m_dir),
            CliExit::Usage, "stats needs --seconds N");
        CLI_REFUSED(
            runCli(QStringList { QStringLiteral("top"), QStringLiteral("--limit"), QStringLiteral("0") } + url(m_plain),
                m_dir),
            CliExit::Usage, "--limit takes a number of locks");
    }

    void textOutputForPeople()
    {
        RawRedis raw(m_server.port());
        const QString prefix = uniqueName("statstext");
        const QByteArray name = (prefix + QStringLiteral(":a")).toUtf8();
        raw.command({ "HSET", name, kOwnerA, "1" });
        // top without a terminal: one table after another, the header first.
        QProcess top;
        startCli(top,
            QStringList { QStringLiteral("top"), QStringLiteral("--interval"), QStringLiteral("100"),
                QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += top.readAllStandardOutput()).count("LOCK") >= 2, 20000);
        QVERIFY2(out.contains(" 1 lock, ") && out.contains("keyspace-events"), out.constData());
        QVERIFY(!out.contains("\x1b[")); // no terminal control when the output is not a terminal
        top.terminate();
        CLI_EXIT(finishCli(top, 20000), CliExit::Done);
        // stats in text: the table, then the exit.
        const CliRun r = runCli(QStringList { QStringLiteral("stats"), QStringLiteral("--seconds"), QStringLiteral("1"),
                                    QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("LOCK") && r.out.contains("HOLD P50"), r.out.constData());
        QVERIFY2(r.err.contains("watching 1 lock"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
