// View › Blockers (issue 49 point 5) as a person uses it: opened from the menu, the wait-for tree of a fair lock whose
// holder keeps a queued thread waiting, the root first with the waiter under it; Return on a row shows its lock in the
// table, where its guarded actions are. A real redis-server; the fair lock written as Redisson leaves it.
#include "consolefixture.h"

#include "blockerspane.h"
#include "models/blockersmodel.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QTreeView>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:31";
const QByteArray kWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";

QAction *menuAction(QMenuBar *bar, const QString &menu, const QString &text)
{
    for (QAction *top : bar->actions())
        if (top->text().remove(QLatin1Char('&')) == menu && top->menu())
            for (QAction *a : top->menu()->actions())
                if (a->text().remove(QLatin1Char('&')) == text)
                    return a;
    return nullptr;
}
} // namespace

class TestConsoleBlockers : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void theTreeShowsWhoWaitsForWhom()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("console-blockers");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        raw.command({ "RPUSH", "redisson_lock_queue:{" + name + "}", kWaiter });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + name + "}",
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kWaiter });
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 30000);

        QAction *open = menuAction(c.window.menuBar(), QStringLiteral("View"), QStringLiteral("Blockers"));
        QVERIFY(open);
        c.window.blockersDock()->hide();
        open->trigger();
        QVERIFY(c.window.blockersDock()->isVisible());
        BlockersPane *pane = c.window.blockersPane();
        QVERIFY(pane);
        BlockersModel *model = pane->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 30000);
        const QModelIndex root = model->index(0, BlockersModel::Who);
        QCOMPARE(root.data(BlockersModel::OwnerRole).toByteArray(), kHolder);
        QCOMPARE(model->index(0, BlockersModel::Waiting).data().toString(), QStringLiteral("1"));
        QCOMPARE(model->rowCount(root), 1);
        const QModelIndex waiter = model->index(0, BlockersModel::Who, root);
        QCOMPARE(waiter.data(BlockersModel::OwnerRole).toByteArray(), kWaiter);
        QVERIFY(pane->view()->isExpanded(root)); // a new tree is shown whole
        // Its verdict, and what frees it, on the root's row.
        QVERIFY(!model->index(0, BlockersModel::Liveness).data().toString().isEmpty());
        QVERIFY(!model->index(0, BlockersModel::Action).data().toString().isEmpty());

        // Return on the waiter's row: its lock is chosen in the table.
        pane->view()->setFocus();
        pane->view()->setCurrentIndex(waiter);
        QTest::keyClick(pane->view(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(c.window.locksPane()->currentLock(), name, 10000);
        // It only reads.
        QCOMPARE(raw.command({ "LLEN", "redisson_lock_queue:{" + name + "}" }).toInteger(), 1);
        QCOMPARE(raw.command({ "HGET", name, kHolder }).bytes(), "1");
    }
};

QTEST_MAIN(TestConsoleBlockers)
#include "tst_consoleblockers.moc"
