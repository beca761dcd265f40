// The console's sort inside its filter model (issue 36: a click on a header froze the window while
// QSortFilterProxyModel sorted a million rows). Every column, both ways, gives the order the old proxy gave (a
// QSortFilterProxyModel with LockFilterProxy's lessThan, over the same table, is the oracle); a new order is worked out
// a slice at a time while the rows shown keep the old one; the selection stays on its lock; rows that come, change and
// go during and after a sort end up where a fresh sort puts them; a filter and an order go together; and the model
// passes QAbstractItemModelTester throughout. Live monitor on a real redis-server; changes the tests need at an exact
// moment go through the table as the monitor's own signal.
#include "models/lockfiltermodel.h"
#include "models/locktablemodel.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kClientA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";
const QByteArray kClientB = "3b241101-e2bb-4255-8caf-4136c566a962";
const QByteArray kClientC = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b";

// The console's order before issue 36, as LockFilterProxy sorted: a QSortFilterProxyModel over the filter model in
// the table's order, by SortRole, names compared straight from the records.
class OldSortProxy : public QSortFilterProxyModel
{
public:
    OldSortProxy(LockTableModel *table, LockFilterModel *filtered)
        : m_table(table)
        , m_filtered(filtered)
    {
        setSourceModel(filtered);
        setSortRole(LockTableModel::SortRole);
    }

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        if (left.column() == LockTableModel::Name && right.column() == LockTableModel::Name) {
            const LockRecord *a = m_table->recordAt(m_filtered->mapToSource(left).row());
            const LockRecord *b = m_table->recordAt(m_filtered->mapToSource(right).row());
            if (a && b)
                return a->info.name < b->info.name;
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }

private:
    LockTableModel *m_table;
    LockFilterModel *m_filtered;
};

QList<QByteArray> shown(const QAbstractItemModel &model)
{
    QList<QByteArray> names;
    for (int row = 0; row < model.rowCount(); ++row)
        names << model.index(row, 0).data(LockTableModel::NameRole).toByteArray();
    return names;
}

// Whether the model shows the rows in the order a fresh sort by the old proxy gives (invalidated first: the oracle
// places a changed row after its equals, a fresh sort puts ties in table order). Says where they differ.
bool sameOrder(const QAbstractItemModel &model, OldSortProxy &oracle, int column)
{
    oracle.invalidate();
    const QList<QByteArray> ours = shown(model);
    const QList<QByteArray> theirs = shown(oracle);
    if (ours == theirs)
        return true;
    for (qsizetype i = 0; i < qMax(ours.size(), theirs.size()); ++i) {
        if (ours.value(i) != theirs.value(i)) {
            qWarning("column %d: row %lld of %lld/%lld differs: %s (%s) against %s (%s)", column, qlonglong(i),
                qlonglong(ours.size()), qlonglong(theirs.size()), ours.value(i).constData(),
                qPrintable(model.index(int(i), column).data(LockTableModel::SortRole).toString()),
                theirs.value(i).constData(),
                qPrintable(oracle.index(int(i), column).data(LockTableModel::SortRole).toString()));
            break;
        }
    }
    return false;
}

// The oracle set to the same order as the model.
bool sortedAsOracle(LockFilterModel &model, OldSortProxy &oracle, int column, Qt::SortOrder order)
{
    oracle.sort(column, order);
    return sameOrder(model, oracle, column);
}

// count locks <prefix><i> of every shape the columns tell apart: reentrant with counts 1-3, read locks (mode read,
// no reader timeout: a warning), three clients, leases of three lengths or none, many of them equal (ties).
bool seed(RawRedis &raw, const QByteArray &prefix, int count)
{
    int replies = 0;
    for (int i = 0; i < count; ++i) {
        const QByteArray name = prefix + QByteArray::number(i);
        const QByteArray client = i % 3 == 0 ? kClientA : (i % 3 == 1 ? kClientB : kClientC);
        const QByteArray owner = client + ":" + QByteArray::number(1 + i % 4);
        if (i % 5 == 4)
            raw.append({ "HSET", name, "mode", "read", owner, "1" });
        else
            raw.append({ "HSET", name, owner, QByteArray::number(1 + i % 3) });
        ++replies;
        if (i % 7 != 6) {
            raw.append({ "PEXPIRE", name, QByteArray::number(600000 + 100000 * (i % 3)) });
            ++replies;
        }
    }
    raw.flush();
    for (int i = 0; i < replies; ++i) {
        if (raw.readReply(5000).isError())
            return false;
    }
    return true;
}

// What the table shows of a lock that went (its row kept, ended) and came back: the monitor's own signal, so that
// the change lands at an exact moment of a sort. Both change what the row sorts by in most columns.
void endRow(LockMonitor &monitor, const QByteArray &name)
{
    emit monitor.locksChanged({ {}, { name } });
}
void reviveRow(LockMonitor &monitor, const QByteArray &name)
{
    emit monitor.locksChanged({ { name }, {} });
}
} // namespace

class TestLockSortModel : public QObject
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

    // Every column both ways, ended rows among them (no counts or times: last, as QVariant() sorted), small slices
    // so that each sort runs through several merge passes.
    void everyColumnSortsAsTheOldProxyDid()
    {
        const QByteArray p = uniqueKey("columns") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 150));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        table.setOwnClientId(kClientB); // "(ours)" in the holders of a third of them
        table.setEndedRetention(3600000);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 7);
        LockFilterModel tableOrder;
        tableOrder.setSourceModel(&table);
        OldSortProxy oracle(&table, &tableOrder);
        QVERIFY(w.start());
        QTRY_COMPARE(table.rowCount(), 150);
        for (int i = 0; i < 150; i += 13)
            endRow(w.monitor, p + QByteArray::number(i));
        QVERIFY(table.isEnded(p + "0"));

        for (int column = 0; column < LockTableModel::ColumnCount; ++column) {
            for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                model.sort(column, order);
                QTRY_VERIFY(!model.isMatching());
                QVERIFY2(sortedAsOracle(model, oracle, column, order),
                    qPrintable(QStringLiteral("column %1 %2").arg(column).arg(int(order))));
            }
        }
        // Back to the table's order: every row as it is, at once.
        model.sort(-1);
        QVERIFY(!model.isMatching());
        QCOMPARE(shown(model), shown(table));
    }

    // A header click on a table too big for one slice: the rows shown keep their order, turn after turn of the event
    // loop, until the new order is complete; then they change in one layout change, and the selection stays on its
    // lock.
    void sortsInSlicesKeepingTheOldOrderUntilDone()
    {
        const QByteArray p = uniqueKey("slices") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 300));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 10);
        LockFilterModel tableOrder;
        tableOrder.setSourceModel(&table);
        OldSortProxy oracle(&table, &tableOrder);
        QVERIFY(w.start());
        QTRY_COMPARE(table.rowCount(), 300);

        QItemSelectionModel selection(&model);
        const QByteArray chosen = p + "42";
        const QModelIndex before = model.index(table.rowOf(chosen), 0);
        selection.setCurrentIndex(before, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QPersistentModelIndex kept(before);
        const QList<QByteArray> tableOrderNames = shown(model);
        QSignalSpy layouts(&model, &QAbstractItemModel::layoutChanged);
        QSignalSpy applied(&model, &LockFilterModel::filterApplied);

        model.sort(LockTableModel::Name, Qt::DescendingOrder);
        int turns = 0;
        while (model.isMatching()) {
            QCOMPARE(shown(model), tableOrderNames);
            QCOMPARE(layouts.size(), 0);
            QCoreApplication::processEvents();
            QVERIFY(++turns < 1000000);
        }
        // 300 rows, 10 a slice: 30 slices to meet them alone.
        QVERIFY2(turns >= 30, qPrintable(QString::number(turns)));
        QCOMPARE(layouts.size(), 1);
        QCOMPARE(applied.size(), 1);
        QVERIFY(sortedAsOracle(model, oracle, LockTableModel::Name, Qt::DescendingOrder));
        QVERIFY(shown(model) != tableOrderNames);
        QVERIFY(kept.isValid());
        QCOMPARE(kept.data(LockTableModel::NameRole).toByteArray(), chosen);
        QCOMPARE(selection.currentIndex().data(LockTableModel::NameRole).toByteArray(), chosen);
        QCOMPARE(selection.selectedRows().size(), 1);
        QCOMPARE(selection.selectedRows().first().data(LockTableModel::NameRole).toByteArray(), chosen);
    }

    // Rows end, come back, go and come again at every step of a sort (while rows are met, sorted, merged, laid out),
    // before and behind where it has come to; then, sorted, more of the same and real changes in Redis: each row
    // ends up where a fresh sort puts it.
    void rowsThatChangeDuringAndAfterASortLandInPlace()
    {
        const QByteArray p = uniqueKey("during") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 200));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        table.setEndedRetention(3600000);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 5);
        LockFilterModel tableOrder;
        tableOrder.setSourceModel(&table);
        OldSortProxy oracle(&table, &tableOrder);
        QVERIFY(w.start());
        QTRY_COMPARE(table.rowCount(), 200);

        for (const int column :
            { int(LockTableModel::Count), int(LockTableModel::Ttl), int(LockTableModel::Holders) }) {
            const Qt::SortOrder order = column == LockTableModel::Ttl ? Qt::DescendingOrder : Qt::AscendingOrder;
            model.sort(column, order);
            QVERIFY(model.isMatching());
            int turn = 0;
            while (model.isMatching()) {
                const QByteArray near = p + QByteArray::number((turn * 7) % 20); // met early
                const QByteArray far = p + QByteArray::number(180 + (turn * 3) % 20); // met late
                switch (turn % 4) {
                case 0:
                    endRow(w.monitor, near);
                    endRow(w.monitor, far);
                    break;
                case 1:
                    reviveRow(w.monitor, near);
                    break;
                case 2:
                    // Gone from the table, then back at its bottom: a new row.
                    table.setEndedRetention(0);
                    table.setEndedRetention(3600000);
                    reviveRow(w.monitor, far);
                    break;
                default:
                    reviveRow(w.monitor, far);
                    break;
                }
                QCoreApplication::processEvents();
                QVERIFY(++turn < 1000000);
            }
            QVERIFY(turn > 10);
            QVERIFY2(sortedAsOracle(model, oracle, column, order), qPrintable(QString::number(column)));
            QCOMPARE(model.rowCount(), table.rowCount());

            // Sorted: the same changes apply to the rows shown at once.
            for (int i = 0; i < 10; ++i) {
                endRow(w.monitor, p + QByteArray::number(i * 17));
                QVERIFY(sameOrder(model, oracle, column));
                if (i % 2)
                    reviveRow(w.monitor, p + QByteArray::number(i * 17));
                QVERIFY(sameOrder(model, oracle, column));
            }
            table.setEndedRetention(0);
            QVERIFY(sameOrder(model, oracle, column));
            table.setEndedRetention(3600000);
        }

        // Real changes, sorted by count: a lock taken once more moves, a new one comes, one goes.
        model.sort(LockTableModel::Count, Qt::DescendingOrder);
        QTRY_VERIFY(!model.isMatching());
        oracle.sort(LockTableModel::Count, Qt::DescendingOrder);
        const QByteArray held = p + "100"; // count 2
        const QByteArray owner = kClientB + ":1";
        RawRedis writer(m_server.port());
        writer.command({ "HINCRBY", held, owner, "5" });
        writer.command({ "HSET", p + "new", kClientA + ":9", "2" });
        writer.command({ "DEL", p + "101" });
        QTRY_COMPARE(table.sortValueAt(table.rowOf(held), LockTableModel::Count).toLongLong(), 7);
        QTRY_VERIFY(table.rowOf(p + "new") >= 0);
        QTRY_VERIFY(table.isEnded(p + "101"));
        QVERIFY(sameOrder(model, oracle, LockTableModel::Count));
    }

    // A filter and an order together: a client's locks by holder, the filter changed while a sort is worked out and
    // the order while a filter is, locks that an update brings in or takes out of the client's footprint.
    void aFilterAndAnOrderTogether()
    {
        const QByteArray p = uniqueKey("both") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 240));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.setSlice(60000, 9);
        LockFilterModel filtered; // the oracle's rows: the same filter, the table's order
        filtered.setSourceModel(&table);
        OldSortProxy oracle(&table, &filtered);
        QVERIFY(w.start());
        QTRY_COMPARE(table.rowCount(), 240);

        LockFilter byClient;
        byClient.clientId = QString::fromLatin1(kClientA);
        model.sort(LockTableModel::Holders, Qt::DescendingOrder);
        QVERIFY(model.isMatching());
        model.setFilter(byClient); // while the order is worked out
        filtered.setFilter(byClient);
        QTRY_VERIFY(!model.isMatching() && !filtered.isMatching());
        QVERIFY(sortedAsOracle(model, oracle, LockTableModel::Holders, Qt::DescendingOrder));
        QCOMPARE(model.rowCount(), 80);

        LockFilter byName;
        byName.nameGlob = QString::fromUtf8(p + "1*");
        model.setFilter(byName);
        QVERIFY(model.isMatching());
        model.sort(LockTableModel::Ttl, Qt::AscendingOrder); // while the filter is worked out
        filtered.setFilter(byName);
        QTRY_VERIFY(!model.isMatching() && !filtered.isMatching());
        QVERIFY(sortedAsOracle(model, oracle, LockTableModel::Ttl, Qt::AscendingOrder));

        // The client's footprint by count: a lock the client takes over joins, one it gives up leaves.
        model.setFilter(byClient);
        filtered.setFilter(byClient);
        model.sort(LockTableModel::Count, Qt::AscendingOrder);
        QTRY_VERIFY(!model.isMatching() && !filtered.isMatching());
        QVERIFY(sortedAsOracle(model, oracle, LockTableModel::Count, Qt::AscendingOrder));
        RawRedis writer(m_server.port());
        writer.command({ "DEL", p + "1", p + "3" }); // client B's, client A's
        writer.command({ "HSET", p + "1", kClientA + ":2", "3" });
        writer.command({ "HSET", p + "3", kClientB + ":2", "1" });
        QTRY_VERIFY(shown(model).contains(p + "1") && !shown(model).contains(p + "3"));
        QTRY_VERIFY(shown(filtered).contains(p + "1") && !shown(filtered).contains(p + "3"));
        QVERIFY(sameOrder(model, oracle, LockTableModel::Count));

        // No filter, no order: every row as the table has it, at once.
        model.setFilter({});
        model.sort(-1);
        QVERIFY(!model.isMatching());
        QCOMPARE(shown(model), shown(table));
    }

    // Sorted before the first snapshot: rows that stream in go to their places, a few at a time or many.
    void rowsStreamingIntoASortedTable()
    {
        const QByteArray p = uniqueKey("stream") + ":";
        RawRedis raw(m_server.port());
        QVERIFY(seed(raw, p, 260));
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), fastMonitorOptions(p + "*"));
        LockTableModel table(&w.monitor);
        LockFilterModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSourceModel(&table);
        model.sort(LockTableModel::Name, Qt::AscendingOrder);
        QVERIFY(!model.isMatching()); // an empty table: sorted at once
        LockFilterModel tableOrder;
        tableOrder.setSourceModel(&table);
        OldSortProxy oracle(&table, &tableOrder);
        oracle.sort(LockTableModel::Name, Qt::AscendingOrder);
        QVERIFY(w.start());
        QTRY_COMPARE(model.rowCount(), 260);
        QVERIFY(sameOrder(model, oracle, LockTableModel::Name));
        // One at a time, after the snapshot.
        RawRedis writer(m_server.port());
        for (const char *suffix : { "0a", "zz", "150b" }) {
            writer.command({ "HSET", p + suffix, kClientC + ":1", "1" });
            QTRY_COMPARE(model.rowCount(), table.rowCount());
            QTRY_VERIFY(table.rowOf(p + suffix) >= 0);
            QVERIFY(sameOrder(model, oracle, LockTableModel::Name));
        }
    }
};

QTEST_GUILESS_MAIN(TestLockSortModel)
#include "tst_locksortmodel.moc"
