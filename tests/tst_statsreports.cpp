// The statistics engine's reports: its JSON, its metrics page (and the dashboard that reads it), and the stuck locks
// it finds. No Redis, times given.
#include "stats/lockstatistics.h"
#include "stats/openmetrics.h"
#include "stats/statsjson.h"
#include "stats/stuckcheck.h"
#include "statsevents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestStatsReports : public QObject
{
    Q_OBJECT
private slots:
    void jsonSaysWhatIsMeasured();
    void metricsAreBoundedAndEscaped();
    void dashboardQueriesNameServedMetrics();
    void stuckFindingsAndWhenToLookAgain();
};

void TestStatsReports::jsonSaysWhatIsMeasured()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "j", ownerA, 0), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Released, "j", ownerA, 120), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, QByteArray("bin\xff", 4), ownerA, 0), nullptr, FigureSource::Inferred);
    StatsReport report;
    report.nowMs = 1000;
    report.mode = "keyspace-events";
    const QJsonObject o = statsReportJson(s, report);
    const QJsonArray locks = o.value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 2);
    QJsonObject j, bin;
    for (const QJsonValue &v : locks)
        (v[QStringLiteral("name")].toString() == QLatin1String("j") ? j : bin) = v.toObject();
    QCOMPARE(j[QStringLiteral("acquisitions")].toInt(), 1);
    QCOMPARE(j[QStringLiteral("hold_ms")][QStringLiteral("p50")].toInt(), 120);
    QCOMPARE(j[QStringLiteral("hold_ms")][QStringLiteral("samples")].toInt(), 1);
    QCOMPARE(j[QStringLiteral("sources")][QStringLiteral("hold_ms")].toString(), QStringLiteral("measured"));
    QCOMPARE(j[QStringLiteral("sources")][QStringLiteral("owner_changes")].toString(), QStringLiteral("inferred"));
    QCOMPARE(bin[QStringLiteral("name")].toString(), QStringLiteral("bin\\xff"));
    QCOMPARE(bin[QStringLiteral("sources")][QStringLiteral("acquisitions")].toString(), QStringLiteral("inferred"));
    QVERIFY(bin[QStringLiteral("hold_ms")][QStringLiteral("p95")].isNull());
    QCOMPARE(o[QStringLiteral("mode")].toString(), QStringLiteral("keyspace-events"));
}

void TestStatsReports::metricsAreBoundedAndEscaped()
{
    LockStatistics s({}, 0);
    for (int i = 0; i < 50; ++i) {
        const QByteArray name = "lock\"" + QByteArray::number(i) + "\n\\";
        s.addEvent(ev(LockEvent::Type::Acquired, name, ownerA, i), nullptr, FigureSource::Measured);
        s.addEvent(ev(LockEvent::Type::Released, name, ownerA, 100 + i * 2), nullptr, FigureSource::Measured);
    }
    MetricsPage page;
    page.nowMs = 1000;
    page.topLocks = 5;
    page.mode = "keyspace-events";
    page.server = "127.0.0.1:1";
    const QByteArray om = renderMetrics(s, page);
    QVERIFY(om.endsWith("# EOF\n"));
    QCOMPARE(om.count("lockscope_lock_acquisitions_total{"), 5);
    QVERIFY(om.contains("# TYPE lockscope_lock_acquisitions counter\n"));
    QVERIFY(om.contains(R"(lock="lock\"49\n\\")"));
    QVERIFY(!om.contains("lock\"49\n"));
    page.format = MetricsPage::Format::Text;
    const QByteArray text = renderMetrics(s, page);
    QVERIFY(!text.contains("# EOF"));
    QVERIFY(text.contains("# TYPE lockscope_lock_acquisitions_total counter\n"));
    QVERIFY(text.contains("# TYPE lockscope_monitor_info gauge\n"));
    QCOMPARE(metricsFormatFor("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
        MetricsPage::Format::OpenMetrics);
    QCOMPARE(metricsFormatFor("*/*"), MetricsPage::Format::Text);
}

void TestStatsReports::dashboardQueriesNameServedMetrics()
{
    // Every series the shipped Grafana dashboard asks for is one the endpoint serves: a renamed metric fails here.
    LockStatistics s({}, 0);
    LockInfo info = lockInfo("d", 1, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "d", ownerA, 0), &info, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Released, "d", ownerA, 10), &info, FigureSource::Measured);
    MetricsPage page;
    page.format = MetricsPage::Format::Text;
    page.gauges = { KindGauge { "reentrant", "redisson", 1, 1, 0 } };
    const QByteArray text = renderMetrics(s, page);
    QSet<QByteArray> served;
    for (const QByteArray &line : text.split('\n'))
        if (!line.isEmpty() && !line.startsWith('#'))
            served.insert(line.left(line.indexOf(line.contains('{') ? '{' : ' ')));
    QFile file(QStringLiteral(LOCKSCOPE_DASHBOARD));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray dashboard = file.readAll();
    QVERIFY(!QJsonDocument::fromJson(dashboard).isNull());
    static const QRegularExpression metric(QStringLiteral("lockscope_[a-z_]+"));
    int names = 0;
    for (auto it = metric.globalMatch(QString::fromUtf8(dashboard)); it.hasNext(); ++names) {
        const QByteArray name = it.next().captured().toUtf8();
        QVERIFY2(served.contains(name), name.constData());
    }
    QVERIFY(names >= 10);
}

void TestStatsReports::stuckFindingsAndWhenToLookAgain()
{
    const auto reasons = [](const QList<StuckFinding> &found) {
        QList<QByteArray> ids;
        for (const StuckFinding &f : found)
            ids << StuckFinding::reasonId(f.reason);
        return ids;
    };
    const StuckOptions options { 60000, 5000 };
    LockRecord r;
    r.present = true;
    r.info = lockInfo("s", 1, 0);
    r.info.ttlMs = -1;
    r.holdSinceMs = 1000;
    // Held with no TTL: stuck at once; held too long from 61 s on, and that is when to look again.
    QCOMPARE(reasons(findStuck(r, 2000, 0, options)), QList<QByteArray> { "never-expires" });
    QCOMPARE(nextStuckCheckMs(r, 2000, 0, options), 61000);
    QCOMPARE(reasons(findStuck(r, 61000, 0, options)), (QList<QByteArray> { "never-expires", "held-too-long" }));
    QCOMPARE(findStuck(r, 61000, 0, options).at(1).fix, StuckFinding::Fix::FindHolder);
    // A watchdog lock whose renewals stopped: since its lease was last set, as its TTL says (deadline less lease),
    // not since the monitor first saw it (issue 47).
    r.info.ttlMs = 1000;
    r.renewalWarning = QStringLiteral("renewals failing");
    r.deadlineMs = 41000;
    r.leaseMs = 30000;
    QCOMPARE(reasons(findStuck(r, 40000, 0, options)), QList<QByteArray> { "renewals-stopped" });
    QCOMPARE(findStuck(r, 40000, 0, options).first().sinceMs, 41000 - 30000);
    r.deadlineMs = -1;
    r.leaseMs = 0;
    // A hold whose holder carries its own time (ShedLock's lockedAt): held too long from that time on, though the
    // monitor has seen it for a second only.
    LockRecord aged;
    aged.present = true;
    aged.info = lockInfo("aged", 1, 0);
    aged.info.ttlMs = 5000;
    aged.info.holders.first().sinceMs = 100000; // epoch ms
    aged.holdSinceMs = 499000; // monotonic: first seen a second ago
    const QList<StuckFinding> old = findStuck(aged, 500000, 200000, options);
    QCOMPARE(reasons(old), QList<QByteArray> { "held-too-long" });
    QCOMPARE(old.first().sinceMs, 500000 - (200000 - 100000));
    // Free, with a subscriber, for longer than the grace: a missed wake-up; not before.
    LockRecord free;
    free.present = true;
    free.info = lockInfo("f", 0, 2);
    QVERIFY(findStuck(free, 4000, 0, options, 0).isEmpty());
    QCOMPARE(nextStuckCheckMs(free, 4000, 0, options, 0), 5000);
    QCOMPARE(reasons(findStuck(free, 5000, 0, options, 0)), QList<QByteArray> { "waiters-without-holder" });
    // A fair queue whose head's deadline passed: a jam, which its waiters do not repeat.
    free.info.queue = { { ownerA, 900 } };
    QCOMPARE(reasons(findStuck(free, 9000, 1000, options, 0)), QList<QByteArray> { "jammed-queue" });
    QCOMPARE(findStuck(free, 9000, 1000, options, 0).first().fix, StuckFinding::Fix::RepairQueue);
    // Its head still has time: none yet, and a look again when its deadline passes (on the monotonic clock).
    free.info.queue = { { ownerA, 1500 } };
    QVERIFY(findStuck(free, 9000, 1000, options, 0).isEmpty());
    QCOMPARE(nextStuckCheckMs(free, 9000, 1000, options, 0), 9500);
    // Dead readers; and a lock that is gone has nothing to say.
    LockRecord readers;
    readers.present = true;
    readers.info = lockInfo("r", 1, 0);
    readers.info.holders[0].deadReader = true;
    QCOMPARE(reasons(findStuck(readers, 1, 0, options)), QList<QByteArray> { "dead-readers" });
    readers.present = false;
    QVERIFY(findStuck(readers, 1, 0, options).isEmpty());
}

QTEST_GUILESS_MAIN(TestStatsReports)
#include "tst_statsreports.moc"
