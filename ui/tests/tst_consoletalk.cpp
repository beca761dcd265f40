// The console says what it is doing, as a person reads it, against a real redis-server: its own hold is "held by
// this console" and its watchdog column follows Ctrl+W at once; the force-release dialog names the waiters it wakes,
// their channel and the audit log, and the status bar never claims waiters that were not there; an acquire on an
// application's hash says it is no lock; the table's Copy entries and View › Audit log; quitting while holding asks
// first, and Return there quits nothing; the connection header says what went wrong and what comes next.
#include "acquiredialog.h"
#include "auditlogview.h"
#include "consolefixture.h"
#include "copyactions.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"
#include "translations.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {

AcquireRequest watchdogHold(const QByteArray &name)
{
    AcquireRequest r;
    r.name = name;
    r.token = "1";
    r.leaseMs = -1;
    return r;
}

QAction *actionNamed(QWidget *widget, const QString &text)
{
    for (QAction *a : widget->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}
} // namespace

class TestConsoleTalk : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    static void acquire(Console &c, const AcquireRequest &request)
    {
        c.actions->acquire(request);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(request.name).isEmpty(), 10000);
    }
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
        // As the app does: English, with its plural forms ("1 waiter", "2 waiters").
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    // The console's own hold: "held by this console", with high confidence, never the classifier's guess about owner
    // ids that are not Java's; its watchdog column says on, and off the moment Ctrl+W switches it off.
    void ownHoldIsOurs()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        const QByteArray name = uniqueKey("talk-ours");
        acquire(c, watchdogHold(name));
        QTRY_VERIFY_WITH_TIMEOUT(c.levelsShown(name, c.actions->ownHold(name)) == 1, 10000);
        c.select(name);
        const auto detailText = [&c] {
            QString text;
            for (QLabel *label : c.window.detailPane()->findChildren<QLabel *>())
                text += label->text();
            return text;
        };
        QTRY_VERIFY_WITH_TIMEOUT(detailText().contains(QStringLiteral("Held by this console")), 10000);
        const QString why = detailText();
        QVERIFY2(!why.contains(QStringLiteral("non-Java")) && !why.contains(QStringLiteral("low confidence")),
            qPrintable(why));

        // Looked up at each try: an index of the sorted, filtered table is stale once rows move or arrive.
        QTRY_COMPARE_WITH_TIMEOUT(
            c.cell(name, LockTableModel::Watchdog).data().toString(), QStringLiteral("on (ours)"), 10000);
        // The detail pane's header agrees with the column (it said "watchdog unknown" beside "on (ours)").
        QVERIFY2(detailText().contains(QStringLiteral("watchdog on (ours)")), qPrintable(detailText()));
        c.window.locksPane()->view()->setFocus();
        QTest::keySequence(&c.window, c.actions->watchdogAction()->shortcut());
        QVERIFY(!c.actions->watchdogAction()->isChecked());
        // At once: no wait for the monitor to notice renewals stopped.
        QCOMPARE(c.cell(name, LockTableModel::Watchdog).data().toString(), QStringLiteral("off (ours)"));
        QVERIFY2(detailText().contains(QStringLiteral("watchdog off (ours)")), qPrintable(detailText()));
        c.actions->releaseAllAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(name).isEmpty(), 10000);
    }

    // The dialog says whom the delete wakes (the listeners on the lock's channel, as read) and where it is recorded;
    // a lock without TTL reads "no TTL", and an owner id is never broken over two lines. After the delete, the
    // status bar says waiters were woken only when there were some.
    void forceReleaseSaysWhomItWakes()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-wake");
        holdAsSomeoneElse(raw, name);
        RawSubscriber waiter(m_server.port(), "redisson_lock__channel:{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && c.monitor.record(name)->info.waiters == 1, 10000);
        c.select(name);
        c.actions->forceReleaseAction()->trigger();
        auto *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QVERIFY2(
            dialog->text().contains(QStringLiteral("The 1 waiter listening on redisson_lock__channel:{%1} is woken")
                                        .arg(QString::fromUtf8(name))),
            qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("redisson_lock__channel:{") + QString::fromUtf8(name)),
            qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(auditPath()), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("white-space:nowrap\">") + QString::fromLatin1(kTheirs)),
            qPrintable(dialog->text()));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_VERIFY(c.window.statusMessage().contains(QStringLiteral("waiter on redisson_lock__channel")));
        // Events and the timeline say who deleted it: this console, not its holder releasing it.
        QTRY_VERIFY_WITH_TIMEOUT(c.sawEvent(LockEvent::Type::ForceReleased, name), 10000);
        const QList<LockEvent> &timeline = c.monitor.record(name)->timeline;
        QVERIFY(!timeline.isEmpty());
        QCOMPARE(timeline.last().type, LockEvent::Type::ForceReleased);
        QCOMPARE(timeline.last().detail, QStringLiteral("force-released by this console"));
        QVERIFY(!c.sawEvent(LockEvent::Type::Released, name));

        // Nobody listening, and no TTL: "no TTL", never "TTL no TTL"; afterwards "nobody was waiting".
        const QByteArray lonely = uniqueKey("talk-lonely");
        QVERIFY(!raw.command({ "HSET", lonely, kTheirs, "1" }).isError());
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(lonely) && c.monitor.record(lonely)->info.waiters == 0, 10000);
        c.select(lonely);
        c.actions->forceReleaseAction()->trigger();
        dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QVERIFY2(
            dialog->text().contains(QStringLiteral("no TTL")) && !dialog->text().contains(QStringLiteral("TTL no")),
            qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("Nobody is listening")), qPrintable(dialog->text()));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(lonely), QByteArray("none"), 10000);
        QTRY_VERIFY(c.window.statusMessage().contains(QStringLiteral("nobody was waiting")));
        QVERIFY(!c.window.statusMessage().contains(QStringLiteral("were woken")));
    }

    // A console that listens on shard channels (sharded publishing: a Redisson cluster on Redis 7) has its own
    // subscriber on the lock's shard channel: the server counts it, and it is no waiter. Releasing our hold with
    // nobody waiting says so, not "the 1 waiter(s) ... were woken".
    void ownShardEarIsNoWaiter()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.publishMode = PublishMode::Sharded;
        Console c(options, Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-shard");
        acquire(c, watchdogHold(name));
        const QByteArray channel = "redisson_lock__channel:{" + name + "}";
        const auto shardSubscribers = [&raw, &channel] {
            const RedisValue v = raw.command({ "PUBSUB", "SHARDNUMSUB", channel });
            return v.size() == 2 ? v.at(1).toInteger() : -1;
        };
        // The monitor follows the lock's shard channel once it has read the lock.
        QTRY_COMPARE_WITH_TIMEOUT(shardSubscribers(), qint64(1), 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        c.actions->releaseAllAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(name).isEmpty(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(c.window.statusMessage().contains(QStringLiteral("nobody was waiting")),
            qPrintable(c.window.statusMessage()), 10000);
        QVERIFY2(!c.window.statusMessage().contains(QStringLiteral("woken")), qPrintable(c.window.statusMessage()));
    }

    // Our hold's key deleted by someone: "lost" as soon as the console sees the key go, not at the watchdog's next
    // tick (20 s away with a minute's lease).
    void lostWhenTheKeyGoes()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-lost");
        acquire(c, watchdogHold(name));
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0 && !c.shownEnded(name), 10000);
        raw.command({ "DEL", name });
        QTRY_VERIFY_WITH_TIMEOUT(c.sawEvent(LockEvent::Type::Lost, name), 10000);
        QTRY_VERIFY(c.actions->ownHold(name).isEmpty());
    }

    // An acquire on an application's hash: the status bar says what is there and that the acquire was refused, not
    // that someone holds it (nor that a force release was refused: issue 47).
    void acquireOnWhatIsNoLock()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-user");
        raw.command({ "HSET", name, "name", "ann", "email", "a@example.org" });
        c.actions->acquire(watchdogHold(name));
        QTRY_VERIFY_WITH_TIMEOUT(c.window.statusMessage().contains(QStringLiteral("acquire refused")), 10000);
        const QString said = c.window.statusMessage();
        QVERIFY2(
            said.contains(QStringLiteral("not a lock")) && said.contains(QStringLiteral("hash")), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("someone else")), qPrintable(said));
        QCOMPARE(raw.hgetall(name).value("name"), QByteArray("ann"));

        // Someone else's lock: who holds it.
        const QByteArray held = uniqueKey("talk-held");
        holdAsSomeoneElse(raw, held);
        c.actions->acquire(watchdogHold(held));
        QTRY_VERIFY_WITH_TIMEOUT(c.window.statusMessage().contains(QString::fromLatin1(kTheirs)), 10000);
        raw.command({ "DEL", held });
    }

    // An acquire that waits shows how long it has waited, with Cancel: Cancel ends the wait and takes nothing. The
    // acquire dialog opened on a held lock says where its kind came from.
    void acquireWaitsVisibly()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-wait");
        holdAsSomeoneElse(raw, name);
        c.select(name);
        c.actions->acquireAction()->trigger();
        auto *dialog = waitForDialog<AcquireDialog>(&c.window);
        QVERIFY(dialog);
        QVERIFY(dialog->kindNote()->isVisible());
        QVERIFY2(dialog->kindNote()->text().contains(QString::fromUtf8(name)), qPrintable(dialog->kindNote()->text()));
        QTest::keyClick(dialog->nameEdit(), Qt::Key_End);
        QTest::keyClicks(dialog->nameEdit(), QStringLiteral("-other"));
        QVERIFY(!dialog->kindNote()->isVisible()); // about the selected lock only
        dialog->reject();

        AcquireRequest request = watchdogHold(name);
        request.waitMs = -1; // until it is free: only Cancel ends it
        c.actions->acquire(request);
        auto *progress = waitForDialog<QProgressDialog>(&c.window);
        QVERIFY(progress);
        QTRY_VERIFY(progress->labelText().contains(QStringLiteral("Waiting for ") + QString::fromUtf8(name)));
        auto *cancel = progress->findChild<QPushButton *>();
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(c.window.statusMessage().contains(QStringLiteral("Stopped waiting")), 10000);
        QVERIFY(c.actions->ownHold(name).isEmpty());
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kTheirs, "1" } }));
        raw.command({ "DEL", name });
    }

    // Copy name / owner / the lockscope-cli command of the chosen lock; View › Audit log lists what was done.
    void copyAndAuditLog()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-copy") + QByteArray("\x01'q", 3);
        holdAsSomeoneElse(raw, name);
        c.select(name);
        QTableView *view = c.window.locksPane()->view();
        QAction *copyName = actionNamed(view, QStringLiteral("Copy &name"));
        QAction *copyOwner = actionNamed(view, QStringLiteral("Copy &owner"));
        QAction *copyCommand = actionNamed(view, QStringLiteral("Copy lockscope-cli co&mmand"));
        QVERIFY(copyName && copyOwner && copyCommand);
        copyName->trigger();
        QCOMPARE(QApplication::clipboard()->text(), escapeBytes(name));
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("\\x01")));
        copyOwner->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QString::fromLatin1(kTheirs));
        copyCommand->trigger();
        const QString command = QApplication::clipboard()->text();
        QVERIFY2(command.startsWith(QStringLiteral("lockscope-cli --url '")), qPrintable(command));
        QVERIFY2(command.endsWith(QStringLiteral(" show ") + shellQuoted(escapeBytes(name))), qPrintable(command));
        QVERIFY2(command.contains(QStringLiteral("'\\''q")), qPrintable(command)); // the quote in the name, escaped

        // Something audited, then the log's view shows it, newest first.
        c.actions->forceReleaseAction()->trigger();
        auto *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QMenu *viewMenu = nullptr;
        for (QAction *a : c.window.menuBar()->actions())
            if (a->text() == QStringLiteral("&View"))
                viewMenu = a->menu();
        QVERIFY(viewMenu);
        QAction *openLog = actionNamed(viewMenu, QStringLiteral("&Audit log…"));
        QVERIFY(openLog);
        // The record is written when the console has the server's answer, after the key is gone.
        QTRY_VERIFY_WITH_TIMEOUT(!auditLines(auditPath()).isEmpty()
                && auditLines(auditPath()).last().value(QStringLiteral("action")).toString()
                    == QStringLiteral("force-release"),
            10000);
        openLog->trigger();
        auto *log = waitForDialog<AuditLogView>(&c.window);
        QVERIFY(log);
        QVERIFY(log->table()->rowCount() >= 1);
        QCOMPARE(log->table()->item(0, 1)->text(), QStringLiteral("force-release"));
        QCOMPARE(log->table()->item(0, 2)->text(), jsonText(name));
        log->close();
    }

    // Quitting while holding: asked first. Return keeps everything (the window and the hold); "Release and quit"
    // releases, then closes.
    void quitAsksAboutHolds()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("talk-quit");
        acquire(c, watchdogHold(name));
        c.window.close();
        auto *box = waitForDialog<QMessageBox>(&c.window);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QString::fromUtf8(name)), qPrintable(box->text()));
        const QMap<QByteArray, QByteArray> held = raw.hgetall(name);
        QTest::keyClick(box->focusWidget() ? box->focusWidget() : box, Qt::Key_Return);
        QTRY_VERIFY(!box->isVisible() || c.window.findChild<QMessageBox *>() == nullptr);
        // Read once the console's own connection has answered all it had to send: a release that Return started
        // would have run by then (and the window closed after it), where a read as the box closes could come first.
        settle(c);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(c.window.isVisible());
        QCOMPARE(raw.hgetall(name), held);
        QCOMPARE(held.size(), 1);

        c.window.close();
        box = waitForDialog<QMessageBox>(&c.window);
        QPushButton *release = nullptr;
        for (QAbstractButton *b : box->buttons())
            if (b->text() == QStringLiteral("Release and quit")) // no mnemonic: only a click, or Tab and Space
                release = qobject_cast<QPushButton *>(b);
        QVERIFY(release);
        QTest::mouseClick(release, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!c.window.isVisible(), 10000);
    }

    // The header says what went wrong and what comes next, and the rows say since when they are only as last read.
    void connectionHeaderSaysWhatComesNext()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 10000); // read once: its rows are as last read
        c.window.setConnectionState(
            MainWindow::ConnectionState::Disconnected, QStringLiteral("connection refused"), 4000);
        QVERIFY2(c.window.connectionStateText().contains(QStringLiteral("connection refused; retrying in 4 s")),
            qPrintable(c.window.connectionStateText()));
        QVERIFY(c.window.locksPane()->isStale());
        QVERIFY2(c.window.locksPane()->staleText().startsWith(QStringLiteral("Disconnected since ")),
            qPrintable(c.window.locksPane()->staleText()));
        c.window.setConnectionState(MainWindow::ConnectionState::Disconnected, QStringLiteral("authentication failed"),
            RedisCommander::NoRetry);
        QVERIFY2(c.window.connectionStateText().contains(QStringLiteral("authentication failed; not retrying")),
            qPrintable(c.window.connectionStateText()));
        QVERIFY(!c.window.connectionStateText().contains(QStringLiteral("retrying in")));
        c.window.setConnectionState(MainWindow::ConnectionState::Connected);
        QVERIFY(!c.window.locksPane()->isStale());
    }

    // The connection's own answer, from a real server: a dropped one retries (and says in how long), wrong credentials
    // do not.
    void connectionSaysWhetherItRetries()
    {
        RedisServer doomed;
        QString error;
        QVERIFY2(doomed.start(&error), qPrintable(error));
        RedisConnection connection(ConnectionOptions::fromUrl(doomed.url()));
        QSignalSpy ready(&connection, &RedisCommander::ready);
        connection.open();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 10000);
        int retry = RedisCommander::RetryUnknown;
        connect(&connection, &RedisCommander::disconnected, this, [&] { retry = connection.retryDelayMs(); });
        doomed.stop();
        QTRY_VERIFY_WITH_TIMEOUT(retry != RedisCommander::RetryUnknown, 10000);
        QVERIFY2(retry >= 0, qPrintable(QString::number(retry)));

        RawRedis raw(m_server.port());
        raw.command({ "ACL", "SETUSER", "talker", "on", ">right", "~*", "+@all" });
        ConnectionOptions wrong = ConnectionOptions::fromUrl(m_server.url());
        wrong.user = "talker";
        wrong.password = "wrong";
        RedisConnection denied(wrong);
        int deniedRetry = RedisCommander::RetryUnknown;
        connect(&denied, &RedisCommander::disconnected, this, [&] { deniedRetry = denied.retryDelayMs(); });
        denied.open();
        QTRY_VERIFY_WITH_TIMEOUT(deniedRetry != RedisCommander::RetryUnknown, 10000);
        QCOMPARE(deniedRetry, RedisCommander::NoRetry);
    }
};

QTEST_MAIN(TestConsoleTalk)
#include "tst_consoletalk.moc"
