// The console's destructive paths as a person uses them (issue 32), through real key and mouse events on the offscreen
// window, against a real redis-server:
// - Return and Enter in a dialog that deletes or changes something (force release, add permits, release a permit,
//   open a latch), sent to the dialog, to what has focus as it opens and to every widget Tab reaches in it, change
//   nothing in Redis and audit nothing; a click on the dialog's own button does act.
// - The selection follows the lock the person chose, by name: once it is force-released or expires, no other lock is
//   selected or shown in its place, and Ctrl+Shift+Del says the lock is gone and touches nothing else.
// - A force release from the console is audited with exactly the fields lockscope-cli writes for the same action.
// Nothing here is confirmed before the console shows what the step relies on.
#include "clirun.h"
#include "consolefixture.h"
#include "counteractions.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "lockfilterproxy.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
const QByteArray kOtherHolder = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:2";

// Ctrl+Shift+Del, pressed in the lock table.
void pressForceRelease(Console &c)
{
    QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
}

QAbstractButton *standardButton(QDialog *dialog, QDialogButtonBox::StandardButton which)
{
    QDialogButtonBox *box = dialog->findChild<QDialogButtonBox *>();
    return box ? box->button(which) : nullptr;
}
} // namespace

class TestConsoleGuards : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    QString cliAuditPath() const { return m_dir.filePath(QStringLiteral("cli-audit.log")); }
    int audited() const { return int(auditLines(auditPath()).size()); }

    // A console whose profile declares counters:* as Redisson's semaphores' and latches' names.
    static LockMonitor::Options declared()
    {
        LockMonitor::Options o = Console::fastMonitor();
        o.stringPatterns.declare("redisson", "counters:*");
        return o;
    }

    // A Redisson lock held by another process, with a lease far above any latency.
    void holdLock(RawRedis &raw, const QByteArray &name, const QByteArray &owner = kHolder, int count = 2)
    {
        raw.command({ "HSET", name, owner, QByteArray::number(count) });
        raw.command({ "PEXPIRE", name, "600000" });
    }

    // What the dialogs may change, read straight from Redis.
    static QByteArray state(RawRedis &raw, const QList<QByteArray> &keys)
    {
        QByteArray out;
        for (const QByteArray &key : keys)
            out += key + '=' + raw.command({ "DUMP", key }).bytes().toHex() + ';';
        return out;
    }

    // Return and Enter as they reach a dialog that changes something: sent to the dialog itself, to what has focus as
    // it opens, and to each widget Tab reaches in turn (the button that acts among them). Every time the dialog closes
    // and nothing happened: Redis as before, no audit record, no message, each read once the console's own connection
    // has answered everything it had to send (settle): a write that Return started has then run, been audited and
    // reported, where Redis read as the dialog closes could still be as it was. Then a click on acting's button does
    // act, and is the one record and the one message.
    void returnNeverActs(Console &c, const std::function<void()> &open,
        const std::function<QAbstractButton *(QDialog *)> &acting, const std::function<QByteArray()> &redis,
        const QByteArray &name, const QString &action)
    {
        const QByteArray before = redis();
        const int auditedBefore = audited();
        QSignalSpy messages(c.actions, &ConsoleActions::message);

        // How many widgets Tab stops at in it, once round.
        activate(c);
        open();
        QDialog *dialog = openDialog();
        QVERIFY(dialog);
        QList<QWidget *> stops { QApplication::focusWidget() };
        for (;;) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            if (QApplication::focusWidget() == stops.first() || stops.size() > 20)
                break;
            stops << QApplication::focusWidget();
        }
        QVERIFY2(stops.size() >= 2 && stops.size() <= 20, qPrintable(QString::number(stops.size())));
        QVERIFY(stops.contains(acting(dialog)));
        QPointer<QDialog> counted(dialog);
        dialog->reject();
        QTRY_VERIFY(!counted || !counted->isVisible());

        for (const Qt::Key key : { Qt::Key_Return, Qt::Key_Enter }) {
            // -1: to the dialog itself; 0: to its focus widget as shown; n: after n presses of Tab.
            for (int tabs = -1; tabs < int(stops.size()); ++tabs) {
                const QString where = tabs < 0 ? QStringLiteral("the dialog") : QStringLiteral("%1 tab(s)").arg(tabs);
                activate(c);
                open();
                QPointer<QDialog> shown = openDialog();
                QVERIFY2(shown, qPrintable(where));
                for (int i = 0; i < tabs; ++i)
                    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
                QWidget *target = tabs < 0 ? shown.data() : QApplication::focusWidget();
                QTest::keyClick(target, key);
                QTRY_VERIFY2(!shown || !shown->isVisible(), qPrintable(where));
                settle(c);
                if (QTest::currentTestFailed())
                    return;
                QVERIFY2(redis() == before, qPrintable(where));
                QVERIFY2(audited() == auditedBefore, qPrintable(where));
                QVERIFY2(
                    messages.isEmpty(), qPrintable(where + QLatin1Char(' ') + messages.value(0).value(0).toString()));
            }
        }

        activate(c);
        open();
        QDialog *last = openDialog();
        QVERIFY(last);
        QTest::mouseClick(acting(last), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(audited() == auditedBefore + 1 && !messages.isEmpty(), 10000);
        const QJsonObject record = auditLines(auditPath()).last();
        QCOMPARE(record.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(record.value(QStringLiteral("action")).toString(), action);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(!messages.first().at(1).toBool(), qPrintable(messages.first().at(0).toString())); // not an error
        QVERIFY(redis() != before);
    }

private slots:
    void initTestCase() { startConsoleTest(m_server, m_dir); }

    // Point 7: the force release dialog opened with Ctrl+Shift+Del.
    void returnNeverForceReleases()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("enter-force");
        holdLock(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QTRY_COMPARE(c.cell(name, LockTableModel::Count).data().toInt(), 2);
        activate(c);
        clickRow(c, name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        returnNeverActs(
            c, [&c] { pressForceRelease(c); },
            [](QDialog *d) {
                return static_cast<QAbstractButton *>(qobject_cast<ForceReleaseDialog *>(d)->confirmButton());
            },
            [&] { return state(raw, { name }); }, name, QStringLiteral("force-release"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(raw.type(name), QByteArray("none"));
    }

    // Point 7: add permits asks for a number; Return in it (or anywhere) adds none.
    void returnNeverAddsPermits()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("enter-permits");
        raw.command({ "SET", name, "0" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        activate(c);
        clickRow(c, name);
        QAction *add = c.actions->counterActions().at(0);
        QTRY_VERIFY(add->isEnabled());
        returnNeverActs(
            c, [add] { add->trigger(); }, [](QDialog *d) { return standardButton(d, QDialogButtonBox::Ok); },
            [&] { return state(raw, { name }); }, name, QStringLiteral("add-permits"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(raw.get(name), QByteArray("1"));
    }

    // Point 7: an expirable semaphore's permit given back only by the click.
    void returnNeverReleasesAPermit()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("enter-permit");
        const QByteArray permits = "{" + name + "}:timeout";
        raw.command({ "SET", name, "1" });
        raw.command({ "ZADD", permits, "922337203685477", "0123456789abcdef0123456789abcdef" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        activate(c);
        clickRow(c, name);
        QAction *release = c.actions->counterActions().at(1);
        QTRY_VERIFY(release->isEnabled());
        returnNeverActs(
            c, [release] { release->trigger(); }, [](QDialog *d) { return standardButton(d, QDialogButtonBox::Ok); },
            [&] {
                return state(raw, { name, permits });
            },
            name, QStringLiteral("release-permit"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(raw.get(name), QByteArray("2"));
        QCOMPARE(raw.command({ "ZCARD", permits }).toInteger(), 0);
    }

    // Point 7: a count-down latch opened only by the click.
    void returnNeverOpensALatch()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("enter-latch");
        raw.command({ "SET", name, "2" });
        RawSubscriber waiter(m_server.port(), "redisson_countdownlatch__channel__{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        activate(c);
        clickRow(c, name);
        QAction *open = c.actions->counterActions().at(2);
        QTRY_VERIFY_WITH_TIMEOUT(open->isEnabled(), 10000);
        returnNeverActs(
            c, [open] { open->trigger(); },
            [](QDialog *d) { return qobject_cast<QMessageBox *>(d)->button(QMessageBox::Yes); },
            [&] { return state(raw, { name }); }, name, QStringLiteral("open-latch"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(raw.type(name), QByteArray("none"));
        QCOMPARE(waiter.next(), QByteArray("message:0"));
    }

    // Point 8: force release the lock between two others, then press Ctrl+Shift+Del again. The gone lock's row stays
    // selected, greyed and saying how it ended: the selection never moves to a neighbour.
    void forceReleasedLockStaysChosen()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("chosen");
        const QByteArray a = prefix + ":a", b = prefix + ":b", d = prefix + ":c";
        for (const QByteArray &name : { a, b, d })
            holdLock(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(a) >= 0 && c.row(b) >= 0 && c.row(d) >= 0, 10000);
        // Neighbours in the table as shown, so that a selection moved by position lands on one of them.
        QTRY_COMPARE(shownIndex(c, b).row(), shownIndex(c, a).row() + 1);
        QCOMPARE(shownIndex(c, d).row(), shownIndex(c, b).row() + 1);
        const QByteArray others = state(raw, { a, d });
        const int auditedBefore = audited();

        activate(c);
        clickRow(c, b);
        QTRY_COMPARE(c.window.detailPane()->lock(), b);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        pressForceRelease(c);
        auto *dialog = qobject_cast<ForceReleaseDialog *>(openDialog());
        QVERIFY(dialog);
        QVERIFY2(dialog->text().contains(QString::fromUtf8(b)), qPrintable(dialog->text()));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(b), QByteArray("none"), 10000);
        // Once the console shows it gone: b's own row, greyed, still the one selected, and the detail pane shows b.
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(b), 10000);
        QCOMPARE(c.cell(b, LockTableModel::Holders).data().toString(), QStringLiteral("force-released"));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { b });
        QCOMPARE(c.window.locksPane()->currentLock(), b);
        QCOMPARE(c.window.detailPane()->lock(), b);

        activate(c);
        QSignalSpy messages(c.actions, &ConsoleActions::message);
        pressForceRelease(c);
        QCOMPARE(messages.size(), 1); // said at once, without a dialog
        const QString said = messages.first().at(0).toString();
        QVERIFY2(said.contains(QString::fromUtf8(b)) && said.contains(QStringLiteral("gone")), qPrintable(said));
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(state(raw, { a, d }), others);
        QTRY_VERIFY_WITH_TIMEOUT(audited() == auditedBefore + 1, 10000); // b's force release only
        QCOMPARE(auditLines(auditPath()).last().value(QStringLiteral("name")).toString(), QString::fromUtf8(b));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { b });

        // Another lock chosen: the gone one's row goes (a few seconds after it ended), and nothing else moves.
        clickRow(c, a);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(b) < 0, 15000);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { a });
    }

    // Point 8: the selected lock expires (chosen with the keyboard), then comes back under another holder.
    void expiredLockStaysChosen()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("expiring");
        const QByteArray a = prefix + ":a", b = prefix + ":b", d = prefix + ":c";
        for (const QByteArray &name : { a, b, d })
            holdLock(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(a) >= 0 && c.row(b) >= 0 && c.row(d) >= 0, 10000);
        QTRY_COMPARE(shownIndex(c, b).row(), shownIndex(c, a).row() + 1);
        QCOMPARE(shownIndex(c, d).row(), shownIndex(c, b).row() + 1);
        const QByteArray others = state(raw, { a, d });

        activate(c);
        clickRow(c, a);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Down);
        QCOMPARE(c.window.locksPane()->currentLock(), b);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { b });
        QTRY_COMPARE(c.window.detailPane()->lock(), b);

        raw.command({ "PEXPIRE", b, "1" });
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(b), 10000);
        // How it ended, as the monitor judged it (expired with keyspace events; without them a delete it did not see
        // announced reads as a force release).
        QVERIFY2(QStringList({ QStringLiteral("expired"), QStringLiteral("force-released") })
                     .contains(c.cell(b, LockTableModel::Holders).data().toString()),
            qPrintable(c.cell(b, LockTableModel::Holders).data().toString()));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { b });
        QCOMPARE(c.window.locksPane()->currentLock(), b);
        QCOMPARE(c.window.detailPane()->lock(), b);

        QSignalSpy messages(c.actions, &ConsoleActions::message);
        pressForceRelease(c);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.first().at(0).toString().contains(QStringLiteral("gone")),
            qPrintable(messages.first().at(0).toString()));
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(state(raw, { a, d }), others);

        // The same name held again: it is the lock the person chose, selected again.
        holdLock(raw, b, kOtherHolder, 1);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(b) >= 0 && !c.shownEnded(b), 10000);
        QTRY_COMPARE(c.selectedNames(), QList<QByteArray> { b });
        QCOMPARE(c.window.locksPane()->currentLock(), b);
    }

    // Point 4: the same force release from lockscope-cli and from the console, on two identical locks of each shape.
    void consoleAndCliAuditTheSameFields_data()
    {
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("redisson lock, two levels") << QByteArray("hash");
        QTest::newRow("string lock (SET NX PX)") << QByteArray("string");
    }
    void consoleAndCliAuditTheSameFields()
    {
        QFETCH(QByteArray, type);
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray prefix = "lock:" + uniqueKey("same-record");
        const QByteArray byCli = prefix + ":cli", byConsole = prefix + ":console";
        for (const QByteArray &name : { byCli, byConsole }) {
            if (type == "hash")
                holdLock(raw, name);
            else
                raw.command({ "SET", name, "5d41402abc4b2a76b9719d911017c592", "PX", "600000" });
        }

        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("LOCKSCOPE_AUDIT_LOG"), cliAuditPath());
        CLI_EXIT(runCli({ QStringLiteral("force-release"), QString::fromUtf8(byCli), QStringLiteral("--yes"),
                            QStringLiteral("--url"), m_server.url() },
                     env),
            CliExit::Done);
        QCOMPARE(raw.type(byCli), QByteArray("none"));

        QTRY_VERIFY_WITH_TIMEOUT(c.row(byConsole) >= 0, 10000);
        if (type == "hash") // the dialog, and so holders_before, shows what the console has read: both levels
            QTRY_COMPARE(c.cell(byConsole, LockTableModel::Count).data().toInt(), 2);
        activate(c);
        clickRow(c, byConsole);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        const int auditedBefore = audited();
        pressForceRelease(c);
        auto *dialog = qobject_cast<ForceReleaseDialog *>(openDialog());
        QVERIFY(dialog);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(audited() == auditedBefore + 1, 10000);
        QCOMPARE(raw.type(byConsole), QByteArray("none"));

        const QList<QJsonObject> cliLines = auditLines(cliAuditPath());
        QVERIFY(!cliLines.isEmpty());
        QJsonObject fromCli = cliLines.last();
        QJsonObject fromConsole = auditLines(auditPath()).last();
        QCOMPARE(fromCli.value(QStringLiteral("name")).toString(), QString::fromUtf8(byCli));
        QCOMPARE(fromConsole.value(QStringLiteral("name")).toString(), QString::fromUtf8(byConsole));
        // What must differ: when, which of the two locks, and the process and client each ran as.
        for (const QString &differs :
            { QStringLiteral("ts"), QStringLiteral("name"), QStringLiteral("pid"), QStringLiteral("client_id") }) {
            QVERIFY2(fromCli.contains(differs) && fromConsole.contains(differs), qPrintable(differs));
            fromCli.remove(differs);
            fromConsole.remove(differs);
        }
        QCOMPARE(fromConsole.keys(), fromCli.keys());
        for (const QString &key : fromCli.keys())
            QVERIFY2(fromConsole.value(key) == fromCli.value(key),
                qPrintable(QStringLiteral("%1: console %2, cli %3")
                               .arg(key,
                                   QString::fromUtf8(QJsonDocument(QJsonObject { { key, fromConsole.value(key) } })
                                                         .toJson(QJsonDocument::Compact)),
                                   QString::fromUtf8(QJsonDocument(QJsonObject { { key, fromCli.value(key) } })
                                                         .toJson(QJsonDocument::Compact)))));
        // And the fields this is about are there.
        QCOMPARE(fromConsole.value(QStringLiteral("guard")).toString(), QStringLiteral("shown-holders"));
        QCOMPARE(fromConsole.value(QStringLiteral("expect_holders")).toArray().size(), 1);
        QCOMPARE(fromConsole.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
        QCOMPARE(fromConsole.contains(QStringLiteral("kind")), type == "string");
    }
};

QTEST_MAIN(TestConsoleGuards)
#include "tst_consoleguards.moc"
