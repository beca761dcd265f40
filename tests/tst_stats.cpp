// Contention statistics as users read them: `stats --json` and `top --json` against a scripted workload with known
// counts, and `serve-metrics` scraped by a real Prometheus server and linted by promtool.
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
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

namespace {
const QByteArray kOwnerA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:31";
const QByteArray kOwnerB = "0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6:77";

QJsonObject json(const QByteArray &line)
{
    return QJsonDocument::fromJson(line).object();
}

QJsonObject lockIn(const QJsonObject &report, const QString &name)
{
    for (const QJsonValue &v : report.value(QStringLiteral("locks")).toArray())
        if (v[QStringLiteral("name")].toString() == name)
            return v.toObject();
    return {};
}

// The connections open on the server, by CLIENT LIST's id, with their addresses.
QMap<QByteArray, QByteArray> clientAddresses(RawRedis &raw)
{
    QMap<QByteArray, QByteArray> out;
    for (const QByteArray &line : raw.command({ "CLIENT", "LIST" }).bytes().split('\n')) {
        QByteArray id, addr;
        for (const QByteArray &field : line.trimmed().split(' ')) {
            if (field.startsWith("id="))
                id = field.mid(3);
            else if (field.startsWith("addr="))
                addr = field.mid(5);
        }
        if (!id.isEmpty())
            out.insert(id, addr);
    }
    return out;
}

// What a process that prints nothing until it stops (stats) has read, from the server's MONITOR stream: every command
// in the order the server ran it. A monitor that reads a key only after its hold ended never learns of the hold, so
// the test changes a lock again only once the process has read the change: on a busy machine stats lagged behind
// the pacer's watch and top, which the test waited for, and its counts came out short.
struct ServerLog
{
    RawRedis monitor;
    QByteArray writer; // the address of the test's connection that makes the changes (each one a MULTI/EXEC)
    QSet<QByteArray> readers; // the addresses of the watched process's connections

    explicit ServerLog(quint16 port)
        : monitor(port)
    { }

    bool start(RawRedis &raw)
    {
        const QByteArray info = raw.command({ "CLIENT", "INFO" }).bytes();
        const int at = info.indexOf("addr=");
        writer = info.mid(at + 5, info.indexOf(' ', at) - at - 5);
        monitor.append({ "MONITOR" });
        return at >= 0 && monitor.readReply(5000).bytes() == "OK";
    }

    // Reads the log up to the writer's next EXEC, then on until a reader has read key whole after it (the hash, then
    // its PTTL, as the monitor reads a key an event named): that read saw what the EXEC made.
    bool readAfterChange(const QByteArray &key)
    {
        const QByteArray hashRead = "\"" + key + "\"", ttlRead = "] \"PTTL\" \"" + key + "\"";
        QByteArray reader; // whose hash read came first, after the change
        enum { Change, Hash, Ttl } phase = Change;
        QByteArray seen;
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            bool timedOut = false;
            const RedisValue v = monitor.readReply(1000, &timedOut);
            if (timedOut)
                continue;
            if (!v.isStatus())
                break; // the connection failed
            const QByteArray line = v.bytes();
            const int open = line.indexOf(" ["), space = line.indexOf(' ', open + 2), close = line.indexOf(']', open);
            const QByteArray from = line.mid(space + 1, close - space - 1);
            if (phase == Change && from == writer && line.mid(close).startsWith("] \"EXEC\"")) {
                phase = Hash;
            } else if (phase == Hash && readers.contains(from)
                && (line.mid(close).startsWith("] \"HSCAN\" " + hashRead)
                    || line.mid(close).startsWith("] \"HGETALL\" " + hashRead))) {
                reader = from;
                phase = Ttl;
            } else if (phase == Ttl && from == reader && line.mid(close) == ttlRead) {
                return true;
            }
            if (readers.contains(from) && line.contains(hashRead))
                seen += line + '\n';
        }
        qWarning("no read of %s by the watched process after the change; its reads of it:\n%s", key.constData(),
            seen.constData());
        return false;
    }
};
} // namespace

class TestStats : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    RedisServer m_plain; // sends no keyspace events
    QTemporaryDir m_dir;

    QStringList url(const RedisServer &server) const { return { QStringLiteral("--url"), server.url() }; }

    // A paced Redisson workload: each step is seen by a `watch` of the same names before the next is made, so every
    // monitor meets every state. Waits for the watch's line for the event.
    struct Pacer
    {
        QProcess watch;
        bool next(const char *event, const QByteArray &name)
        {
            QByteArray others; // what the watch said of this name instead, for the failure's message
            for (int i = 0; i < 400; ++i) {
                if (!watch.canReadLine() && !watch.waitForReadyRead(100))
                    continue;
                while (watch.canReadLine()) {
                    const QByteArray line = watch.readLine();
                    const QJsonObject o = json(line);
                    if (o[QStringLiteral("name")].toString().toUtf8() != name)
                        continue;
                    if (o[QStringLiteral("event")].toString() == QLatin1String(event))
                        return true;
                    others += line;
                }
            }
            qWarning("no %s event for %s; its other lines:\n%s", event, name.constData(), others.constData());
            return false;
        }
    };

    void startPacer(Pacer &pacer, const RedisServer &server, const QString &pattern)
    {
        startCli(pacer.watch,
            QStringList { QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--pattern"), pattern,
                QStringLiteral("--interval"), QStringLiteral("100") }
                + url(server),
            m_dir);
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT((status += pacer.watch.readAllStandardError()).contains("watching"), 20000);
    }

    static void acquire(RawRedis &raw, const QByteArray &name, const QByteArray &owner, const QByteArray &leaseMs)
    {
        raw.command({ "MULTI" });
        raw.command({ "HSET", name, owner, "1" });
        if (!leaseMs.isEmpty())
            raw.command({ "PEXPIRE", name, leaseMs });
        raw.command({ "EXEC" });
    }
    static void release(RawRedis &raw, const QByteArray &name, const QByteArray &owner)
    {
        // As Redisson's unlock script, at once: the count goes down, the key goes, the waiters are told.
        raw.command({ "MULTI" });
        raw.command({ "HINCRBY", name, owner, "-1" });
        raw.command({ "DEL", name });
        raw.command({ "PUBLISH", LockNames::lockChannel(name), "0" });
        raw.command({ "EXEC" });
    }
    // Reads top's lines (one every interval) until one counts at least n acquisitions of name: top's monitor has
    // seen them. A second monitor that must meet every state before the next step, beside the pacer's watch.
    static bool topCounts(QProcess &top, const QByteArray &name, int n)
    {
        for (int i = 0; i < 120; ++i) {
            if (!top.canReadLine() && !top.waitForReadyRead(1000))
                continue;
            while (top.canReadLine())
                if (lockIn(json(top.readLine()), QString::fromUtf8(name))[QStringLiteral("acquisitions")].toInt() >= n)
                    return true;
        }
        qWarning("top never counted %d acquisition(s) of %s", n, name.constData());
        return false;
    }
    static void waitForStatus(QProcess &p, const char *text)
    {
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT((status += p.readAllStandardError()).contains(text), 20000);
    }

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
        startPacer(pacer, m_server, prefix + QLatin1Char('*'));
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
        startPacer(pacer, m_plain, prefix + QLatin1Char('*'));
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

    void prometheusScrapesTheEndpoint()
    {
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        // A missing server fails rather than skips: a skipped test would count as passed.
        QVERIFY2(!prometheus.isEmpty() && !promtool.isEmpty(),
            "prometheus and promtool are not installed (scripts/dev setup installs them)");

        RawRedis raw(m_server.port());
        const QString prefix = uniqueName("metrics");
        const QByteArray name = (prefix + QStringLiteral(":a\"quoted\"")).toUtf8();
        QProcess serve;
        startCli(serve,
            QStringList { QStringLiteral("--json"), QStringLiteral("serve-metrics"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        QTRY_VERIFY_WITH_TIMEOUT(serve.canReadLine(), 20000);
        const QUrl metrics(json(serve.readLine())[QStringLiteral("listening")].toString());
        QVERIFY2(metrics.isValid() && metrics.host() == QLatin1String("127.0.0.1"), qPrintable(metrics.toString()));
        // The workload starts once serve-metrics follows changes: an acquisition before that is not one it saw.
        waitForStatus(serve, "watching 0 lock");

        QNetworkAccessManager http;
        const auto get = [&http](const QUrl &url, const QByteArray &accept, QByteArray *contentType) {
            QNetworkRequest request(url);
            if (!accept.isEmpty())
                request.setRawHeader("Accept", accept);
            QNetworkReply *reply = http.get(request);
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            if (contentType)
                *contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
            const QByteArray body = reply->readAll();
            reply->deleteLater();
            return body;
        };

        // Each hold ends only once serve-metrics itself counts it (its own endpoint is the barrier): a hold released
        // before a busy machine's monitor read it would never be counted.
        Pacer pacer;
        startPacer(pacer, m_server, prefix + QLatin1Char('*'));
        const QByteArray counted = "lockscope_acquisitions_total{kind=\"reentrant\",library=\"redisson\"} ";
        for (int i = 0; i < 3; ++i) {
            acquire(raw, name, kOwnerA, "600000");
            QVERIFY(pacer.next("acquired", name));
            QTRY_VERIFY_WITH_TIMEOUT(get(metrics, {}, nullptr).contains(counted + QByteArray::number(i + 1)), 30000);
            release(raw, name, kOwnerA);
            QVERIFY(pacer.next("released", name));
        }

        // The classic text, as curl gets it, passes promtool's lint.
        QByteArray contentType;
        QByteArray text;
        // The third release reaches serve-metrics' monitor a moment after the watch's.
        QTRY_VERIFY_WITH_TIMEOUT(
            (text = get(metrics, {}, &contentType))
                .contains("lockscope_acquisitions_total{kind=\"reentrant\",library=\"redisson\"} 3"),
            20000);
        QVERIFY2(contentType.startsWith("text/plain; version=0.0.4"), contentType.constData());
        // The third hold's end counted too (its release reaches serve-metrics after the watch's): Prometheus, started
        // below, must scrape all three holds, whose count is asserted at its first answer.
        const auto holdsCounted = [](const QByteArray &text) {
            for (const QByteArray &line : text.split('\n'))
                if (line.startsWith("lockscope_lock_hold_seconds_count{") && line.endsWith(" 3"))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(holdsCounted(text = get(metrics, {}, &contentType)), 20000);
        QVERIFY(text.contains("lock=\"" + prefix.toUtf8() + ":a\\\"quoted\\\"\""));
        QProcess lint;
        lint.start(promtool, { QStringLiteral("check"), QStringLiteral("metrics") });
        QVERIFY(lint.waitForStarted());
        lint.write(text);
        lint.closeWriteChannel();
        QVERIFY(lint.waitForFinished(30000));
        QVERIFY2(lint.exitCode() == 0, (lint.readAllStandardOutput() + lint.readAllStandardError()).constData());
        const QByteArray om = get(metrics, "application/openmetrics-text;version=1.0.0", &contentType);
        QVERIFY2(contentType.startsWith("application/openmetrics-text"), contentType.constData());
        QVERIFY(om.endsWith("# EOF\n"));

        // A real Prometheus scrapes it (asking for OpenMetrics first) and answers queries on what it scraped.
        QTemporaryDir promDir;
        QTcpServer portPicker;
        QVERIFY(portPicker.listen(QHostAddress::LocalHost, 0));
        const quint16 promPort = portPicker.serverPort();
        portPicker.close();
        QFile config(promDir.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: lockscope\n    static_configs:\n"
                     "      - targets: ['"
            + metrics.host().toUtf8() + ':' + QByteArray::number(metrics.port()) + "']\n");
        config.close();
        QProcess prom;
        prom.setProcessChannelMode(QProcess::MergedChannels);
        prom.start(prometheus,
            { QStringLiteral("--config.file=") + config.fileName(),
                QStringLiteral("--storage.tsdb.path=") + promDir.filePath(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(promPort) });
        QVERIFY(prom.waitForStarted());
        QUrl query(QStringLiteral("http://127.0.0.1:%1/api/v1/query").arg(promPort));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("query"),
            QStringLiteral("lockscope_lock_acquisitions_total{lock=\"%1\"}")
                .arg(QString::fromUtf8(name).replace(QLatin1String("\""), QLatin1String("\\\""))));
        query.setQuery(q);
        QJsonArray result;
        QTRY_VERIFY_WITH_TIMEOUT(
            !(result = json(get(query, {}, nullptr))[QStringLiteral("data")][QStringLiteral("result")].toArray())
                 .isEmpty(),
            60000);
        QCOMPARE(result.size(), 1);
        QCOMPARE(
            result.at(0)[QStringLiteral("metric")][QStringLiteral("kind")].toString(), QStringLiteral("reentrant"));
        QCOMPARE(result.at(0)[QStringLiteral("value")].toArray().at(1).toString(), QStringLiteral("3"));
        // The scrape was OpenMetrics: Prometheus kept the hold-time summary's quantiles.
        q.clear();
        q.addQueryItem(QStringLiteral("query"), QStringLiteral("lockscope_lock_hold_seconds_count"));
        query.setQuery(q);
        result = json(get(query, {}, nullptr))[QStringLiteral("data")][QStringLiteral("result")].toArray();
        QCOMPARE(result.size(), 1);
        QCOMPARE(result.at(0)[QStringLiteral("value")].toArray().at(1).toString(), QStringLiteral("3"));

        prom.terminate();
        QVERIFY(prom.waitForFinished(20000));
        serve.terminate();
        CLI_EXIT(finishCli(serve, 20000), CliExit::Done);
        pacer.watch.terminate();
        CLI_EXIT(finishCli(pacer.watch, 20000), CliExit::Done);
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

    void metricsListenIsChecked()
    {
        CLI_EXIT(runCli(QStringList { QStringLiteral("serve-metrics"), QStringLiteral("--listen"),
                            QStringLiteral("nowhere:12") }
                         + url(m_plain),
                     m_dir),
            CliExit::Usage);
        // A port in use is refused with a clear error.
        QTcpServer busy;
        QVERIFY(busy.listen(QHostAddress::LocalHost, 0));
        const CliRun r = runCli(QStringList { QStringLiteral("serve-metrics"), QStringLiteral("--listen"),
                                    QStringLiteral("127.0.0.1:%1").arg(busy.serverPort()) }
                + url(m_plain),
            m_dir);
        CLI_REFUSED(r, CliExit::Usage, "cannot listen");
    }
};

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
