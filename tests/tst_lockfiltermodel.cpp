// The console's lock filter on a live monitor (issue 18: a million rows without freezing the window). A new filter is
// matched a slice at a time while the rows of the one before stay on screen; locks that come, change and go meanwhile
// end up exactly where a filter of the whole table would put them; the selection stays on its lock; and the model
// passes QAbstractItemModelTester throughout.
#include "models/lockfiltermodel.h"
#include "models/locktablemodel.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kClientA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";
const QByteArray kClientB = "3b241101-e2bb-4255-8caf-4136c566a962";

// What the filter must show: every row of the whole table that passes it, nothing twice.
QSet<QByteArray> expected(const LockTableModel &table, const LockFilter &filter)
{
    LockFilterMatch match;
    match.set(filter);
    QSet<QByteArray> names;
    for (int row = 0; row < table.rowCount(); ++row) {
        if (match.accepts(*table.recordAt(row)))
            names.insert(table.nameAt(row));
    }
    return names;
}

QList<QByteArray> shown(const LockFilterModel &model)
{
    QList<QByteArray> names;
    for (int row = 0; row < model.rowCount(); ++row)
        names << model.index(row, 0).data(LockTableModel::NameRole).toByteArray();
    return names;
}

bool sameRows(const LockFilterModel &model, const LockTableModel &table, const LockFilter &filter)
{
    const QList<QByteArray> rows = shown(model);
    return QSet<QByteArray>(rows.cbegin(), rows.cend()) == expected(table, filter)
        && QSet<QByteArray>(rows.cbegin(), rows.cend()).size() == rows.size();
}

void hold(RawRedis &raw, const QByteArray &name, const QByteArray &client)
{
    raw.append({ "DEL", name });
    raw.append({ "HSET", name, client + ":1", "1" });
    raw.append({ "PEXPIRE", name, "600000" });
}

// count locks <prefix><i>, the odd ones held by client B when twoClients, every other by client A.
bool seed(RawRedis &raw, const QByteArray &prefix, int count, bool twoClients)
{
    for (int i = 0; i < count; ++i)
        hold(raw, prefix + QByteArray::number(i), twoClients && i % 2 ? kClientB : kClientA);
    raw.flush();
    for (int i = 0; i < count * 3; ++i) {
        if (raw.readReply(5000).isError())
            return false;
    }
    return true;
}
} // namespace

class TestLockFilterModel : public QObject
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

    void matchesInSlicesWhileLocksComeAndGo()
    {
        const QByteArray p = uniqueKey("filter") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 400, true));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 10); // ten rows a slice: forty slices, each after the event loop's turn
        QVERIFY(w.start());
        QCOMPARE(model.rowCount(), 400); // no filter: every row passes through

        // The person selected p:10 and types a filter (one that every name passes, so a row the matching skips is
        // missed for sure).
        QPersistentModelIndex selected = model.index(table.rowOf(p + "10"), 0);
        QCOMPARE(selected.data(LockTableModel::NameRole).toByteArray(), p + "10");
        QSignalSpy applied(&model, &LockFilterModel::filterApplied);
        LockFilter byName;
        byName.nameGlob = QString::fromUtf8(p + "?*");
        model.setFilter(byName);
        // One slice ran: the window has its turn again, and the rows shown are still the old ones.
        QVERIFY(model.isMatching());
        QCOMPARE(model.rowCount(), 400);
        QCOMPARE(applied.size(), 0);

        // Locks go above and below the rows matched so far, and others come, while the filter is being matched.
        QList<QByteArray> gone { table.nameAt(2), table.nameAt(5), table.nameAt(300) };
        gone.removeAll(p + "10");
        emit w.monitor.locksChanged({ {}, gone });
        RawRedis writer(m_server.port());
        writer.command({ "HSET", p + "1000", kClientA + ":1", "1" });
        writer.command({ "HSET", p + "2000", kClientA + ":1", "1" });
        QTRY_VERIFY(!model.isMatching());
        QTRY_VERIFY(table.rowOf(p + "1000") >= 0 && table.rowOf(p + "2000") >= 0);
        QCOMPARE(model.rowCount(), 400 - int(gone.size()) + 2);
        QVERIFY(sameRows(model, table, byName));
        QCOMPARE(applied.size(), 1);
        // The selection stayed on its lock.
        QVERIFY(selected.isValid());
        QCOMPARE(selected.data(LockTableModel::NameRole).toByteArray(), p + "10");

        // A client's footprint: locks taken over by that client join, locks it gives up leave.
        LockFilter byClient;
        byClient.clientId = QString::fromLatin1(kClientA);
        model.setFilter(byClient);
        QTRY_VERIFY(!model.isMatching());
        QVERIFY(sameRows(model, table, byClient));
        QVERIFY(!shown(model).contains(p + "21"));
        writer.command({ "DEL", p + "21", p + "20" });
        writer.command({ "HSET", p + "21", kClientA + ":1", "1" });
        writer.command({ "HSET", p + "20", kClientB + ":1", "1" });
        QTRY_VERIFY(shown(model).contains(p + "21"));
        QTRY_VERIFY(!shown(model).contains(p + "20"));
        QVERIFY(sameRows(model, table, byClient));

        // Cleared: every row again, at once.
        model.setFilter({});
        QVERIFY(!model.isMatching());
        QCOMPARE(model.rowCount(), table.rowCount());
        QVERIFY(selected.isValid());
        QCOMPARE(selected.data(LockTableModel::NameRole).toByteArray(), p + "10");
    }

    // The pinned lock (the one a person chose) passes any filter, marked HiddenByFilterRole while the filter alone
    // would hide it: pinned before a filter, moved while a filter is being matched a slice at a time, moved to a row
    // the filter passes anyway, cleared. The rows are always the filter's plus the pinned one (issue 47).
    void thePinnedLockStaysShown()
    {
        const QByteArray p = uniqueKey("pin") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 200, true));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 10);
        QVERIFY(w.start());
        const auto hidden = [&model](const QByteArray &name) {
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(LockTableModel::NameRole).toByteArray() == name)
                    return model.index(row, 0).data(LockFilterModel::HiddenByFilterRole).toBool();
            return false;
        };
        const auto filtered = [&](const LockFilter &filter, const QByteArray &pinned) {
            QSet<QByteArray> names = expected(table, filter);
            if (!pinned.isEmpty() && table.rowOf(pinned) >= 0)
                names.insert(pinned);
            const QList<QByteArray> rows = shown(model);
            return QSet<QByteArray>(rows.cbegin(), rows.cend()) == names && names.size() == rows.size();
        };

        // Pinned first, then a client's footprint that does not pass it (the odd locks are client B's).
        model.setPinned(p + "3");
        LockFilter byClient;
        byClient.clientId = QString::fromLatin1(kClientA);
        model.setFilter(byClient);
        QTRY_VERIFY(!model.isMatching());
        QVERIFY(filtered(byClient, p + "3"));
        QVERIFY(hidden(p + "3"));
        QVERIFY(!hidden(p + "2"));

        // Moved to another hidden lock: the old row goes, the new one comes, each at once.
        model.setPinned(p + "5");
        QVERIFY(filtered(byClient, p + "5"));
        QVERIFY(hidden(p + "5"));
        // Moved to a lock the filter passes: shown unmarked, and the hidden one goes.
        model.setPinned(p + "4");
        QVERIFY(filtered(byClient, p + "4"));
        QVERIFY(!hidden(p + "4"));

        // A new filter being matched a slice at a time while the pin moves: its rows, plus the pin at the end.
        LockFilter byName;
        byName.nameGlob = QString::fromUtf8(p + "1*");
        model.setFilter(byName);
        QVERIFY(model.isMatching());
        model.setPinned(p + "7");
        QTRY_VERIFY(!model.isMatching());
        QVERIFY(filtered(byName, p + "7"));
        QVERIFY(hidden(p + "7"));
        QVERIFY(!shown(model).contains(p + "4"));

        // The pinned lock's data changes so that a data filter would drop it: it stays.
        model.setFilter(byClient);
        QTRY_VERIFY(!model.isMatching());
        QVERIFY(filtered(byClient, p + "7"));
        model.setPinned(p + "8"); // client A's
        RawRedis writer(m_server.port());
        writer.command({ "DEL", p + "8" });
        writer.command({ "HSET", p + "8", kClientB + ":1", "1" });
        QTRY_VERIFY(hidden(p + "8"));
        QVERIFY(filtered(byClient, p + "8"));

        // No pin: the filter's rows only.
        model.setPinned({});
        QVERIFY(filtered(byClient, {}));
        QVERIFY(!shown(model).contains(p + "8"));
    }

    // A filter typed over a small table (one slice) applies before setFilter returns: nothing to wait for.
    void aSmallTableIsFilteredAtOnce()
    {
        const QByteArray p = uniqueKey("small") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 30, false));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        QVERIFY(w.start());
        LockFilter filter;
        filter.nameGlob = QString::fromUtf8(p + "[12]?");
        model.setFilter(filter);
        QVERIFY(!model.isMatching());
        QCOMPARE(model.rowCount(), 20);
        QVERIFY(sameRows(model, table, filter));
    }
};

QTEST_GUILESS_MAIN(TestLockFilterModel)
#include "tst_lockfiltermodel.moc"
