// Is the holder alive, who is it, and what does it block (issue 49), in the console as a person uses it: a real
// Redisson JVM holds a watchdog lock (a 45 s lease, renewed every 15 s); the table's Renewed and Liveness columns say
// it renews and is alive; the force release dialog says so with its evidence and what releasing it would mean, and
// neither Return nor Cancel releases it; Tools › Trace clients, run through its dialog while the JVM takes another
// lock, names the JVM's connection in the detail pane; killed, the holder is "likely dead" with both signals (renewals
// stopped, its connection closed) while its lease still runs. A trace stops by itself when its time is up, and one as
// a user without +monitor is refused in the dialog with the right named, and the server runs no MONITOR for it.
//
// The one time the test depends on is the point of it: the killed holder is judged while its lease still runs (two
// renewal periods, 30 s, after its last renewal, where the lease ends 15 s later).
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissoncases.h"
#include "testutil.h"
#include "tracedialog.h"

#include "aclrules.h"
#include "clients/tracestore.h"
#include "liveness/holderwatch.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
constexpr qint64 kWatchdogMs = 45000;

// Tools › Trace clients… with the keys: Alt+T opens the menu, T the dialog.
TraceDialog *openTrace(Console &c)
{
    activate(c);
    QTest::keyClick(&c.window, Qt::Key_T, Qt::AltModifier);
    QMenu *menu = nullptr;
    [&] { QTRY_VERIFY((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) != nullptr); }();
    if (!menu)
        return nullptr;
    QTest::keyClick(menu, Qt::Key_T);
    TraceDialog *dialog = nullptr;
    [&] { QTRY_VERIFY((dialog = c.window.traceDialog()) != nullptr && dialog->isVisible()); }();
    return dialog;
}

// The duration typed into the dialog's box, as a person types it.
void typeSeconds(TraceDialog *dialog, int seconds)
{
    QSpinBox *box = dialog->secondsBox();
    box->setFocus(Qt::OtherFocusReason);
    box->selectAll();
    QTest::keyClicks(box, QString::number(seconds));
    QCOMPARE(box->value(), seconds);
}

// What the force release dialog opened with Ctrl+Shift+Del on name shows (the dialog itself, still open).
ForceReleaseDialog *openForceRelease(Console &c, const QByteArray &name)
{
    activate(c);
    clickRow(c, name);
    [&] { QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled()); }();
    QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
    return qobject_cast<ForceReleaseDialog *>(openDialog());
}

QAbstractButton *cancelButton(QDialog *dialog)
{
    QDialogButtonBox *box = dialog->findChild<QDialogButtonBox *>();
    return box ? box->button(QDialogButtonBox::Cancel) : nullptr;
}

// Shows a column from the header's right-click menu, as a person does when the table gave it no room.
void showColumn(Console &c, int column)
{
    QTableView *view = c.window.locksPane()->view();
    QHeaderView *header = view->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(LockTableModel::Name) + 5, header->height() / 2);
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, header->viewport()->mapToGlobal(at));
    QApplication::sendEvent(header->viewport(), &event);
    QMenu *menu = nullptr;
    QTRY_VERIFY((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) != nullptr);
    QAction *entry = nullptr;
    for (QAction *action : menu->actions())
        if (action->text() == c.window.locksPane()->model()->headerData(column, Qt::Horizontal).toString())
            entry = action;
    QVERIFY(entry && entry->isCheckable() && !entry->isChecked());
    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(entry).center());
    QTRY_VERIFY(!view->isColumnHidden(column));
    QVERIFY(view->columnWidth(column) > 20);
}

bool monitorRunning(RawRedis &raw)
{
    return raw.command({ "CLIENT", "LIST" }).bytes().contains("cmd=monitor");
}
} // namespace

class TestConsoleLiveness : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    int audited() const { return int(auditLines(auditPath()).size()); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
        // What a trace keeps for lockscope-cli goes to the test's folder, never the user's cache.
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
        QVERIFY2(!RedissonJvm::java().isEmpty(), "no java: install a JDK (scripts/dev setup)");
    }

    void aliveThenKilledHolder()
    {
        const QString version = pinnedRedissonVersions().first(); // the newest pinned
        RawRedis raw(m_server.port());
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(c.window.holderWatch());
        const QByteArray name = uniqueKey("live-console") + ":orders";
        const QByteArray other = uniqueKey("live-console") + ":invoices";
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url(), kWatchdogMs));
        // Taken while the console watches: the hold's start and its first renewal give the period.
        const QJsonObject locked = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name));
        QVERIFY2(locked.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(locked).toJson()));
        const QByteArray owner = locked.value(QStringLiteral("owner")).toString().toUtf8();
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 30000);
        // A table too narrow for every column (the test's screen is 800 pixels wide) starts without Renewed and
        // Liveness; the header's menu shows them.
        QVERIFY(c.window.locksPane()->view()->isColumnHidden(LockTableModel::Renewed));
        QVERIFY(c.window.locksPane()->view()->isColumnHidden(LockTableModel::Liveness));
        activate(c);
        showColumn(c, LockTableModel::Renewed);
        showColumn(c, LockTableModel::Liveness);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(c.window.locksPane()->chosenColumns(), int(LockTableModel::ColumnCount));

        // Renewed: the last renewal's age against the period seen; Liveness: alive, renewing.
        const auto cellText = [&](int column) { return c.cell(name, column).data().toString(); };
        QTRY_VERIFY2_WITH_TIMEOUT(cellText(LockTableModel::Liveness).startsWith(QStringLiteral("alive (renewing)")),
            qPrintable(cellText(LockTableModel::Liveness) + QStringLiteral(" | ")
                + c.cell(name, LockTableModel::Liveness).data(Qt::ToolTipRole).toString()),
            60000);
        QVERIFY2(
            QRegularExpression(QStringLiteral("^\\S+ s / \\S+ s$")).match(cellText(LockTableModel::Renewed)).hasMatch(),
            qPrintable(cellText(LockTableModel::Renewed)));
        QCOMPARE(c.cell(name, LockTableModel::Name).data(LockTableModel::LivenessRole).toInt(),
            int(LivenessVerdict::State::Alive));
        QVERIFY2(c.cell(name, LockTableModel::Liveness)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("renewed ")),
            qPrintable(c.cell(name, LockTableModel::Liveness).data(Qt::ToolTipRole).toString()));

        // Force release on a holder that is alive: the dialog says so, with its evidence and what releasing means.
        // Return releases nothing, nor does Cancel.
        const QMap<QByteArray, QByteArray> held = raw.hgetall(name);
        QCOMPARE(held.keys(), QList<QByteArray> { owner });
        const int auditedBefore = audited();
        QPointer<ForceReleaseDialog> dialog = openForceRelease(c, name);
        QVERIFY(dialog);
        QVERIFY2(dialog->text().contains(QStringLiteral("<b>alive</b> (renewing")), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("renewed ")), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("releasing it lets another client in beside it")),
            qPrintable(dialog->text()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY(!dialog || !dialog->isVisible());
        settle(c);
        QCOMPARE(raw.hgetall(name), held);
        dialog = openForceRelease(c, name);
        QVERIFY(dialog);
        QVERIFY(cancelButton(dialog));
        QTest::mouseClick(cancelButton(dialog), Qt::LeftButton);
        QTRY_VERIFY(!dialog || !dialog->isVisible());
        settle(c);
        QCOMPARE(raw.hgetall(name), held);
        QCOMPARE(audited(), auditedBefore);

        // Tools › Trace clients, for its default 10 s: while MONITOR runs, the JVM takes another lock, and its acquire
        // carries its owner id. The trace stops by itself: Stop would close MONITOR at once, and a line the server had
        // sent that was not read yet would be lost (a person stops a trace long after the commands they wait for).
        TraceDialog *trace = openTrace(c);
        QVERIFY(trace);
        QCOMPARE(trace->secondsBox()->value(), 10);
        QTest::mouseClick(trace->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(trace->isRunning(), 30000);
        QVERIFY2(trace->statusLabel()->text().contains(QStringLiteral("copied to LockScope")),
            qPrintable(trace->statusLabel()->text()));
        QVERIFY(trace->progressBar()->value() > 0);
        QVERIFY(java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, other))
                    .value(QStringLiteral("ok"))
                    .toBool());
        QTRY_VERIFY_WITH_TIMEOUT(trace->finishedCount() == 1, 60000);
        QVERIFY(!monitorRunning(raw));
        QStringList identities;
        for (int i = 0; i < trace->holdersView()->topLevelItemCount(); ++i)
            identities << trace->holdersView()->topLevelItem(i)->text(0);
        QVERIFY2(identities.contains(QString::fromUtf8(owner)), qPrintable(identities.join(QLatin1Char(' '))));
        QVERIFY(trace->clientsView()->topLevelItemCount() > 0);
        QVERIFY2(trace->costLabel()->text().contains(QStringLiteral("MONITOR sent")),
            qPrintable(trace->costLabel()->text()));
        trace->close();

        // The detail pane names the JVM's connection: one of its own sockets, as the server sees it.
        const QSet<quint16> ports = childTcpPorts(pid_t(java.pid()));
        QVERIFY(!ports.isEmpty());
        activate(c);
        clickRow(c, name);
        const auto detail = [&] { return c.window.detailPane()->livenessLabel()->text(); };
        const auto namesJvm = [&] {
            for (const quint16 port : ports)
                if (detail().contains(QStringLiteral("127.0.0.1:%1").arg(port)))
                    return true;
            return false;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            namesJvm() && detail().contains(QStringLiteral("traced at")), qPrintable(detail()), 30000);

        // Killed: its renewals stop and its connections close. Likely dead, both signals named, while its lease runs.
        java.kill();
        QTRY_VERIFY2_WITH_TIMEOUT(cellText(LockTableModel::Liveness).startsWith(QStringLiteral("likely dead")),
            qPrintable(cellText(LockTableModel::Liveness) + QStringLiteral(" | ")
                + c.cell(name, LockTableModel::Liveness).data(Qt::ToolTipRole).toString()),
            60000);
        QVERIFY(raw.pttl(name) > 0);
        QCOMPARE(raw.command({ "HEXISTS", name, owner }).toInteger(), 1);
        const QString evidence = c.cell(name, LockTableModel::Liveness).data(Qt::ToolTipRole).toString();
        QVERIFY2(evidence.contains(QStringLiteral("renewals stopped")), qPrintable(evidence));
        QVERIFY2(evidence.contains(QStringLiteral("closed: not in CLIENT LIST")), qPrintable(evidence));
        QVERIFY2(cellText(LockTableModel::Renewed).contains(QStringLiteral("late")),
            qPrintable(cellText(LockTableModel::Renewed)));
        const QModelIndex shown = shownIndex(c, name);
        QCOMPARE(shown.siblingAtColumn(LockTableModel::Renewed).data(Qt::ForegroundRole).value<QColor>(),
            QColor(0xc6, 0x28, 0x28));
        QCOMPARE(shown.siblingAtColumn(LockTableModel::Liveness).data(Qt::ForegroundRole).value<QColor>(),
            QColor(0xc6, 0x28, 0x28));
        QTRY_VERIFY2(
            detail().contains(QStringLiteral("<b>likely dead</b>")) && detail().contains(QStringLiteral("gone")),
            qPrintable(detail()));

        // The force release dialog says it too, before anyone confirms; Cancel leaves the lock as it is.
        dialog = openForceRelease(c, name);
        QVERIFY(dialog);
        QVERIFY2(dialog->text().contains(QStringLiteral("<b>likely dead</b>")), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("renewals stopped")), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("closed: not in CLIENT LIST")), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("most likely gone")), qPrintable(dialog->text()));
        QTest::mouseClick(cancelButton(dialog), Qt::LeftButton);
        QTRY_VERIFY(!dialog || !dialog->isVisible());
        settle(c);
        QCOMPARE(raw.command({ "HEXISTS", name, owner }).toInteger(), 1);
        QCOMPARE(audited(), auditedBefore);
        raw.command({ "DEL", name, other });
    }

    // A duration typed and Return: the trace starts, counts down, and stops by itself; its findings are kept for
    // lockscope-cli. A long one ends on Stop. A trace only reads: a read-only console runs it.
    void traceStopsByItselfOrOnStop()
    {
        RawRedis raw(m_server.port());
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.readOnly = true;
        Console c(options);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 30000);
        QVERIFY(!c.actions->acquireAction()->isEnabled()); // read-only: nothing that writes
        QFile::remove(TraceStore::path(options));
        TraceDialog *trace = openTrace(c);
        QVERIFY(trace);
        typeSeconds(trace, 1);
        QTest::keyClick(trace->secondsBox(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(trace->finishedCount() == 1, 30000);
        QVERIFY(!trace->isTracing());
        QCOMPARE(trace->progressBar()->value(), 0);
        QVERIFY(trace->startButton()->isEnabled());
        QVERIFY(trace->clientsView()->topLevelItemCount() > 0);
        QVERIFY2(trace->costLabel()->text().contains(QStringLiteral("CPU")), qPrintable(trace->costLabel()->text()));
        QVERIFY(!monitorRunning(raw));
        const std::optional<TraceFindings> kept = TraceStore::load(options);
        QVERIFY(kept);
        QVERIFY(kept->cost.wallMs > 0);

        typeSeconds(trace, 300);
        QTest::mouseClick(trace->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(trace->isRunning(), 30000);
        QVERIFY(monitorRunning(raw));
        QVERIFY(!trace->startButton()->isEnabled());
        QTest::mouseClick(trace->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(trace->finishedCount() == 2, 30000);
        QVERIFY(trace->startButton()->isEnabled());
        QVERIFY(!monitorRunning(raw));
    }

    // A user without +monitor (the console's documented rules deny it): Start shows the refusal naming MONITOR and
    // the right, and nothing else changes: no MONITOR on the server, nothing kept, nothing known of any holder.
    void traceRefusedWithoutTheRight()
    {
        RawRedis raw(m_server.port());
        QList<QByteArray> setUser { "ACL", "SETUSER", "console-trace", "on", ">tracepw" };
        for (const QString &rule : kConsoleRules)
            setUser << rule.toUtf8();
        QCOMPARE(raw.command(setUser).bytes(), QByteArray("OK"));
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.user = "console-trace";
        options.password = "tracepw";
        Console c(options);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 30000);
        QFile::remove(TraceStore::path(options));
        TraceDialog *trace = openTrace(c);
        QVERIFY(trace);
        QTest::mouseClick(trace->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!trace->isTracing(), 30000);
        const QString said = trace->statusLabel()->text();
        QVERIFY2(
            said.contains(QStringLiteral("MONITOR")) && said.contains(QStringLiteral("+monitor")), qPrintable(said));
        QCOMPARE(trace->finishedCount(), 0);
        QCOMPARE(trace->holdersView()->topLevelItemCount(), 0);
        QVERIFY(trace->startButton()->isEnabled());
        QVERIFY(!monitorRunning(raw));
        QVERIFY(!QFile::exists(TraceStore::path(options)));
        QVERIFY(c.window.holderWatch()->directory().isEmpty());
        raw.command({ "ACL", "DELUSER", "console-trace" });
    }
};

QTEST_MAIN(TestConsoleLiveness)
#include "tst_consoleliveness.moc"
