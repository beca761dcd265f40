// The console keeps its place, against a real redis-server: a lock that goes stays a moment in its row, greyed and
// saying how it ended, and for as long as it is selected; the selection follows the lock by name through a hot lock
// taken and released again and again; a lock this console acquires becomes the selected one.
#include "consolefixture.h"
#include "detailpane.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

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
