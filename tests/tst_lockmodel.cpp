// The lock table and timeline models on a live monitor, under QAbstractItemModelTester while locks come, change
// and go in batches: rows follow the server exactly, the TTL counts down from each lock's deadline without any
// signal per row, a renewal's age and lateness follow the same clock, the holders' liveness repaints when the holder
// watch learns something, and a lock's timeline lists what happened to it.
#include "base/durationtext.h"
#include "kinds/lockclassifier.h"
#include "liveness/holderwatch.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "models/locktablemodel.h"
#include "models/locktimelinemodel.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest request(const QByteArray &name, qint64 leaseMs)
{
    AcquireRequest r;
    r.name = name;
    r.leaseMs = leaseMs;
    r.token = "1";
    return r;
}

QSet<QByteArray> modelNames(const LockTableModel &model)
{
    QSet<QByteArray> names;
    for (int row = 0; row < model.rowCount(); ++row)
        names.insert(model.index(row, 0).data(LockTableModel::NameRole).toByteArray());
    return names;
}
} // namespace

class TestLockModel : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void rowsFollowTheServer()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        const QByteArray p = uniqueKey("model") + ":";
        LockClient a(options);
        QSet<QByteArray> expected;
        QHash<QByteArray, QByteArray> owners;
        for (int i = 0; i < 30; ++i) {
            const QByteArray name = p + QByteArray::number(i);
            const AcquireResult r = acquire(a, request(name, 60000));
            QVERIFY(r.acquired);
            owners.insert(name, r.owner);
            expected.insert(name);
        }
        LockMonitor::Options mo;
        mo.pattern = p + "*";
        mo.scanCount = 7;
        MonitorWatch w(options, mo);
        LockTableModel table(&w.monitor);
        LockTimelineModel timeline(&w.monitor);
        QAbstractItemModelTester tableTester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester timelineTester(&timeline, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&table);
        sorted.setSortRole(LockTableModel::SortRole);
        sorted.sort(LockTableModel::Ttl);
        QAbstractItemModelTester sortedTester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(w.start());
        QCOMPARE(table.rowCount(), 30);
        QCOMPARE(modelNames(table), expected);
        QCOMPARE(timeline.rowCount(), 0); // what was there at start is not news

        // Churn: every third released, ten new, six reentered, two whose lease runs out.
        for (int i = 0; i < 30; i += 3) {
            const QByteArray name = p + QByteArray::number(i);
            QCOMPARE(release(a, name, owners.value(name)).outcome, ReleaseResult::Outcome::Released);
            expected.remove(name);
        }
        for (int i = 30; i < 40; ++i) {
            const QByteArray name = p + QByteArray::number(i);
            QVERIFY(acquire(a, request(name, 60000)).acquired);
            expected.insert(name);
        }
        for (int i : { 1, 2, 4, 5, 7, 8 })
            QVERIFY(acquire(a, request(p + QByteArray::number(i), 60000)).acquired);
        // Their leases run out once the table has shown them and the monitor knows when they end (a lease that had to
        // outlast the monitor's first read would fail on a busy machine): shortened to well inside the monitor's
        // tolerance (a twentieth of the lease), then ended.
        QVERIFY(acquire(a, request(p + "short:1", 600000)).acquired);
        QVERIFY(acquire(a, request(p + "short:2", 600000)).acquired);
        QTRY_VERIFY_WITH_TIMEOUT(table.rowOf(p + "short:1") >= 0 && table.rowOf(p + "short:2") >= 0, 30000);
        RawRedis raw(m_server.port());
        for (const QByteArray &name : { p + "short:1", p + "short:2" }) {
            QCOMPARE(raw.command({ "PEXPIRE", name, "20000" }).toInteger(), qint64(1));
            QTRY_VERIFY_WITH_TIMEOUT(w.monitor.record(name)->deadlineMs - monotonicMs() <= 20000, 30000);
            QCOMPARE(raw.command({ "PEXPIRE", name, "1" }).toInteger(), qint64(1));
        }
        QTRY_COMPARE_WITH_TIMEOUT(modelNames(table), expected, 30000);
        QCOMPARE(table.rowCount(), w.monitor.lockCount());
        QCOMPARE(sorted.rowCount(), table.rowCount());

        const int row = table.rowOf(p + "1");
        QVERIFY(row >= 0);
        QTRY_COMPARE(table.index(row, LockTableModel::Count).data().toLongLong(), 2);
        QVERIFY(table.index(row, LockTableModel::Holders)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromLatin1(owners.value(p + "1"))));
        QCOMPARE(table.index(row, LockTableModel::Kind).data(LockTableModel::KindRole).toString(),
            QStringLiteral("reentrant"));

        // The global timeline saw the churn; one lock's timeline shows just its own story.
        QVERIFY(timeline.rowCount() >= 10 + 10 + 6);
        timeline.setLock(p + "short:1");
        QTRY_COMPARE(timeline.rowCount(), 2);
        QCOMPARE(timeline.index(0, LockTimelineModel::Event).data().toString(), QStringLiteral("acquired"));
        QCOMPARE(timeline.index(1, LockTimelineModel::Event).data().toString(), QStringLiteral("expired"));
        QVERIFY2(w.errors.isEmpty(), qPrintable(w.errors.join(QLatin1Char('\n'))));
    }

    void ttlCountsDownFromTheDeadline()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        const QByteArray name = uniqueKey("countdown");
        LockClient a(options);
        QVERIFY(acquire(a, request(name, 60000)).acquired);
        LockMonitor::Options mo;
        mo.pattern = name;
        MonitorWatch w(options, mo);
        LockTableModel table(&w.monitor);
        QVERIFY(w.start());
        QCOMPARE(table.rowCount(), 1);
        const qint64 deadline = table.index(0, 0).data(LockTableModel::DeadlineRole).toLongLong();
        QVERIFY(deadline > 0);

        // A frozen clock, then moved on: the text follows the clock, and not one dataChanged is needed for it.
        qint64 now = deadline - 42000;
        table.setClock([&now] { return now; });
        QCOMPARE(table.index(0, LockTableModel::Ttl).data().toString(), QStringLiteral("42.0 s"));
        QSignalSpy changed(&table, &QAbstractItemModel::dataChanged);
        now += 2500;
        QCOMPARE(table.index(0, LockTableModel::Ttl).data().toString(), QStringLiteral("39.5 s"));
        now = deadline + 1;
        QCOMPARE(table.index(0, LockTableModel::Ttl).data().toString(), QStringLiteral("0.0 s"));
        QCOMPARE(changed.size(), 0);
    }

    // Renewed: the last renewal's age against the period seen, from the record and the model's clock (late once a
    // renewal is a period overdue), no signal per row. Liveness: judged by the holder watch once there is one,
    // repainted when it learns something; nothing on a gone lock's row.
    void renewedAndLivenessColumns()
    {
        const ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        const QByteArray name = uniqueKey("renewed");
        LockMonitor::Options mo;
        mo.pattern = name;
        mo.ttlPollIntervalMs = 250;
        MonitorWatch w(options, mo);
        LockTableModel table(&w.monitor);
        table.setEndedRetention(3600000);
        QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(w.start());
        // Taken while watched, renewed by its watchdog every second.
        LockClientOptions co;
        co.watchdogTimeoutMs = 3000;
        LockClient a(options, co);
        const AcquireResult held = acquire(a, request(name, -1));
        QVERIFY(held.acquired);
        QTRY_VERIFY_WITH_TIMEOUT(table.rowOf(name) >= 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w.monitor.record(name)->renewalPeriodMs() > 0, 20000);
        const int row = table.rowOf(name);
        const auto cell = [&](int column, int role = Qt::DisplayRole) { return table.index(row, column).data(role); };
        // No holder watch: nothing judged.
        QCOMPARE(cell(LockTableModel::Liveness).toString(), QString());
        QCOMPARE(cell(LockTableModel::Name, LockTableModel::LivenessRole).toInt(), -1);

        // A frozen clock half a period after the last renewal, then a period and a half overdue. Nothing here
        // returns to the event loop, so the record stays as read.
        const LockRecord *record = w.monitor.record(name);
        const qint64 period = record->renewalPeriodMs();
        qint64 now = record->lastRenewalAtMs + period / 2;
        table.setClock([&now] { return now; });
        QSignalSpy changed(&table, &QAbstractItemModel::dataChanged);
        QCOMPARE(cell(LockTableModel::Renewed).toString(),
            QStringLiteral("%1 / %2").arg(durationText(period / 2), durationText(period)));
        QCOMPARE(cell(LockTableModel::Name, LockTableModel::MissedRenewalsRole).toDouble(), 0.0);
        const qint64 onTime = cell(LockTableModel::Renewed, LockTableModel::SortRole).toLongLong();
        now = record->lastRenewalAtMs + period * 5 / 2 + 1;
        QCOMPARE(cell(LockTableModel::Renewed).toString(),
            QStringLiteral("%1 / %2 · 1.5 late").arg(durationText(period * 5 / 2 + 1), durationText(period)));
        QCOMPARE(cell(LockTableModel::Name, LockTableModel::MissedRenewalsRole).toDouble(), 1.5);
        QVERIFY(cell(LockTableModel::Renewed, LockTableModel::SortRole).toLongLong() > onTime);
        QVERIFY(cell(LockTableModel::Renewed, Qt::ToolTipRole).toString().contains(QStringLiteral("overdue")));
        QCOMPARE(changed.size(), 0);
        table.setClock(&monotonicMs);

        // The holder watch: the column repaints at once, and whenever the watch learns something.
        HolderWatch watch(w.monitor.connection());
        watch.setMonitor(&w.monitor);
        const auto livenessRepainted = [&changed] {
            for (const QList<QVariant> &signal : std::as_const(changed))
                if (signal.at(0).toModelIndex().column() == LockTableModel::Liveness
                    && signal.at(1).toModelIndex().column() == LockTableModel::Liveness)
                    return true;
            return false;
        };
        table.setHolderWatch(&watch);
        QVERIFY(livenessRepainted());
        QTRY_VERIFY2(cell(LockTableModel::Liveness).toString().startsWith(QStringLiteral("alive (renewing)")),
            qPrintable(cell(LockTableModel::Liveness).toString()));
        QCOMPARE(cell(LockTableModel::Name, LockTableModel::LivenessRole).toInt(), int(LivenessVerdict::State::Alive));
        QCOMPARE(cell(LockTableModel::Liveness, LockTableModel::SortRole).toInt(), 2);
        QVERIFY2(cell(LockTableModel::Liveness, Qt::ToolTipRole).toString().contains(QStringLiteral("renewed ")),
            qPrintable(cell(LockTableModel::Liveness, Qt::ToolTipRole).toString()));
        changed.clear();
        watch.readClients();
        QTRY_VERIFY(livenessRepainted());

        // Gone: its row says how it ended, and judges nothing.
        QCOMPARE(release(a, name, held.owner).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY_WITH_TIMEOUT(table.isEnded(name), 10000);
        QCOMPARE(cell(LockTableModel::Liveness).toString(), QString());
        QCOMPARE(cell(LockTableModel::Renewed).toString(), QString());
        QCOMPARE(cell(LockTableModel::Name, LockTableModel::LivenessRole).toInt(), -1);
        QVERIFY(!cell(LockTableModel::Renewed, LockTableModel::SortRole).isValid());
        table.setHolderWatch(nullptr);
    }
};

QTEST_GUILESS_MAIN(TestLockModel)
#include "tst_lockmodel.moc"
