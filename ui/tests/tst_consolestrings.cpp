// String locks (SET key token NX PX) in the desktop console, against a real redis-server and raw SET NX clients as
// the services that use them would be: a raw one shows up as kind string with its token as holder, filterable by
// kind, and a string outside the string lock patterns never does; the console takes one that keeps a raw SET NX out
// until it gives it back, and reports it lost when its watchdog is off; a force release deletes only the token the
// person saw, and is audited with kind string; the patterns live in the connection profile.
#include "acquiredialog.h"
#include "connectiondialog.h"
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "profiles/connectionprofile.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleStrings : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_server.url()); }
    // What the acquire dialog asks for with the string kind chosen and the watchdog on.
    static AcquireRequest stringLock(const QByteArray &name)
    {
        AcquireRequest r;
        r.name = name;
        r.kind = LockMode::String;
        r.token = "console";
        return r;
    }

    // outcome: the one vocabulary both front-ends write; empty: the same word as result.
    bool audited(const QByteArray &name, const QString &action, const QString &result, QString outcome = {}) const
    {
        if (outcome.isEmpty())
            outcome = result;
        const QList<QJsonObject> lines = auditLines(auditPath());
        return std::any_of(lines.cbegin(), lines.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("action")).toString() == action
                && o.value(QStringLiteral("result")).toString() == result
                && o.value(QStringLiteral("outcome")).toString() == outcome
                && o.value(QStringLiteral("kind")).toString() == QStringLiteral("string");
        });
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

    void aRawStringLockShowsItsToken()
    {
        RawRedis raw(m_server.port());
        // Both there before the console starts: its first complete pass has read them, so absence is an answer.
        const QByteArray name = uniqueKey("lock");
        const QByteArray plain = uniqueKey("plain");
        const QByteArray token("tok\x01\xff", 5); // arbitrary bytes, escaped on screen
        QCOMPARE(raw.command({ "SET", name, token, "NX", "PX", "30000" }).bytes(), QByteArray("OK"));
        QCOMPARE(raw.command({ "SET", plain, "v", "PX", "30000" }).bytes(), QByteArray("OK"));
        Console c(options());
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 10000);
        QVERIFY(c.row(name) >= 0);
        QCOMPARE(c.row(plain), -1);
        QCOMPARE(c.cell(name, LockTableModel::Kind).data().toString(), QStringLiteral("string"));
        QCOMPARE(c.cell(name, LockTableModel::Holders).data().toString(), QStringLiteral("tok\\x01\\xff"));
        QCOMPARE(c.cell(name, LockTableModel::Count).data().toInt(), 1);
        QCOMPARE(c.cell(name, LockTableModel::Waiters).data().toString(), QStringLiteral("-"));
        QVERIFY(!c.cell(name, 0).data(LockTableModel::OursRole).toBool());
        QVERIFY(c.cell(name, 0).data(LockTableModel::DeadlineRole).toLongLong() > 0);

        // One made while the console watches shows up too.
        const QByteArray live = uniqueKey("lock");
        raw.command({ "SET", live, "live-token", "NX", "PX", "30000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(live) >= 0, 10000);
        QCOMPARE(c.cell(live, LockTableModel::Holders).data().toString(), QStringLiteral("live-token"));

        // The kind filter keeps string locks and only them.
        QComboBox *kinds = nullptr;
        for (QComboBox *box : c.window.locksPane()->findChildren<QComboBox *>())
            if (box->accessibleName() == QStringLiteral("Lock kind filter"))
                kinds = box;
        QVERIFY(kinds);
        const int stringKind = kinds->findData(QStringLiteral("string"));
        QVERIFY(stringKind > 0);
        kinds->setCurrentIndex(stringKind);
        QAbstractItemModel *shown = c.window.locksPane()->view()->model();
        QTRY_VERIFY(shown->rowCount() >= 2);
        for (int row = 0; row < shown->rowCount(); ++row)
            QCOMPARE(shown->index(row, 0).data(LockTableModel::KindRole).toString(), QStringLiteral("string"));

        // The detail pane: the token is the holder, and no "0 waiting" for a lock without a wake-up channel.
        c.select(name);
        QTreeWidget *holders = c.window.detailPane()->holdersView();
        QTRY_COMPARE(holders->topLevelItemCount(), 1);
        QCOMPARE(holders->topLevelItem(0)->text(0), QStringLiteral("tok\\x01\\xff"));
        const QLabel *title = c.window.detailPane()->findChild<QLabel *>();
        QVERIFY2(title->text().contains(QStringLiteral("string")), qPrintable(title->text()));
        QVERIFY2(!title->text().contains(QStringLiteral("waiting")), qPrintable(title->text()));
    }

    void noStringPatternsNoStringLocks()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("lock");
        raw.command({ "SET", name, "t", "NX", "PX", "30000" });
        ConnectionProfile profile;
        profile.stringPatterns = QStringLiteral("   ");
        LockMonitor::Options monitorOptions = Console::fastMonitor();
        monitorOptions.stringPatterns = profile.stringLockPatterns();
        Console c(options(), monitorOptions);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 10000);
        QCOMPARE(c.row(name), -1);
    }

    void acquiredFromTheConsoleItKeepsARawSetNxOut()
    {
        Console c(options());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("lock");
        c.actions->acquireAction()->trigger();
        AcquireDialog *dialog = waitForDialog<AcquireDialog>(&c.window);
        QVERIFY(dialog);
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(name));
        dialog->kindBox()->setCurrentIndex(dialog->kindBox()->findText(QStringLiteral("String (SET NX PX)")));
        QVERIFY(dialog->isStringLock());
        QVERIFY(dialog->watchdogBox()->isChecked());
        dialog->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!raw.get(name).isNull(), 10000);
        const QByteArray token = raw.get(name);
        // The key is on the server before the console has read SET's reply: the hold is its own once it has.
        QTRY_COMPARE_WITH_TIMEOUT(c.actions->ownHold(name), token, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QCOMPARE(c.cell(name, LockTableModel::Kind).data().toString(), QStringLiteral("string"));
        QTRY_VERIFY(c.cell(name, 0).data(LockTableModel::OursRole).toBool());
        QVERIFY(c.cell(name, LockTableModel::Holders).data().toString().contains(QStringLiteral("(ours)")));
        QVERIFY(audited(name, QStringLiteral("acquire"), QStringLiteral("acquired")));

        // Another service's SET NX is kept out for as long as the console holds it: past its 1.5 s lease too, once
        // the watchdog has renewed it.
        QVERIFY(raw.command({ "SET", name, "other", "NX", "PX", "30000" }).isNil());
        // Only a renewal makes it longer.
        RenewalSeen renewed(raw, name, 100);
        QTRY_VERIFY_WITH_TIMEOUT(renewed(), 10000);
        QCOMPARE(raw.get(name), token);
        QVERIFY(raw.command({ "SET", name, "other", "NX", "PX", "30000" }).isNil());
        c.select(name);
        QTRY_VERIFY(c.actions->releaseAction()->isEnabled());
        QVERIFY(c.actions->watchdogAction()->isChecked());
        c.actions->releaseAction()->trigger();
        // QTRY evaluates its condition once more after it held: the SET must not run again then.
        bool taken = false;
        QTRY_VERIFY(taken || (taken = !raw.command({ "SET", name, "other", "NX", "PX", "30000" }).isNil()));
        QCOMPARE(raw.get(name), QByteArray("other"));
        QTRY_VERIFY(c.actions->ownHold(name).isEmpty());
        QTRY_VERIFY(audited(name, QStringLiteral("release"), QStringLiteral("released")));
        QTRY_COMPARE(c.cell(name, LockTableModel::Holders).data().toString(), QStringLiteral("other"));
        QVERIFY(!c.cell(name, 0).data(LockTableModel::OursRole).toBool());
    }

    void aStringHoldWithoutItsWatchdogIsLost()
    {
        Console c(options());
        const QByteArray name = uniqueKey("lock");
        c.actions->acquire(stringLock(name));
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(name).isEmpty(), 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->watchdogAction()->isEnabled());
        QVERIFY(c.actions->watchdogAction()->isChecked());
        c.actions->watchdogAction()->trigger(); // off: the lease runs out
        QVERIFY(!c.actions->watchdogAction()->isChecked());
        QVERIFY(audited(name, QStringLiteral("watchdog-off"), QStringLiteral("done")));
        QTRY_VERIFY_WITH_TIMEOUT(c.sawEvent(LockEvent::Type::Lost, name), 10000);
        QVERIFY(c.actions->ownHold(name).isEmpty());
        QTRY_VERIFY(!c.actions->releaseAction()->isEnabled());
    }

    void forceReleaseDeletesOnlyTheTokenShown()
    {
        Console c(options());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("lock");
        raw.command({ "SET", name, "seen-token", "NX", "PX", "60000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QCOMPARE(dialog->shownHolders(), QList<QByteArray> { "seen-token" });
        QVERIFY(dialog->text().contains(QStringLiteral("seen-token")));
        // While the person reads the dialog, the lock changes hands.
        raw.command({ "SET", name, "new-token", "PX", "60000" });
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QMessageBox *box = waitForDialog<QMessageBox>(&c.window);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("new-token")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("nothing changed")));
        box->accept();
        QCOMPARE(raw.get(name), QByteArray("new-token"));
        QTRY_VERIFY(audited(name, QStringLiteral("force-release"), QStringLiteral("guard-failed")));

        // Confirmed against the token it holds now, it goes.
        QTRY_COMPARE(c.cell(name, LockTableModel::Holders).data().toString(), QStringLiteral("new-token"));
        QTRY_VERIFY(!c.window.findChild<ForceReleaseDialog *>() && !c.window.findChild<QMessageBox *>());
        c.actions->forceReleaseAction()->trigger();
        dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QCOMPARE(dialog->shownHolders(), QList<QByteArray> { "new-token" });
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE(raw.type(name), QByteArray("none"));
        QTRY_VERIFY(audited(name, QStringLiteral("force-release"), QStringLiteral("deleted")));
        const QList<QJsonObject> lines = auditLines(auditPath());
        const auto deleted = std::find_if(lines.cbegin(), lines.cend(), [&](const QJsonObject &o) {
            return o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                && o.value(QStringLiteral("result")).toString() == QStringLiteral("deleted");
        });
        QCOMPARE(
            deleted->value(QStringLiteral("holders_before")).toArray().at(0).toObject().value(QStringLiteral("owner")),
            QStringLiteral("new-token"));
        QTRY_VERIFY(c.row(name) < 0 || !c.monitor.record(name)->present);
    }

    void readOnlyRefusesStringLocksToo()
    {
        ConnectionOptions readOnly = options();
        readOnly.readOnly = true;
        Console c(readOnly);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("lock");
        raw.command({ "SET", name, "t", "NX", "PX", "60000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        for (QAction *a : { c.actions->acquireAction(), c.actions->releaseAction(), c.actions->releaseAllAction(),
                 c.actions->watchdogAction(), c.actions->forceReleaseAction() })
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        // And what gets past the widgets is refused in the core, and said.
        c.actions->acquire(stringLock(uniqueKey("lock")));
        QTRY_VERIFY(c.window.statusMessage().contains(QStringLiteral("read-only")));
        QCOMPARE(raw.get(name), QByteArray("t"));
    }

    void profilesKeepStringLockPatterns()
    {
        ConnectionProfile p;
        // Every library with a fixed prefix is looked for with no configuration.
        QCOMPARE(p.stringPatterns,
            QStringLiteral("lock:* mutex:* *:lock job-lock:* redlock:* *laravel_unique_job:* *laravel-queue-overlap:* "
                           "*framework/schedule-*"));
        // "LIBRARY=GLOB" declares names as a library's, as --layout-pattern does.
        ConnectionProfile declared;
        declared.stringPatterns = QStringLiteral("lock:* spring=orders:* nope=x:*");
        const StringLockPatterns patterns = declared.stringLockPatterns();
        QCOMPARE(patterns.declaredLibrary("orders:42"), QByteArray("spring"));
        QCOMPARE(patterns.patterns(), (QList<QByteArray> { "lock:*", "nope=x:*" }));
        p.name = QStringLiteral("strings");
        p.url = QStringLiteral("redis://127.0.0.1:6379/0");
        p.stringPatterns = QStringLiteral("  app:*:lock\tjobs:*  ");
        ConnectionProfile off = p;
        off.name = QStringLiteral("no-strings");
        off.stringPatterns.clear();
        ConnectionProfile::save({ p, off });
        QList<ConnectionProfile> loaded = ConnectionProfile::load();
        QCOMPARE(loaded.size(), 2);
        QCOMPARE(loaded.at(0).stringPatternList(), (QList<QByteArray> { "app:*:lock", "jobs:*" }));
        QVERIFY(loaded.at(1).stringPatternList().isEmpty());
        // A profile saved before string locks existed has no such entry: it looks where a new one does.
        QSettings().remove(QStringLiteral("profiles/1/stringPatterns"));
        loaded = ConnectionProfile::load();
        QCOMPARE(loaded.at(0).stringPatternList(), StringLockPatterns::defaults());
        QVERIFY(loaded.at(1).stringPatternList().isEmpty());

        // The dialog shows a saved profile's patterns, and gives back what was typed.
        ConnectionDialog dialog;
        QComboBox *profiles = dialog.profileBox();
        profiles->setCurrentIndex(2); // after "New connection": the second profile
        QCOMPARE(dialog.stringPatternsEdit()->text(), QString());
        dialog.stringPatternsEdit()->setText(QStringLiteral(" mutex:* "));
        QCOMPARE(dialog.profile().stringPatternList(), QList<QByteArray> { "mutex:*" });
        ConnectionProfile::save({});
    }
};

QTEST_MAIN(TestConsoleStrings)
#include "tst_consolestrings.moc"
