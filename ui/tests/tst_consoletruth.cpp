// The console tells the truth about waits, its own locks and its state (issue 47), against a real redis-server:
// - a fair lock's waiters are its queue, and its force release names the head's own channel;
// - its own hold with the watchdog switched off says the console did it, and still reads as its own once gone;
// - keyspace events switched on or off while it runs change its mode line;
// - waits per lock (p50, p95, max, the longest going on) with how they were timed;
// - a server never reached, a gone lock's warnings, the Demo clients tab on a real server, Help.
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "helpwindow.h"
#include "models/contentionviews.h"
#include "models/keyedtablemodel.h"
#include "rawsubscriber.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"
#include "translations.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleTruth : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    // Point 7: a fair lock with two queued waiters, each listening on its own channel. The table and the detail pane
    // say 2 waiting, also after the watched rows' waiters are polled (each second), and the force release dialog names
    // the head's own channel, which the force release then wakes.
    void fairLockWaitersAndChannel()
    {
        // Keyspace events and no quick re-scans: a listener count that changes without a write is seen by the poll.
        LockMonitor::Options options;
        options.rescanIntervalMs = 600000;
        Console c(ConnectionOptions::fromUrl(m_server.url()), options);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("edge-fair");
        const QByteArray witness = name + "-polled"; // a lock beside it whose waiters only the poll sees come
        const QByteArray head = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:51",
                         next = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:52";
        const QByteArray queue = "redisson_lock_queue:{" + name + "}",
                         timeouts = "redisson_lock_timeout:{" + name + "}";
        const QByteArray deadline = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        RawSubscriber headListens(m_server.port(), "redisson_lock__channel:{" + name + "}:" + head);
        RawSubscriber nextListens(m_server.port(), "redisson_lock__channel:{" + name + "}:" + next);
        raw.command({ "RPUSH", queue, head, next });
        raw.command({ "ZADD", timeouts, deadline, head, deadline + "1", next });
        holdAsSomeoneElse(raw, name);
        holdAsSomeoneElse(raw, witness);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid() && shownIndex(c, witness).isValid()
                && shownIndex(c, name).data(LockTableModel::KindRole).toString() == QLatin1String("fair"),
            10000);
        activate(c);
        clickRow(c, name);
        const auto waitersShown
            = [&c](const QByteArray &lock) { return c.cell(lock, LockTableModel::Waiters).data().toString(); };
        QTRY_COMPARE(waitersShown(name), QStringLiteral("2"));
        QTRY_VERIFY(c.window.detailPane()->titleLabel()->text().contains(QStringLiteral("2 waiting (queued threads)")));
        QCOMPARE(waitersShown(witness), QStringLiteral("0"));
        RawSubscriber witnessWaits(m_server.port(), "redisson_lock__channel:{" + witness + "}");
        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(witness), QStringLiteral("1"), 10000); // polled
        QCOMPARE(waitersShown(name), QStringLiteral("2"));
        QVERIFY2(c.window.detailPane()->titleLabel()->text().contains(QStringLiteral("2 waiting")),
            qPrintable(c.window.detailPane()->titleLabel()->text()));

        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
        auto *dialog = qobject_cast<ForceReleaseDialog *>(openDialog());
        QVERIFY(dialog);
        QCOMPARE(dialog->wakeChannel(), "redisson_lock__channel:{" + name + "}:" + head);
        QVERIFY2(dialog->text().contains(QString::fromUtf8(dialog->wakeChannel())), qPrintable(dialog->text()));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QCOMPARE(headListens.next(), QByteArray("message:0"));
        raw.command({ "DEL", queue, timeouts, witness });
    }

    // Point 8: the console's own hold, its watchdog switched off with Ctrl+W. The warning says the console did it (not
    // "the holder's watchdog may have stopped"), and once the lease has run out the pane still says the console held
    // it, not that nothing but its shape vouches for it. A hold released from the console likewise.
    void ownHoldIsToldAsOurs()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url())); // a 6 s watchdog lease, renewed every 2 s
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        AcquireRequest request;
        request.name = uniqueKey("edge-ours");
        request.token = "console";
        c.actions->acquire(request);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(request.name).isEmpty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(c.window.locksPane()->currentLock(), request.name, 10000);
        // Renewals seen: the monitor takes it for a watchdog lock, which is when it warns of failing renewals.
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(request.name) && c.monitor.record(request.name)->renewals > 0, 20000);
        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_W, Qt::ControlModifier);
        QTRY_VERIFY(!c.actions->watchdogAction()->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(!c.monitor.record(request.name)->renewalWarning.isEmpty(), 20000);
        c.window.detailPane()->refresh();
        const QString pane = c.window.detailPane()->evidenceLabel()->text();
        QVERIFY2(pane.contains(QStringLiteral("this console switched its watchdog off")), qPrintable(pane));
        QVERIFY2(!pane.contains(QStringLiteral("holder's watchdog")), qPrintable(pane));
        const QString column = c.cell(request.name, LockTableModel::Warnings).data().toString();
        QVERIFY2(column.contains(QStringLiteral("this console switched its watchdog off")), qPrintable(column));

        // The lease runs out: lost, and still told as this console's.
        QTRY_VERIFY_WITH_TIMEOUT(c.sawEvent(LockEvent::Type::Lost, request.name), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(request.name), 10000);
        c.window.detailPane()->refresh();
        const QString gone = c.window.detailPane()->evidenceLabel()->text();
        // How it ended as the monitor judged it: our client's "lost", or the key's own expiry event, whichever came
        // last.
        QVERIFY2(gone.contains(QStringLiteral("Held by this console"))
                && (gone.contains(QStringLiteral("(lost)")) || gone.contains(QStringLiteral("(expired)"))),
            qPrintable(gone));
        QVERIFY2(
            !gone.contains(QStringLiteral("non-Java")) && !gone.contains(QStringLiteral("shape")), qPrintable(gone));

        // Taken again and released from the console.
        c.actions->acquire(request);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(request.name).isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(request.name) >= 0 && !c.shownEnded(request.name), 10000);
        c.window.locksPane()->chooseLock(request.name);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        c.actions->releaseAllAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(request.name), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            c.window.detailPane()->evidenceLabel()->text().contains(QStringLiteral("until it ended (released)")),
            10000);
        QCOMPARE(raw.type(request.name), QByteArray("none"));
    }

    // Point 9: keyspace events switched on while the console runs: the mode line says so without a restart, and a lock
    // taken then shows without waiting for a re-scan; switched off again, the mode line goes back.
    void modeFollowsKeyspaceEvents()
    {
        RedisServer own; // its own: CONFIG SET is server-wide
        QString error;
        QVERIFY2(own.start(&error), qPrintable(error));
        LockMonitor::Options options;
        options.rescanIntervalMs = 600000; // no re-scan finds the lock: only a keyspace event can
        options.configRecheckMs = 300;
        Console c(ConnectionOptions::fromUrl(own.url()), options);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(own.port());
        QTRY_COMPARE_WITH_TIMEOUT(
            c.window.locksPane()->updateModeText(), QStringLiteral("live: wake-up messages + periodic re-scan"), 10000);
        QVERIFY(c.monitor.isSnapshotComplete());

        QVERIFY(!raw.command({ "CONFIG", "SET", "notify-keyspace-events", "Kh$zgx" }).isError());
        QTRY_COMPARE_WITH_TIMEOUT(
            c.window.locksPane()->updateModeText(), QStringLiteral("live: keyspace events"), 10000);
        const QByteArray name = uniqueKey("edge-live");
        holdAsSomeoneElse(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 10000);

        QVERIFY(!raw.command({ "CONFIG", "SET", "notify-keyspace-events", "" }).isError());
        QTRY_COMPARE_WITH_TIMEOUT(
            c.window.locksPane()->updateModeText(), QStringLiteral("live: wake-up messages + periodic re-scan"), 10000);
        raw.command({ "DEL", name });
    }

    // Point 6: waiters that come and go on a held lock (connections subscribed to its channel, as Redisson's waiting
    // JVMs are). Once one has left, the detail pane and the Hot view say how long the waits were, from how many, timed
    // how; the one still waiting is the longest wait going on.
    void waitsAreShown()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("edge-waits");
        holdAsSomeoneElse(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 10000);
        activate(c);
        clickRow(c, name);
        const QByteArray channel = "redisson_lock__channel:{" + name + "}";
        RawSubscriber stays(m_server.port(), channel);
        {
            RawSubscriber leaves(m_server.port(), channel);
            QTRY_COMPARE_WITH_TIMEOUT(
                c.cell(name, LockTableModel::Waiters).data().toString(), QStringLiteral("2"), 10000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(c.cell(name, LockTableModel::Waiters).data().toString(), QStringLiteral("1"), 10000);
        // Counted as what it is: a subscribed connection, not a thread.
        QTRY_VERIFY(c.window.detailPane()->titleLabel()->text().contains(QStringLiteral("1 waiting (connections)")));
        QTRY_VERIFY_WITH_TIMEOUT(
            c.window.detailPane()->evidenceLabel()->text().contains(QStringLiteral("Waits: p50 ")), 10000);
        const QString pane = c.window.detailPane()->evidenceLabel()->text();
        QVERIFY2(pane.contains(QStringLiteral("1 wait timed from subscriptions")), qPrintable(pane));
        QVERIFY2(pane.contains(QStringLiteral("connections")), qPrintable(pane));
        QVERIFY2(pane.contains(QStringLiteral("the longest wait going on")), qPrintable(pane));

        KeyedTableModel *hot = c.window.contentionViews()->hot();
        const auto hotCell = [hot, &name](const char *column) {
            for (int row = 0; row < hot->rowCount(); ++row)
                if (hot->index(row, 0).data(KeyedTableModel::LockRole).toByteArray() == name)
                    return hot->index(row, hot->columnOf(column)).data();
            return QVariant();
        };
        QTRY_VERIFY_WITH_TIMEOUT(hotCell("wait_max_ms").isValid(), 10000);
        QVERIFY(hotCell("wait_p50_ms").toLongLong() <= hotCell("wait_max_ms").toLongLong());
        QVERIFY(hotCell("longest_wait_ms").isValid());
        raw.command({ "DEL", name });
    }

    // Point 9: a server that never answered: the line above the table says nothing has been read yet (not "the rows
    // below are as last read"), and the mode says not connected, not "scanning…".
    void serverNeverReached()
    {
        RedisServer gone;
        QString error;
        QVERIFY2(gone.start(&error), qPrintable(error));
        const QString url = gone.url();
        gone.stop(); // its port answers nobody now
        Console c(ConnectionOptions::fromUrl(url));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        // As the app reports a connection that failed (AppSession: the connection's disconnected()).
        c.window.setConnectionState(
            MainWindow::ConnectionState::Disconnected, QStringLiteral("Connection refused"), 4000);
        LocksPane *locks = c.window.locksPane();
        QVERIFY(locks->isStale());
        QVERIFY2(locks->staleText().contains(QStringLiteral("nothing has been read")), qPrintable(locks->staleText()));
        QVERIFY2(!locks->staleText().contains(QStringLiteral("as last read")), qPrintable(locks->staleText()));
        QCOMPARE(locks->updateModeText(), QStringLiteral("not connected"));

        // A server that was read, then dropped: its rows are as last read.
        Console live(ConnectionOptions::fromUrl(m_server.url()));
        QTRY_VERIFY_WITH_TIMEOUT(live.monitor.isSnapshotComplete(), 10000);
        live.window.setConnectionState(
            MainWindow::ConnectionState::Disconnected, QStringLiteral("Connection reset"), 4000);
        QVERIFY2(live.window.locksPane()->staleText().contains(QStringLiteral("as last read")),
            qPrintable(live.window.locksPane()->staleText()));
        QVERIFY(live.window.locksPane()->updateModeText() != QStringLiteral("not connected"));
    }

    // Point 9: a lock with no TTL warns in red while it is there; once it is gone (and its row kept, selected) the
    // warning goes with it.
    void goneLockWarnsOfNothing()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("truth-nottl");
        QVERIFY(!raw.command({ "HSET", name, kTheirs, "1" }).isError()); // no TTL: it never expires
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 10000);
        activate(c);
        clickRow(c, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.window.detailPane()->evidenceLabel()->text().contains(QStringLiteral("⚠")), 10000);
        raw.command({ "DEL", name });
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(name), 10000);
        c.window.detailPane()->refresh();
        const QString pane = c.window.detailPane()->evidenceLabel()->text();
        QVERIFY2(!pane.contains(QStringLiteral("⚠")), qPrintable(pane));
        QCOMPARE(c.window.detailPane()->lock(), name);
    }

    // Point 9: a demo session's layout showed the Demo clients tab; the console on a real server starts without it,
    // and Help has the user guide (F1), the keyboard shortcuts and the CLI reference.
    void realServerLayoutAndHelp()
    {
        {
            Console demo(ConnectionOptions::fromUrl(m_server.url()));
            DemoEvent e;
            e.kind = DemoEvent::Kind::Acquired;
            e.name = "demo:orders:1";
            e.leaseMs = 30000;
            e.watchdog = true;
            demo.window.addEvent(e);
            auto *dock = demo.window.findChild<QDockWidget *>(QStringLiteral("demoDock"));
            QVERIFY(dock);
            QVERIFY(dock->isVisible());
            demo.window.close(); // the layout is saved as a person leaves
        }
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        auto *dock = c.window.findChild<QDockWidget *>(QStringLiteral("demoDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());

        QTest::keyClick(&c.window, Qt::Key_F1);
        HelpWindow *guide = nullptr;
        QTRY_VERIFY((guide = c.window.findChild<HelpWindow *>()) && guide->isVisible());
        QVERIFY2(guide->browser()->toPlainText().contains(QStringLiteral("LockScope user guide")),
            qPrintable(guide->browser()->toPlainText().left(200)));
        guide->close();
        QTRY_VERIFY(!c.window.findChild<HelpWindow *>());

        QMenu *help = nullptr;
        for (QAction *a : c.window.menuBar()->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Help"))
                help = a->menu();
        QVERIFY(help);
        const auto open = [&](const QString &text) -> QString {
            for (QAction *a : help->actions())
                if (a->text().remove(QLatin1Char('&')) == text)
                    a->trigger();
            HelpWindow *window = nullptr;
            [&] { QTRY_VERIFY((window = c.window.findChild<HelpWindow *>()) && window->isVisible()); }();
            if (!window)
                return {};
            const QString shown = window->browser()->toPlainText();
            window->close();
            [&] { QTRY_VERIFY(!c.window.findChild<HelpWindow *>()); }();
            return shown;
        };
        const QString keys = open(QStringLiteral("Keyboard shortcuts"));
        QVERIFY2(keys.contains(QStringLiteral("Ctrl+Shift+Del")) && keys.contains(QStringLiteral("Force release")),
            qPrintable(keys));
        QVERIFY2(keys.contains(QStringLiteral("Ctrl+N")), qPrintable(keys));
        const QString cli = open(QStringLiteral("lockscope-cli reference"));
        QVERIFY2(cli.contains(QStringLiteral("force-release")), qPrintable(cli.left(200)));
    }
};

QTEST_MAIN(TestConsoleTruth)
#include "tst_consoletruth.moc"
