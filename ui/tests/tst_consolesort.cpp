// The lock table's header as a person uses it (issue 36), through real mouse clicks on the offscreen window, against a
// real redis-server: a click on a header sorts by that column, a second click the other way, with the sort indicator
// showing it; the rows keep their order while the new one is worked out a slice at a time (the window is not held),
// and the lock the person selected stays selected through every sort.
#include "consolefixture.h"
#include "lockfilterproxy.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QList<QByteArray> shownNames(Console &c)
{
    QList<QByteArray> names;
    const QAbstractItemModel *model = c.window.locksPane()->view()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        names << model->index(row, 0).data(LockTableModel::NameRole).toByteArray();
    return names;
}

// Whether the rows shown go by the column's sort values, one way or the other.
bool sortedBy(Console &c, int column, Qt::SortOrder order)
{
    const QAbstractItemModel *model = c.window.locksPane()->view()->model();
    for (int row = 1; row < model->rowCount(); ++row) {
        const qint64 a = model->index(row - 1, column).data(LockTableModel::SortRole).toLongLong();
        const qint64 b = model->index(row, column).data(LockTableModel::SortRole).toLongLong();
        if (order == Qt::AscendingOrder ? a > b : a < b)
            return false;
    }
    return true;
}

void clickHeader(Console &c, int column)
{
    QHeaderView *header = c.window.locksPane()->view()->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
}
} // namespace

class TestConsoleSort : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
    }

    void headerClicksSortWithoutHoldingTheWindow()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("sort") + ":";
        for (int i = 0; i < 60; ++i) {
            const QByteArray name = p + QByteArray::number(i);
            QVERIFY(!raw.command({ "HSET", name, kTheirs, QByteArray::number(1 + (i * 7) % 5) }).isError());
            QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
        }
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QTableView *view = c.window.locksPane()->view();
        QHeaderView *header = view->horizontalHeader();
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 60, 10000);
        // A small table is sorted by name once its first snapshot is in.
        QTRY_COMPARE(header->sortIndicatorSection(), int(LockTableModel::Name));
        QList<QByteArray> byName = shownNames(c);
        std::sort(byName.begin(), byName.end());
        QTRY_COMPARE(shownNames(c), byName);

        // The person picks a lock with the mouse.
        const QByteArray chosen = p + "17";
        const QModelIndex row = view->model()->index(int(byName.indexOf(chosen)), LockTableModel::Name);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(row).center());
        QCOMPARE(c.window.locksPane()->currentLock(), chosen);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { chosen });

        // Four rows a slice: the click returns at once, the rows as they were, the indicator on the new column.
        c.window.locksPane()->proxy()->filterModel()->setSlice(60000, 4);
        clickHeader(c, LockTableModel::Count);
        QCOMPARE(header->sortIndicatorSection(), int(LockTableModel::Count));
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
        QVERIFY(c.window.locksPane()->proxy()->filterModel()->isMatching());
        QCOMPARE(shownNames(c), byName);
        QTRY_VERIFY(!c.window.locksPane()->proxy()->filterModel()->isMatching());
        QVERIFY(sortedBy(c, LockTableModel::Count, Qt::AscendingOrder));
        QVERIFY(shownNames(c) != byName);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { chosen });
        QCOMPARE(c.window.locksPane()->currentLock(), chosen);

        // Again: the other way.
        clickHeader(c, LockTableModel::Count);
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QVERIFY(c.window.locksPane()->proxy()->filterModel()->isMatching());
        QTRY_VERIFY(!c.window.locksPane()->proxy()->filterModel()->isMatching());
        QVERIFY(sortedBy(c, LockTableModel::Count, Qt::DescendingOrder));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { chosen });
        QCOMPARE(view->currentIndex().data(LockTableModel::NameRole).toByteArray(), chosen);

        for (int i = 0; i < 60; ++i)
            raw.command({ "DEL", p + QByteArray::number(i) });
    }
};

QTEST_MAIN(TestConsoleSort)
#include "tst_consolesort.moc"
