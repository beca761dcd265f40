// The console keeps its place, against a real redis-server: a lock that goes stays a moment in its row, greyed and
// saying how it ended, and for as long as it is selected; the selection follows the lock by name through a hot lock
// taken and released again and again; a lock this console acquires becomes the selected one.
#include "consolefixture.h"
#include "detailpane.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsolePlace : public QObject
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

    // Two locks go at once; the table's clock then jumps a minute on. The one nobody selected leaves; the selected
    // one stays, greyed, saying how it ended, until another lock is chosen.
    // A dock pulled up as far as it goes, under the demo's four-line connection header, at 1280x800: the locks table
    // still shows three whole rows and its header, each widget in its own place (issue 47, point 11).
    void aGrownDockLeavesTheTableRows()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("place-dock");
        for (int i = 0; i < 6; ++i)
            raw.command(
                { "HSET", prefix + ':' + QByteArray::number(i), "5b2e8a91-3c47-4f0e-9d6a-7e1c2b3a4d5f:1", "1" });
        c.window.resize(1280, 800);
        c.window.setConnection(m_server.url(),
            QStringLiteral("Demo clients run on your server: they acquire, renew and release locks named demo:*.\n"
                           "12 simulated Redisson clients contend for 4 locks: watchdog holders, fixed-lease holders, "
                           "waiters, reentrant holders, readers and writers on demo:report, a fair queue on "
                           "demo:payroll, and one that crashes and lets its lease run out. Beside them a ShedLock task "
                           "with a cool-down and two python-redis-lock workers, and three workers sharing a Redisson "
                           "semaphore."),
            false);
        c.window.setConnectionState(MainWindow::ConnectionState::Connected);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(prefix + ":5") >= 0, 10000);
        auto *dock = c.window.findChild<QDockWidget *>(QStringLiteral("contentionDock"));
        QVERIFY(dock);
        dock->show();
        dock->raise();
        QTableView *table = c.window.locksPane()->view();
        for (int height : { 450, 600, 800 }) {
            c.window.resizeDocks({ dock }, { height }, Qt::Vertical);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the window lays its docks out anew
            const int rowHeight = table->verticalHeader()->defaultSectionSize();
            QVERIFY2(table->viewport()->height() >= 3 * rowHeight,
                qPrintable(QStringLiteral("dock %1 px: the table shows %2 px of rows, a row is %3 px")
                               .arg(dock->height())
                               .arg(table->viewport()->height())
                               .arg(rowHeight)));
            QVERIFY(table->horizontalHeader()->isVisible() && table->horizontalHeader()->height() > 0);
            // Nothing drawn over anything: the dock starts below the table, the table below its filter.
            const QRect tableRect(table->mapTo(&c.window, QPoint(0, 0)), table->size());
            const QRect dockRect(dock->mapTo(&c.window, QPoint(0, 0)), dock->size());
            QVERIFY(!tableRect.intersects(dockRect));
        }
    }

    void goneLockStaysWhileSelected()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        qint64 offset = 0;
        c.window.locksPane()->model()->setClock([&offset] { return monotonicMs() + offset; });
        RawRedis raw(m_server.port());
        const QByteArray chosen = uniqueKey("place-chosen"), other = uniqueKey("place-other");
        holdAsSomeoneElse(raw, chosen);
        holdAsSomeoneElse(raw, other);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(chosen) >= 0 && c.row(other) >= 0, 10000);
        c.select(chosen);

        raw.command({ "PEXPIRE", chosen, "1" });
        raw.command({ "PEXPIRE", other, "1" });
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(chosen) && c.shownEnded(other), 10000);
        // How it ended, as the monitor judged it (expired with keyspace events; without them a delete it did not see
        // announced reads as a force release).
        QVERIFY2(QStringList({ QStringLiteral("expired"), QStringLiteral("force-released") })
                     .contains(c.cell(chosen, LockTableModel::Holders).data().toString()),
            qPrintable(c.cell(chosen, LockTableModel::Holders).data().toString()));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { chosen });

        // The pointer away from the table (on a real display it may rest anywhere): rows under it never move.
        QTest::mouseMove(c.window.detailPane());
        QTRY_VERIFY(!c.window.locksPane()->view()->viewport()->underMouse());
        offset = 60000;
        QTRY_VERIFY_WITH_TIMEOUT(c.row(other) < 0, 10000); // its few seconds are over
        QVERIFY(c.shownEnded(chosen)); // still there: it is selected
        QCOMPARE(c.selectedNames(), QList<QByteArray> { chosen });
        QCOMPARE(c.window.detailPane()->lock(), chosen);

        // Chosen no more: it goes too.
        const QByteArray next = uniqueKey("place-next");
        holdAsSomeoneElse(raw, next);
        c.select(next);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(chosen) < 0, 10000);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { next });
        raw.command({ "DEL", next });
    }

    // A hot lock, taken and released again and again: it stays selected through every turn, never a neighbour.
    void hotLockStaysSelected()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("place-hot");
        const QByteArray a = prefix + ":a", hot = prefix + ":b", d = prefix + ":c";
        for (const QByteArray &name : { a, hot, d })
            holdAsSomeoneElse(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(a) >= 0 && c.row(hot) >= 0 && c.row(d) >= 0, 10000);
        c.select(hot);
        for (int turn = 0; turn < 5; ++turn) {
            raw.command({ "DEL", hot });
            QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(hot), 10000);
            QCOMPARE(c.selectedNames(), QList<QByteArray> { hot });
            holdAsSomeoneElse(raw, hot);
            QTRY_VERIFY_WITH_TIMEOUT(c.row(hot) >= 0 && !c.shownEnded(hot), 10000);
            QCOMPARE(c.selectedNames(), QList<QByteArray> { hot });
            QCOMPARE(c.window.locksPane()->currentLock(), hot);
        }
        for (const QByteArray &name : { a, hot, d })
            raw.command({ "DEL", name });
    }

    // A lock acquired from the console is the selected one, as soon as its row is there.
    void acquiredLockIsSelected()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray before = uniqueKey("place-before");
        holdAsSomeoneElse(raw, before);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(before) >= 0, 10000);
        c.select(before);
        AcquireRequest request;
        request.name = uniqueKey("place-mine");
        request.token = "1";
        request.leaseMs = -1;
        c.actions->acquire(request);
        QTRY_COMPARE_WITH_TIMEOUT(c.window.locksPane()->currentLock(), request.name, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(c.selectedNames(), QList<QByteArray> { request.name }, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(c.window.detailPane()->lock(), request.name, 10000);
        c.actions->releaseAllAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(request.name).isEmpty(), 10000);
        raw.command({ "DEL", before });
    }
};

QTEST_MAIN(TestConsolePlace)
#include "tst_consoleplace.moc"
