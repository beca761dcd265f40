// The console's Tools › Reclaim by policy, as support staff use it instead of a cron job that deletes old keys: a
// policy file chosen, its report read in the dialog (exactly the holders judged dead, with their evidence and the
// report's hash), a reason typed, the button clicked; Return never confirms. Confirmed, what the report showed and the
// check right before releasing still finds as it was goes, one audit record per lock with the reason and the report's
// hash: a lock overwritten by a live holder after the report stays, and so does a dead one the report did not show. A
// read-only console and an untyped policy name on production hold the button back. Real clicks and keys, a real
// redis-server; the report's model under QAbstractItemModelTester.
#include "consolefixture.h"
#include "homegrownlocks.h"
#include "rawredis.h"
#include "reclaimdialog.h"
#include "reclaimflow.h"
#include "reclaimreportmodel.h"
#include "redisserver.h"
#include "testutil.h"

#include "base/durationtext.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSysInfo>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QString kPolicyName = QStringLiteral("nightly-imports");

// The holder the monitor shows on name, or empty.
QByteArray holderShown(const Console &c, const QByteArray &name)
{
    const LockRecord *r = c.monitor.record(name);
    return r && r->present && !r->info.holders.isEmpty() ? r->info.holders.first().owner : QByteArray();
}

QMenu *toolsMenu(MainWindow &window)
{
    for (QAction *action : window.menuBar()->actions())
        if (action->menu() && action->text() == MainWindow::tr("&Tools"))
            return action->menu();
    return nullptr;
}
} // namespace

class TestConsoleReclaim : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;
    int m_policies = 0;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    // The policy of the brief: one rule over p's home-grown locks, no TTL, held over a minute, likely dead (at once).
    QString writePolicy(const QByteArray &p)
    {
        const QString path = m_dir.filePath(QStringLiteral("policy-%1.yaml").arg(++m_policies));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(homeGrownPolicy(p, kPolicyName.toUtf8()));
        return path;
    }

    // Tools › Reclaim by policy…, from the menu the person sees: the dialog, shown and not modal.
    static ReclaimDialog *openReclaim(Console &c)
    {
        QMenu *tools = toolsMenu(c.window);
        [&] {
            QVERIFY(tools);
            QVERIFY(tools->actions().contains(c.actions->reclaimAction()));
            QVERIFY(c.actions->reclaimAction()->isEnabled());
        }();
        if (QTest::currentTestFailed())
            return nullptr;
        c.actions->reclaimAction()->trigger();
        ReclaimDialog *dialog = waitForDialog<ReclaimDialog>(&c.window);
        [&] {
            QVERIFY(dialog);
            QVERIFY(!dialog->isModal()); // the console stays in use while a watch runs
            QVERIFY(QTest::qWaitForWindowActive(dialog)); // it has the keyboard, as a person's keys reach it
        }();
        return QTest::currentTestFailed() ? nullptr : dialog;
    }

    // Types the policy's path and presses "Watch and report"; returns once the report is shown.
    static void watchAndReport(ReclaimDialog *dialog, const QString &policy)
    {
        dialog->policyField()->setFocus(Qt::OtherFocusReason);
        dialog->policyField()->clear();
        QTest::keyClicks(dialog->policyField(), policy);
        QTest::mouseClick(dialog->watchButton(), Qt::LeftButton);
        // Said at once, while the watch reads: the click returned without waiting on Redis.
        QVERIFY2(dialog->statusText().contains(QStringLiteral("Watching")), qPrintable(dialog->statusText()));
        QVERIFY(!dialog->releaseButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->shaText().isEmpty(), 30000);
    }

private slots:
    void initTestCase() { startConsoleTest(m_server, m_dir); }

    void theModel()
    {
        ReclaimReportModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ReapReport report;
        report.policy = kPolicyName;
        report.server = QStringLiteral("redis://127.0.0.1:6379");
        ReapItem dead;
        dead.name = "P:lock:a";
        dead.kind = "string";
        dead.owner = "ADDED:run1@host,1,pid=4194999";
        dead.rule = QStringLiteral("dead-imports");
        dead.ageMs = 3600 * 1000;
        dead.ageAtLeast = true;
        dead.liveness = QStringLiteral("likely dead");
        dead.evidence = { QStringLiteral("held 1 h, over min_age 1 min") };
        ReapItem quota = dead;
        quota.name = "P:lock:b";
        quota.action = ReapItem::Action::OverQuota;
        quota.ageAtLeast = false;
        ReapItem kept = dead;
        kept.name = "P:lock:c";
        kept.action = ReapItem::Action::Protected;
        kept.ageMs = -1;
        report.items = { dead, quota, kept };
        model.setReport(report);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(ReclaimReportModel::ColumnCount));
        const auto text = [&model](int row, int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(text(0, ReclaimReportModel::LockColumn), QStringLiteral("P:lock:a"));
        QCOMPARE(text(0, ReclaimReportModel::HeldColumn), QStringLiteral("at least ") + durationText(3600 * 1000));
        QCOMPARE(text(1, ReclaimReportModel::HeldColumn), durationText(3600 * 1000));
        QCOMPARE(text(2, ReclaimReportModel::HeldColumn), QStringLiteral("unknown"));
        QCOMPARE(text(0, ReclaimReportModel::ActionColumn), QStringLiteral("release"));
        QCOMPARE(text(1, ReclaimReportModel::ActionColumn), QStringLiteral("over quota"));
        QCOMPARE(text(2, ReclaimReportModel::ActionColumn), QStringLiteral("protected"));
        QCOMPARE(text(0, ReclaimReportModel::ResultColumn), QString());
        QVERIFY(model.index(0, ReclaimReportModel::OwnerColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("over min_age")));

        // After a run: each item's end, and one the re-check found beyond the report.
        ReapReport result = report;
        result.items[0].outcome = AuditRecord::Outcome::Released;
        result.items[0].verified = "gone";
        ReapItem extra = dead;
        extra.name = "P:lock:d";
        model.setResult(result, { extra });
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(text(0, ReclaimReportModel::ResultColumn), QStringLiteral("released, verified: gone"));
        QVERIFY(text(1, ReclaimReportModel::ResultColumn).startsWith(QStringLiteral("left alone")));
        QVERIFY(text(2, ReclaimReportModel::ResultColumn).startsWith(QStringLiteral("left alone")));
        QCOMPARE(text(3, ReclaimReportModel::ResultColumn), QStringLiteral("not in the report shown, left alone"));
        QVERIFY(model.index(3, 0).data(ReclaimReportModel::UnapprovedRole).toBool());
        QCOMPARE(model.rowOf("P:lock:d"), 3);
        result.items[0].outcome = AuditRecord::Outcome::NotHeld;
        result.items[0].verified.clear();
        result.items[0].leftAlone = QStringLiteral("changed before its release: not-held");
        model.setResult(result, {});
        QCOMPARE(text(0, ReclaimReportModel::ResultColumn),
            QStringLiteral("left alone: changed before its release: "
                           "not-held"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void theDeadLockIsReleasedTheLiveOneStays()
    {
        const QByteArray p = uniqueKey("rcl");
        Console c(ConnectionOptions::fromUrl(m_server.url()), homeGrownOptions(p));
        RawRedis raw(m_server.port());
        const QByteArray dead = homeGrown(raw, p, "import", "run1", true);
        const QByteArray live = homeGrown(raw, p, "export", "run2", false);
        const QByteArray liveValue = raw.get(live);
        const QString policy = writePolicy(p);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(dead) >= 0 && c.row(live) >= 0, 10000);

        ReclaimDialog *dialog = openReclaim(c);
        QVERIFY(dialog);
        QAbstractItemModelTester tester(dialog->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Browse… opens a file dialog without an event loop of its own: this click returns while it is open.
        QTest::mouseClick(dialog->browseButton(), Qt::LeftButton);
        QPointer<QFileDialog> files;
        QTRY_VERIFY((files = dialog->findChild<QFileDialog *>()) && files->isVisible());
        files->selectFile(policy);
        static_cast<QDialog *>(files)->accept(); // the Open button, as a click on it
        QCOMPARE(QDir::fromNativeSeparators(dialog->policyField()->text()), policy);
        QTRY_VERIFY(!files); // gone once closed
        dialog->activateWindow(); // the keyboard back from the file dialog, as the window system gives it
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        // A file that is no policy: said in the dialog, nothing watched.
        dialog->policyField()->setText(m_dir.filePath(QStringLiteral("none.yaml")));
        QTest::mouseClick(dialog->watchButton(), Qt::LeftButton);
        QVERIFY2(dialog->statusText().contains(QStringLiteral("none.yaml")), qPrintable(dialog->statusText()));
        QVERIFY(dialog->shaText().isEmpty());

        watchAndReport(dialog, policy);
        if (QTest::currentTestFailed())
            return;
        // Exactly the dead holder: the live one's process runs and its heartbeat is fresh.
        ReclaimReportModel *model = dialog->model();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->item(0).name, dead);
        QCOMPARE(model->item(0).action, ReapItem::Action::Release);
        QCOMPARE(model->index(0, ReclaimReportModel::LockColumn).data().toString(), QString::fromUtf8(dead));
        QVERIFY(!model->index(0, 0).data(Qt::ToolTipRole).toString().isEmpty()); // the evidence
        const QByteArray sha = model->report().sha256();
        QVERIFY(dialog->shaText().contains(QString::fromLatin1(sha)));
        QPushButton *release = dialog->releaseButton();
        QVERIFY2(release->text().startsWith(QStringLiteral("Release 1 lock hold")), qPrintable(release->text()));
        QVERIFY(release->isEnabled());
        for (QPushButton *button : dialog->findChildren<QPushButton *>()) // no default button at all
            QVERIFY2(!button->isDefault() && !button->autoDefault(), qPrintable(button->text()));
        QVERIFY(!dialog->nameField()->isVisible()); // not a production server

        // Return and Enter, whatever has focus, do nothing: nothing is released, nothing written, the report stays.
        const qsizetype records = auditLines(auditPath()).size();
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4711 nightly import crashed"));
        QTest::keyClick(dialog->reasonField(), Qt::Key_Return);
        QTest::keyClick(dialog->reasonField(), Qt::Key_Enter);
        QVERIFY(dialog->isVisible());
        QVERIFY(release->isEnabled()); // a release asked for would be under way, the button off until it ends
        release->setFocus(Qt::TabFocusReason); // tabbed to, as a keyboard user would
        QVERIFY(release->hasFocus());
        QTest::keyClick(release, Qt::Key_Return);
        QTest::keyClick(release, Qt::Key_Enter);
        QTest::keyClick(dialog->view(), Qt::Key_Return);
        settle(c);
        QVERIFY(dialog->isVisible());
        QVERIFY(release->isEnabled());
        QVERIFY(!model->hasRun());
        QVERIFY(!raw.get(dead).isEmpty());
        QCOMPARE(auditLines(auditPath()).size(), records);

        // Closed and opened again: the report read is still there, and the click releases it.
        QTest::keyClick(dialog->reasonField(), Qt::Key_Escape);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(openReclaim(c), dialog);
        QCOMPARE(model->rowCount(), 1);
        QVERIFY(release->isEnabled());
        QStringList said;
        connect(c.actions, &ConsoleActions::message, this, [&said](const QString &text, bool) { said << text; });
        QTest::mouseClick(release, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(dead), QByteArray("none"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(model->hasRun(), 20000);
        settle(c);
        QCOMPARE(raw.get(live), liveValue);

        // One record, the reaper's, with the reason and the hash of the report shown.
        const QList<QJsonObject> after = auditLines(auditPath());
        QCOMPARE(after.size(), records + 1);
        const QJsonObject record = after.last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("reap"));
        QCOMPARE(record.value(QStringLiteral("name")).toString(), QString::fromUtf8(dead));
        QCOMPARE(record.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4711 nightly import crashed"));
        QCOMPARE(record.value(QStringLiteral("report_sha256")).toString(), QString::fromLatin1(sha));
        QCOMPARE(record.value(QStringLiteral("policy")).toString(), kPolicyName);
        // The table says how it ended; the summary is said in the dialog and in the status bar.
        QCOMPARE(model->index(0, ReclaimReportModel::ResultColumn).data().toString(),
            QStringLiteral("released, verified: gone"));
        QVERIFY(!dialog->view()->isColumnHidden(ReclaimReportModel::ResultColumn));
        QVERIFY2(dialog->statusText().contains(QStringLiteral("reaped 1 lock hold")), qPrintable(dialog->statusText()));
        QTRY_VERIFY2(said.join('|').contains(QStringLiteral("reaped 1 lock hold")), qPrintable(said.join('|')));
        QVERIFY2(c.window.statusMessage().contains(QStringLiteral("reaped 1 lock hold")),
            qPrintable(c.window.statusMessage()));
        // Acted on: the same report is not released twice.
        QVERIFY(!release->isEnabled());
        raw.command({ "DEL", live, p + ":hb:run1", p + ":hb:run2" });
    }

    void whatChangedOrWasNotShownIsLeftAlone()
    {
        const QByteArray p = uniqueKey("rcl-changed");
        Console c(ConnectionOptions::fromUrl(m_server.url()), homeGrownOptions(p));
        RawRedis raw(m_server.port());
        const QByteArray a = homeGrown(raw, p, "a", "run1", true);
        const QByteArray b = homeGrown(raw, p, "b", "run2", true);
        const QString policy = writePolicy(p);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(a) >= 0 && c.row(b) >= 0, 10000);
        ReclaimDialog *dialog = openReclaim(c);
        QVERIFY(dialog);
        QAbstractItemModelTester tester(dialog->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        watchAndReport(dialog, policy);
        if (QTest::currentTestFailed())
            return;
        ReclaimReportModel *model = dialog->model();
        QCOMPARE(model->rowCount(), 2);
        const QByteArray shownB = model->item(model->rowOf(b)).owner;

        // While the person reads: b is taken by a live holder, and another import dies holding c.
        homeGrown(raw, p, "b", "run3", false);
        const QByteArray bNow = raw.get(b);
        const QByteArray c3 = homeGrown(raw, p, "c", "run4", true);
        const QByteArray cValue = raw.get(c3);
        // The console has seen both: the check before releasing reads what the monitor shows.
        QTRY_VERIFY_WITH_TIMEOUT(!holderShown(c, b).isEmpty() && holderShown(c, b) != shownB && c.row(c3) >= 0, 10000);
        QCOMPARE(model->rowCount(), 2); // the report shown does not change under the person's eyes

        const qsizetype records = auditLines(auditPath()).size();
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4712"));
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(model->hasRun(), 20000);
        settle(c);
        QCOMPARE(raw.type(a), QByteArray("none"));
        QCOMPARE(raw.get(b), bNow);
        QCOMPARE(raw.get(c3), cValue);
        // The table says so of each.
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->index(model->rowOf(a), ReclaimReportModel::ResultColumn).data().toString(),
            QStringLiteral("released, verified: gone"));
        const QString bResult = model->index(model->rowOf(b), ReclaimReportModel::ResultColumn).data().toString();
        // Found by the check before releasing, not by the release script's own guard: nothing was sent for it.
        QVERIFY2(bResult.startsWith(QStringLiteral("left alone: changed since the report")), qPrintable(bResult));
        const int cRow = model->rowOf(c3);
        QVERIFY(cRow >= 0);
        QVERIFY(model->index(cRow, 0).data(ReclaimReportModel::UnapprovedRole).toBool());
        QCOMPARE(model->index(cRow, ReclaimReportModel::ResultColumn).data().toString(),
            QStringLiteral("not in the report shown, left alone"));
        QVERIFY2(
            dialog->statusText().contains(QStringLiteral("not in the report shown")), qPrintable(dialog->statusText()));
        // One record: a release was sent for a only.
        const QList<QJsonObject> after = auditLines(auditPath());
        QCOMPARE(after.size(), records + 1);
        QCOMPARE(after.last().value(QStringLiteral("name")).toString(), QString::fromUtf8(a));
        QCOMPARE(after.last().value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4712"));
        raw.command({ "DEL", b, c3, p + ":hb:run1", p + ":hb:run2", p + ":hb:run3", p + ":hb:run4" });
    }

    void readOnlyReleasesNothing()
    {
        const QByteArray p = uniqueKey("rcl-ro");
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.readOnly = true;
        Console c(options, homeGrownOptions(p));
        RawRedis raw(m_server.port());
        const QByteArray dead = homeGrown(raw, p, "import", "run1", true);
        const QByteArray value = raw.get(dead);
        const QString policy = writePolicy(p);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(dead) >= 0, 10000);
        ReclaimDialog *dialog = openReclaim(c); // watching and reporting only read: offered in read-only mode too
        QVERIFY(dialog);
        watchAndReport(dialog, policy);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(dialog->model()->rowCount(), 1);
        QPushButton *release = dialog->releaseButton();
        QVERIFY(!release->isEnabled());
        QVERIFY2(release->toolTip().contains(QStringLiteral("Read-only")), qPrintable(release->toolTip()));
        QVERIFY(dialog->whyNot().contains(QStringLiteral("Read-only")));
        const qsizetype records = auditLines(auditPath()).size();
        QTest::mouseClick(release, Qt::LeftButton);
        settle(c);
        QCOMPARE(raw.get(dead), value);
        QCOMPARE(auditLines(auditPath()).size(), records);
        raw.command({ "DEL", dead, p + ":hb:run1" });
    }

    void productionNeedsThePolicyNameTyped()
    {
        const QByteArray p = uniqueKey("rcl-prod");
        Console c(ConnectionOptions::fromUrl(m_server.url()), homeGrownOptions(p));
        c.window.setProduction(true);
        c.actions->setProduction(true);
        RawRedis raw(m_server.port());
        const QByteArray dead = homeGrown(raw, p, "import", "run1", true);
        const QByteArray value = raw.get(dead);
        const QString policy = writePolicy(p);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(dead) >= 0, 10000);
        ReclaimDialog *dialog = openReclaim(c);
        QVERIFY(dialog);
        watchAndReport(dialog, policy);
        if (QTest::currentTestFailed())
            return;
        QPushButton *release = dialog->releaseButton();
        QVERIFY(dialog->nameField()->isVisible());
        QVERIFY(!release->isEnabled());
        QVERIFY(release->toolTip().contains(QStringLiteral("policy's name")));
        dialog->nameField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->nameField(), QStringLiteral("nightly"));
        QVERIFY(!release->isEnabled());
        QTest::keyClicks(dialog->nameField(), QStringLiteral("-imports"));
        QVERIFY(release->isEnabled());
        // Return in the name field does nothing.
        const qsizetype records = auditLines(auditPath()).size();
        QTest::keyClick(dialog->nameField(), Qt::Key_Return);
        settle(c);
        QVERIFY(dialog->isVisible());
        QVERIFY(release->isEnabled());
        QVERIFY(!dialog->model()->hasRun());
        QCOMPARE(raw.get(dead), value);
        QCOMPARE(auditLines(auditPath()).size(), records);
        raw.command({ "DEL", dead, p + ":hb:run1" });
    }
};

QTEST_MAIN(TestConsoleReclaim)
#include "tst_consolereclaim.moc"
