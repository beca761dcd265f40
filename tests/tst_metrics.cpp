// serve-metrics as its users meet it: scraped by a real Prometheus server, its page linted by promtool, while a paced
// Redisson workload runs; and its --listen checked.
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

class TestMetrics : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    RedisServer m_plain; // sends no keyspace events
    QTemporaryDir m_dir;

    QStringList url(const RedisServer &server) const { return { QStringLiteral("--url"), server.url() }; }

    // serve-metrics on a free loopback port for the locks under prefix, once it follows changes; its /metrics URL.
    QUrl startServe(QProcess &serve, const QString &prefix)
    {
        startCli(serve,
            QStringList { QStringLiteral("--json"), QStringLiteral("serve-metrics"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--pattern"), prefix + QLatin1Char('*') }
                + url(m_server),
            m_dir);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(serve.canReadLine(), 20000); }();
        const QUrl metrics(json(serve.readLine())[QStringLiteral("listening")].toString());
        // A workload starts once serve-metrics follows changes: an acquisition before that is not one it saw.
        waitForStatus(serve, "watching 0 lock");
        return metrics;
    }

    // A real Prometheus scraping target every second (and evaluating extra's rules as often); its port, 0 on failure.
    static quint16 startPrometheus(QProcess &prom, const QTemporaryDir &dir, const QString &prometheus,
        const QUrl &target, const QByteArray &extra)
    {
        QTcpServer portPicker;
        if (!portPicker.listen(QHostAddress::LocalHost, 0))
            return 0;
        const quint16 promPort = portPicker.serverPort();
        portPicker.close();
        QFile config(dir.filePath(QStringLiteral("prometheus.yml")));
        if (!config.open(QIODevice::WriteOnly))
            return 0;
        config.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + extra
            + "scrape_configs:\n  - job_name: lockscope\n    static_configs:\n      - targets: ['"
            + target.host().toUtf8() + ':' + QByteArray::number(target.port()) + "']\n");
        config.close();
        prom.setProcessChannelMode(QProcess::MergedChannels);
        prom.start(prometheus,
            { QStringLiteral("--config.file=") + config.fileName(),
                QStringLiteral("--storage.tsdb.path=") + dir.filePath(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(promPort) });
        return prom.waitForStarted() ? promPort : 0;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY2(m_plain.start(&error), qPrintable(error));
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
        const QUrl metrics = startServe(serve, prefix);
        QVERIFY2(metrics.isValid() && metrics.host() == QLatin1String("127.0.0.1"), qPrintable(metrics.toString()));

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
        startPacer(pacer, m_server, prefix + QLatin1Char('*'), m_dir);
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
        QProcess prom;
        const quint16 promPort = startPrometheus(prom, promDir, prometheus, metrics, {});
        QVERIFY(promPort != 0);
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

    void shippedAlertRulesFireOnATakeover()
    {
        // The rules the package ships, as an operator loads them: promtool accepts them, and a real Prometheus
        // evaluating them over serve-metrics fires "owner changed without a release" when a lock changes hands with
        // no release between (the old holder's lease gone while it may still believe it holds it), and reports a lock
        // that never expires as stuck, problem by problem.
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        QVERIFY2(!prometheus.isEmpty() && !promtool.isEmpty(),
            "prometheus and promtool are not installed (scripts/dev setup installs them)");
        const QString rules = QStringLiteral(LOCKSCOPE_ALERT_RULES);
        QProcess check;
        check.start(promtool, { QStringLiteral("check"), QStringLiteral("rules"), rules });
        QVERIFY(check.waitForFinished(30000));
        QVERIFY2(check.exitCode() == 0, (check.readAllStandardOutput() + check.readAllStandardError()).constData());

        RawRedis raw(m_server.port());
        const QString prefix = uniqueName("alerts");
        const QByteArray name = (prefix + QStringLiteral(":orders")).toUtf8();
        const QByteArray noTtl = (prefix + QStringLiteral(":forever")).toUtf8();
        QProcess serve;
        const QUrl metrics = startServe(serve, prefix);
        QNetworkAccessManager http;
        const auto get = [&http](const QUrl &url) {
            QNetworkReply *reply = http.get(QNetworkRequest(url));
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            const QByteArray body = reply->readAll();
            reply->deleteLater();
            return body;
        };
        // A hold serve-metrics has seen (its acquisition counted), and a lock with no TTL.
        acquire(raw, name, kOwnerA, "600000");
        acquire(raw, noTtl, kOwnerB, {});
        QTRY_VERIFY_WITH_TIMEOUT(
            get(metrics).contains("lockscope_acquisitions_total{kind=\"reentrant\",library=\"redisson\"} 2"), 30000);
        // Judged between scrapes, in rounds 15 s apart: the next round counts it.
        QTRY_VERIFY_WITH_TIMEOUT(get(metrics).contains("lockscope_stuck_locks{problem=\"never-expires\"} 1"), 60000);

        QTemporaryDir promDir;
        QProcess prom;
        const quint16 promPort
            = startPrometheus(prom, promDir, prometheus, metrics, "rule_files:\n  - '" + rules.toUtf8() + "'\n");
        QVERIFY(promPort != 0);
        const QUrl alerts(QStringLiteral("http://127.0.0.1:%1/api/v1/alerts").arg(promPort));
        QUrl query(QStringLiteral("http://127.0.0.1:%1/api/v1/query").arg(promPort));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("query"), QStringLiteral("lockscope_owner_changes_total"));
        query.setQuery(q);
        // Prometheus has the counter at 0 before the takeover: its increase is what the rule sees.
        QTRY_VERIFY_WITH_TIMEOUT(
            !json(get(query))[QStringLiteral("data")][QStringLiteral("result")].toArray().isEmpty(), 60000);
        const auto firing = [&](const QString &alert) {
            const QJsonArray list = json(get(alerts))[QStringLiteral("data")][QStringLiteral("alerts")].toArray();
            for (const QJsonValue &a : list)
                if (a[QStringLiteral("labels")][QStringLiteral("alertname")].toString() == alert
                    && a[QStringLiteral("state")].toString() == QStringLiteral("firing"))
                    return true;
            return false;
        };
        QVERIFY(!firing(QStringLiteral("LockScopeOwnerChangedWithoutRelease")));

        // The takeover: the lock changes hands in one step, the key never gone and no release published between.
        raw.command({ "MULTI" });
        raw.command({ "HSET", name, kOwnerB, "1" });
        raw.command({ "HDEL", name, kOwnerA });
        raw.command({ "PEXPIRE", name, "600000" });
        raw.command({ "EXEC" });
        QTRY_VERIFY_WITH_TIMEOUT(
            get(metrics).contains("lockscope_owner_changes_total{kind=\"reentrant\",library=\"redisson\"} 1"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(firing(QStringLiteral("LockScopeOwnerChangedWithoutRelease")), 60000);
        // The never-expiring lock is pending (it fires after its five minutes), named by its problem.
        const QJsonArray list = json(get(alerts))[QStringLiteral("data")][QStringLiteral("alerts")].toArray();
        bool stuckPending = false;
        for (const QJsonValue &a : list)
            stuckPending = stuckPending
                || (a[QStringLiteral("labels")][QStringLiteral("alertname")].toString()
                        == QStringLiteral("LockScopeStuckLock")
                    && a[QStringLiteral("labels")][QStringLiteral("problem")].toString()
                        == QStringLiteral("never-expires"));
        QVERIFY2(stuckPending, QJsonDocument(list).toJson(QJsonDocument::Compact).constData());

        prom.terminate();
        QVERIFY(prom.waitForFinished(20000));
        serve.terminate();
        CLI_EXIT(finishCli(serve, 20000), CliExit::Done);
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

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
