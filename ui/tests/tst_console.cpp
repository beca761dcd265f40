// The desktop console driven through its real widgets (offscreen) against a real redis-server, with other
// processes (lockscope-cli) as the Java services would be: their locks appear with holder and count, the TTL bar
// counts down and jumps back on renewal, the console's own holds are marked ours, switching our watchdog off
// ends in a `lost` event, a confirmed force release wakes a waiting process, a force release whose holders changed
// after they were shown is refused and says so, read-only mode disables every write, and writes are audited. Release
// and force release take the lock's kind from Redis at that moment, not from the monitor's last snapshot.
#include "acquiredialog.h"
#include "clirun.h"
#include "connectiondialog.h"
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "kinds/locknames.h"
#include "profiles/connectionprofile.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsole : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    // Through clirun.h, which fails the test on a crash, a signal or a sanitizer's report when it is finished.
    void startOurCli(QProcess &p, const QStringList &args) const
    {
        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("LOCKSCOPE_AUDIT_LOG"), m_dir.filePath(QStringLiteral("cli-audit.log")));
        Test::startCli(p, args + QStringList { QStringLiteral("--url"), m_server.url() }, env);
    }

    QList<QJsonObject> auditLines() const { return Test::auditLines(auditPath()); }

    // Whether the detail pane lists this holder (the selected lock's holders, as the person sees them).
    static bool detailShows(const Console &c, const QByteArray &owner)
    {
        const QTreeWidget *holders = c.window.detailPane()->holdersView();
        for (int i = 0; i < holders->topLevelItemCount(); ++i)
            if (holders->topLevelItem(i)->text(0) == QString::fromUtf8(owner))
                return true;
        return false;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8()); // settings stay in the test
        QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
    }

    void connectThroughTheDialog()
    {
        RedisServer secured { RedisServerOptions { {}, false, false, QStringLiteral("s3cret") } };
        QString error;
        QVERIFY2(secured.start(&error), qPrintable(error));
        MemorySecretStore secrets;
        ConnectionDialog dialog(&secrets);
        dialog.show();
        // A pasted URL with a password: the password moves to its field, the URL keeps none.
        const QString pasted = QStringLiteral("redis://:s3cret@127.0.0.1:%1/0").arg(secured.port());
        QApplication::clipboard()->setText(pasted);
        dialog.urlEdit()->setFocus();
        QTest::keySequence(dialog.urlEdit(), QKeySequence::Paste);
        QCOMPARE(dialog.passwordEdit()->text(), QStringLiteral("s3cret"));
        QVERIFY(!dialog.urlEdit()->text().contains(QStringLiteral("s3cret")));
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(dialog.testResult()->text().startsWith(QStringLiteral("Connected: Redis")),
            qPrintable(dialog.testResult()->text() + QLatin1Char(' ') + dialog.urlEdit()->text()), 10000);

        // A wrong password is a clear failure, not a hang.
        dialog.passwordEdit()->setText(QStringLiteral("wrong"));
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.testResult()->text().startsWith(QStringLiteral("Failed: auth")), 10000);
        dialog.passwordEdit()->setText(QStringLiteral("s3cret"));

        // Saved profiles never hold the password.
        const QList<QPushButton *> buttons = dialog.findChildren<QPushButton *>();
        QPushButton *save = *std::find_if(buttons.cbegin(), buttons.cend(),
            [](QPushButton *b) { return b->text().contains(QStringLiteral("Save")); });
        QTest::mouseClick(save, Qt::LeftButton);
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains(QByteArray::number(secured.port())));
        QVERIFY(!stored.contains("s3cret"));

        RawRedis raw(secured.port(), {}, "s3cret");
        const QByteArray name = uniqueKey("dialog");
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        Console c(dialog.options());
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
    }

    void profilesKeepTopologyAndPublishMode()
    {
        ConnectionProfile p;
        p.name = QStringLiteral("sentinel-profile");
        p.url = QStringLiteral("redis://127.0.0.1:6380/2");
        p.topology = QStringLiteral("sentinel");
        p.sentinels = QStringLiteral("10.0.0.1:26379,10.0.0.2");
        p.sentinelMaster = QStringLiteral("orders");
        p.publishMode = QStringLiteral("both");
        p.replicaReads = true;
        p.replicaSyncTimeoutMs = 250;
        p.checkSyncedReplicas = false;
        ConnectionProfile::save({ p });
        const QList<ConnectionProfile> loaded = ConnectionProfile::load();
        QCOMPARE(loaded.size(), 1);
        RedisError error;
        const ConnectionOptions o = loaded.first().options("pw", &error);
        QVERIFY2(!error.isError(), qPrintable(error.toString()));
        QCOMPARE(o.sentinels.size(), 2);
        QCOMPARE(o.sentinels.at(1).port, quint16(26379)); // the default Sentinel port
        QCOMPARE(o.sentinelMaster, QByteArray("orders"));
        QCOMPARE(o.publishMode, PublishMode::Both);
        QVERIFY(o.replicaReads);
        QCOMPARE(o.replicaSyncTimeoutMs, 250);
        QVERIFY(!o.checkSyncedReplicas);
        QCOMPARE(o.db, 2);
        // Sentinel without the master's name cannot work: said before connecting.
        ConnectionProfile nameless = loaded.first();
        nameless.sentinelMaster.clear();
        nameless.options({}, &error);
        QVERIFY(error.isError());
        ConnectionProfile cluster = loaded.first();
        cluster.topology = QStringLiteral("cluster");
        QCOMPARE(cluster.options({}).topology, ConnectionOptions::Topology::Cluster);
        ConnectionProfile::save({});
    }

    void anotherProcessesLockAppearsAndCountsDown()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        const QByteArray name = uniqueKey("other");
        QProcess holder;
        startOurCli(holder,
            { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--hold"), QStringLiteral("60000"),
                QStringLiteral("--watchdog-timeout"), QStringLiteral("6000"), QStringLiteral("--json") });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QTRY_COMPARE(c.cell(name, LockTableModel::Count).data().toInt(), 1);
        QVERIFY(!c.cell(name, LockTableModel::OursRole).data(LockTableModel::OursRole).toBool());
        QVERIFY(!c.cell(name, LockTableModel::Holders).data().toString().contains(QStringLiteral("ours")));

        // The bar is painted from the deadline: it drains between reads, and the deadline moves on with renewals.
        const qint64 deadline = c.cell(name, 0).data(LockTableModel::DeadlineRole).toLongLong();
        const QString before = c.cell(name, LockTableModel::Ttl).data().toString();
        QTRY_VERIFY(c.cell(name, LockTableModel::Ttl).data().toString() != before);
        QTRY_VERIFY_WITH_TIMEOUT(
            c.cell(name, 0).data(LockTableModel::DeadlineRole).toLongLong() > deadline + 200, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(
            WatchdogGuess(c.cell(name, 0).data(LockTableModel::WatchdogRole).toInt()), WatchdogGuess::Likely, 30000);
        holder.terminate(); // releases cleanly and exits 0
        CLI_EXIT(finishCli(holder, 30000, CliWait::ServeEvents), CliExit::Done);
        QTRY_VERIFY_WITH_TIMEOUT(c.shownGone(name), 10000);
    }

    void acquireFromTheConsoleThenLoseItWithTheWatchdogOff()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        const QByteArray name = uniqueKey("ours");
        c.actions->acquireAction()->trigger();
        AcquireDialog *dialog = waitForDialog<AcquireDialog>(&c.window);
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(name));
        QVERIFY(dialog->watchdogBox()->isChecked());
        dialog->accept();
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QTRY_VERIFY(c.cell(name, 0).data(LockTableModel::OursRole).toBool());
        QVERIFY(c.cell(name, LockTableModel::Holders).data().toString().contains(QStringLiteral("(ours)")));

        c.select(name);
        QTRY_VERIFY(c.actions->watchdogAction()->isEnabled());
        QVERIFY(c.actions->watchdogAction()->isChecked());
        QVERIFY(c.actions->releaseAction()->isEnabled());
        c.actions->watchdogAction()->trigger(); // off: the lease runs out
        QVERIFY(!c.actions->watchdogAction()->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(c.sawEvent(LockEvent::Type::Lost, name), 30000);
        QTRY_VERIFY(c.shownGone(name));
        QVERIFY(c.sawEvent(LockEvent::Type::Expired, name));

        const QList<QJsonObject> audit = auditLines();
        QVERIFY(std::any_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("action")).toString() == QStringLiteral("acquire")
                && o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("result")).toString() == QStringLiteral("acquired");
        }));
        QVERIFY(std::any_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("action")).toString() == QStringLiteral("watchdog-off");
        }));
    }

    void acquireOfAnotherKindIsRefusedAndWritesNothing()
    {
        // A Java fair lock with a waiter queued; the console asks for a reentrant lock of that name.
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-as-reentrant");
        const QByteArray queue = "redisson_lock_queue:{" + name + "}";
        const QByteArray waiter = "0b0e2f7a-53f1-4a4f-9e0e-1a6c6cf7f3aa:7";
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:12", "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        raw.command({ "RPUSH", queue, waiter });
        const QByteArray dumpBefore = raw.command({ "DUMP", name }).bytes();
        QSignalSpy messages(c.actions, &ConsoleActions::message);

        c.actions->acquireAction()->trigger();
        AcquireDialog *dialog = waitForDialog<AcquireDialog>(&c.window);
        dialog->nameEdit()->setText(QString::fromUtf8(name));
        dialog->kindBox()->setCurrentIndex(dialog->kindBox()->findData(int(LockMode::Reentrant)));
        dialog->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 10000);
        const QString text = messages.first().at(0).toString();
        QVERIFY(messages.first().at(1).toBool()); // shown as an error
        // The sentence without its code (kind-mismatch), which the audit record keeps.
        QVERIFY2(!text.contains(QLatin1String("kind-mismatch")) && text.contains(QLatin1String("a fair lock")),
            qPrintable(text));
        QCOMPARE(raw.command({ "DUMP", name }).bytes(), dumpBefore);
        QVERIFY(raw.pttl(name) > 300000);
        QCOMPARE(raw.command({ "LRANGE", queue, "0", "-1" }).size(), 1);
        QVERIFY(c.client.holds().isEmpty());
        const QList<QJsonObject> audit = auditLines();
        QVERIFY(std::any_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("action")).toString() == QStringLiteral("acquire")
                && o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("result")).toString().startsWith(QLatin1String("kind-mismatch"));
        }));
    }

    void forceReleaseWakesAWaitingProcess()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        const QByteArray name = uniqueKey("stuck");
        QProcess holder, waiter;
        // The holder's watchdog keeps its 30 s lease alive: only a wake-up message lets the waiter in quickly.
        startOurCli(holder,
            { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--hold"), QStringLiteral("60000"),
                QStringLiteral("--json") });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        startOurCli(waiter,
            { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--wait"), QStringLiteral("60000"),
                QStringLiteral("--hold"), QStringLiteral("60000"), QStringLiteral("--json") });
        QTRY_COMPARE_WITH_TIMEOUT(c.cell(name, LockTableModel::Waiters).data().toString(), QStringLiteral("1"), 10000);

        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog->text().contains(QStringLiteral("unlock will fail")));
        QCOMPARE(dialog->shownHolders().size(), 1);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QByteArray out;
        QTRY_VERIFY2_WITH_TIMEOUT((out += waiter.readAllStandardOutput()).contains("\"acquired\""),
            (out + waiter.readAllStandardError() + c.window.statusMessage().toUtf8()).constData(), 10000);
        waiter.terminate();
        CLI_EXIT(finishCli(waiter, 30000, CliWait::ServeEvents), CliExit::Done);
        const QList<QJsonObject> audit = auditLines();
        QVERIFY(std::any_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("action")).toString() == QStringLiteral("force-release")
                && o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("result")).toString() == QStringLiteral("deleted")
                && o.value(QStringLiteral("holders_before")).toArray().size() == 1
                && o.value(QStringLiteral("holders_before"))
                       .toArray()
                       .at(0)
                       .toObject()
                       .contains(QStringLiteral("owner"));
        }));
        // Its hold was deleted under it: it says "lost" (exit 1) at its next renewal, or on this SIGTERM; either way
        // it ends by itself, without a crash or a sanitizer's report.
        holder.terminate();
        QVERIFY(finishCli(holder, 30000, CliWait::ServeEvents).normal());
    }

    void forceReleaseRefusesWhenTheHolderChanged()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("changed");
        const QByteArray first = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
        const QByteArray second = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:2";
        raw.command({ "HSET", name, first, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QCOMPARE(dialog->shownHolders(), QList<QByteArray> { first });
        // While the person reads the dialog, the lock changes hands (at once: it is never seen free).
        raw.command({ "MULTI" });
        raw.command({ "DEL", name });
        raw.command({ "HSET", name, second, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        raw.command({ "EXEC" });
        // The confirmation comes only once the console shows the new holder, in the table and in the detail pane:
        // a guard taken from what the monitor holds now would then let the delete through. Only the holders shown
        // in the dialog may guard it.
        QTRY_VERIFY_WITH_TIMEOUT(c.cell(name, LockTableModel::Holders)
                                     .data(Qt::ToolTipRole)
                                     .toString()
                                     .contains(QString::fromLatin1(second)),
            30000);
        QTRY_VERIFY_WITH_TIMEOUT(detailShows(c, second) && !detailShows(c, first), 30000);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QMessageBox *box = waitForDialog<QMessageBox>(&c.window);
        QVERIFY2(box->text().contains(QString::fromLatin1(second)), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("nothing changed")));
        box->accept();
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { second, "1" } }));
        QVERIFY(raw.pttl(name) > 30000);
        const QList<QJsonObject> audit = auditLines();
        QVERIFY(std::any_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("action")).toString() == QStringLiteral("force-release")
                && o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("outcome")).toString() == QStringLiteral("guard-failed");
        }));
        QVERIFY(std::none_of(audit.cbegin(), audit.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("result")).toString() == QStringLiteral("deleted");
        }));
    }

    // A monitor that, once started, learns nothing more on its own: no keyspace events, no re-scan, no TTL polls.
    static LockMonitor::Options frozenMonitor()
    {
        LockMonitor::Options o;
        o.useKeyspaceEvents = false;
        o.rescanIntervalMs = 3600000;
        o.ttlPollIntervalMs = 3600000;
        return o;
    }

    // A Java waiter as its fair acquire leaves it (queued, deadline ten minutes away), listening on its own channel.
    static void queueJavaWaiter(RawRedis &raw, const QByteArray &name, const QByteArray &waiter)
    {
        raw.command({ "RPUSH", LockNames::fairQueue(name), waiter });
        raw.command({ "ZADD", LockNames::fairTimeouts(name),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), waiter });
    }

    void releaseTellsAWaiterThatQueuedAfterTheLastScan()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), frozenMonitor());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-late");
        AcquireRequest request;
        request.name = name;
        request.kind = LockMode::Fair;
        request.leaseMs = 60000;
        std::optional<AcquireResult> got;
        c.client.acquire(request, [&](const AcquireResult &r) { got = r; });
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        QVERIFY(got->acquired);
        c.monitor.refresh({ name });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        // Nobody queued when the monitor read it: nothing in the snapshot says fair.
        QVERIFY(c.monitor.record(name)->info.kind != LockInfo::Kind::Fair);
        const QByteArray waiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";
        queueJavaWaiter(raw, name, waiter);
        RawSubscriber head(m_server.port(), LockNames::fairChannel(name, waiter));
        c.select(name);
        QTRY_VERIFY(c.actions->releaseAction()->isEnabled());
        c.actions->releaseAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QCOMPARE(head.next(), "message:0");
    }

    void forceReleaseTellsAWaiterThatQueuedAfterTheLastScan()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fair-late-force");
        const QByteArray holder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
        raw.command({ "HSET", name, holder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        Console c(ConnectionOptions::fromUrl(m_server.url()), frozenMonitor());
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QVERIFY(c.monitor.record(name)->info.kind != LockInfo::Kind::Fair);
        const QByteArray waiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:43";
        queueJavaWaiter(raw, name, waiter);
        RawSubscriber head(m_server.port(), LockNames::fairChannel(name, waiter));
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QCOMPARE(dialog->shownHolders(), QList<QByteArray> { holder });
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QCOMPARE(head.next(), "message:0");
        QCOMPARE(raw.command({ "LLEN", LockNames::fairQueue(name) }).toInteger(), 1); // the queue stays, as Redisson's
    }

    // Issue 15 points 8 and 10: a stuck lock (no TTL) is listed with its warning; a lock only its shape vouches for
    // says "low confidence" next to every action on it, and a corroborated one does not.
    void lowConfidenceIsSaidNextToEveryAction()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
        const QByteArray stuck = uniqueKey("stuck-no-ttl");
        raw.command({ "HSET", stuck, owner, "1" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(stuck) >= 0, 10000);
        QTRY_VERIFY(
            c.cell(stuck, LockTableModel::Warnings).data().toString().contains(QStringLiteral("never expires")));

        const QByteArray name = uniqueKey("lookalike");
        raw.command({ "HSET", name, owner, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        const QString low = QStringLiteral("low confidence: this may be application data that looks like a lock");
        QVERIFY2(c.actions->forceReleaseAction()->toolTip().contains(low),
            qPrintable(c.actions->forceReleaseAction()->toolTip()));
        QVERIFY(c.actions->releaseAction()->toolTip().contains(low));
        QTRY_VERIFY(c.window.detailPane()->evidenceLabel()->text().contains(low)); // and in the detail pane
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *force = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY2(force->text().contains(low), qPrintable(force->text()));
        QVERIFY(force->text().contains(QStringLiteral("has a TTL"))); // with the evidence
        force->reject();
        QTRY_VERIFY(!force->isVisible());
        c.actions->acquireAction()->trigger();
        AcquireDialog *acquire = waitForDialog<AcquireDialog>(&c.window);
        QVERIFY(acquire->noticeLabel()->isVisible());
        QVERIFY(acquire->noticeLabel()->text().contains(low));
        acquire->reject();
        QTRY_VERIFY(!acquire->isVisible());
        QCOMPARE(raw.hgetall(name).value(owner), "1"); // nothing was done to it

        // A listener on its wake-up channel vouches for it: the line goes.
        RawRedis ears(m_server.port());
        ears.append({ "SUBSCRIBE", LockNames::lockChannel(name) });
        ears.readReply(5000);
        c.monitor.refresh({ name });
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->forceReleaseAction()->toolTip().contains(low), 10000);
    }

    void readOnlyDisablesEveryWrite()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.readOnly = true;
        Console c(options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("ro");
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        for (QAction *a : { c.actions->acquireAction(), c.actions->releaseAction(), c.actions->releaseAllAction(),
                 c.actions->watchdogAction(), c.actions->forceReleaseAction() })
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        // And the core refuses whatever gets past the widgets.
        std::optional<ForceReleaseResult> result;
        c.client.forceRelease(
            name, QByteArray(), [&](const ForceReleaseResult &r) { result = r; }, LockMode::Reentrant);
        QTRY_VERIFY(result.has_value());
        QCOMPARE(result->error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.type(name), "hash");
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
