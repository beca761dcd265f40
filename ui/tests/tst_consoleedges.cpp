// The console acts only on the lock the person sees chosen (issue 47), through real key and mouse events on the
// offscreen window, against a real redis-server:
// - a filter that would hide the selected lock keeps its row in view, marked, and the actions act on that row;
//   Ctrl+N under a filter shows and selects the new lock, and nothing else stays highlighted;
// - no Alt+letter (nor a plain letter) presses a button that changes Redis, in English and in Chinese;
// - a gone row is not dropped while the pointer is on the table or its context menu is open: a right-click acts on
//   the row that was under the pointer;
// (The acquire dialog's edges are in tst_consoleacquire.)
#include "acquiredialog.h"
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "lockfilterproxy.h"
#include "models/contentionviews.h"
#include "models/keyedtablemodel.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"
#include "translations.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleEdges : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    int audited() const { return int(auditLines(auditPath()).size()); }

    static LockMonitor::Options declared()
    {
        LockMonitor::Options o = Console::fastMonitor();
        o.stringPatterns.declare("redisson", "counters:*");
        return o;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    // Point 1: lock a is selected; the person types a filter that only b passes. a's row stays, selected and marked
    // as hidden by the filter, and Force release names a. Choosing b lets a's row go.
    void filterKeepsTheChosenLockInView()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("edge-filter");
        const QByteArray a = prefix + ":a", b = prefix + ":b";
        holdAsSomeoneElse(raw, a);
        holdAsSomeoneElse(raw, b);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, a).isValid() && shownIndex(c, b).isValid(), 10000);
        activate(c);
        clickRow(c, a);
        QTRY_COMPARE(c.window.detailPane()->lock(), a);

        typeFilter(c, QString::fromUtf8(b));
        QVERIFY(shownIndex(c, b).isValid());
        QVERIFY(shownIndex(c, a).isValid()); // still in view: it is what the actions act on
        QVERIFY(hiddenByFilter(c, a));
        QVERIFY(!hiddenByFilter(c, b));
        QVERIFY2(shownIndex(c, a).data().toString().contains(QStringLiteral("hidden by the filter")),
            qPrintable(shownIndex(c, a).data().toString()));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { a });
        QCOMPARE(c.window.locksPane()->currentLock(), a);
        QCOMPARE(c.window.detailPane()->lock(), a);

        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
        auto *dialog = qobject_cast<ForceReleaseDialog *>(openDialog());
        QVERIFY(dialog);
        QVERIFY2(dialog->text().contains(QString::fromUtf8(a)), qPrintable(dialog->text()));
        dialog->reject();
        QTRY_VERIFY(!QApplication::activeModalWidget());

        // Another lock chosen: the filter's rows only.
        activate(c);
        clickRow(c, b);
        QTRY_VERIFY(!shownIndex(c, a).isValid());
        QCOMPARE(c.selectedNames(), QList<QByteArray> { b });
        QCOMPARE(c.window.detailPane()->lock(), b);
        // The filter cleared: a is back as any row is, unmarked.
        typeFilter(c, QString());
        QTRY_VERIFY(shownIndex(c, a).isValid());
        QVERIFY(!hiddenByFilter(c, a));
        raw.command({ "DEL", a, b });
    }

    // Point 1: with a filter on, Ctrl+N takes a lock the filter excludes. The new lock is the one shown selected (its
    // row in view, marked), and Ctrl+R releases it, not the row that was highlighted before.
    void newLockUnderAFilterIsShownSelected()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("edge-ctrln");
        const QByteArray theirs = prefix + ":theirs", mine = prefix + "-mine";
        holdAsSomeoneElse(raw, theirs);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, theirs).isValid(), 10000);
        typeFilter(c, QString::fromUtf8(prefix + ":*"));
        activate(c);
        clickRow(c, theirs);

        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_N, Qt::ControlModifier);
        auto *dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(mine));
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(mine).isEmpty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(c.selectedNames(), QList<QByteArray> { mine }, 10000);
        QVERIFY(hiddenByFilter(c, mine));
        QCOMPARE(c.window.locksPane()->currentLock(), mine);
        QTRY_COMPARE(c.window.detailPane()->lock(), mine);

        QTRY_VERIFY(c.actions->releaseAction()->isEnabled());
        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(mine), QByteArray("none"), 10000);
        QCOMPARE(raw.hgetall(theirs), (QMap<QByteArray, QByteArray> { { kTheirs, "1" } }));
        raw.command({ "DEL", theirs });
    }

    // Point 2: every Alt+letter, and every plain letter, pressed in each dialog that changes Redis (in English, and
    // the force release in Chinese, whose mnemonic is written "(&F)"). Nothing changes, nothing is audited; a dialog
    // that closes (Alt+C on Cancel, say) is opened again.
    void lettersNeverAct_data()
    {
        QTest::addColumn<QString>("dialog");
        QTest::addColumn<QString>("lang");
        QTest::newRow("force release") << QStringLiteral("force") << QStringLiteral("en");
        QTest::newRow("force release, zh_CN") << QStringLiteral("force") << QStringLiteral("zh_CN");
        QTest::newRow("add permits") << QStringLiteral("add") << QStringLiteral("en");
        QTest::newRow("release a permit") << QStringLiteral("permit") << QStringLiteral("en");
        QTest::newRow("open latch") << QStringLiteral("latch") << QStringLiteral("en");
        QTest::newRow("open latch, zh_CN") << QStringLiteral("latch") << QStringLiteral("zh_CN");
    }
    void lettersNeverAct()
    {
        QFETCH(QString, dialog);
        QFETCH(QString, lang);
        QVERIFY(I18n::install(lang));
        const auto english = qScopeGuard([] { I18n::install(QStringLiteral("en")); });
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        QByteArray name;
        QList<QByteArray> keys;
        QAction *action = nullptr;
        std::unique_ptr<RawSubscriber> latchWaiter;
        if (dialog == QLatin1String("force")) {
            name = uniqueKey("edge-letters");
            holdAsSomeoneElse(raw, name);
            keys = { name };
            action = c.actions->forceReleaseAction();
        } else {
            name = "counters:" + uniqueKey("edge-letters");
            raw.command({ "SET", name, dialog == QLatin1String("latch") ? "2" : "1" });
            keys = { name };
            if (dialog == QLatin1String("permit")) {
                keys << "{" + name + "}:timeout";
                raw.command({ "ZADD", keys.last(), "922337203685477", "0123456789abcdef0123456789abcdef" });
            }
            // A waiter on its channel is what tells a latch from a semaphore.
            if (dialog == QLatin1String("latch"))
                latchWaiter = std::make_unique<RawSubscriber>(
                    m_server.port(), "redisson_countdownlatch__channel__{" + name + "}");
            const int which = dialog == QLatin1String("add") ? 0 : dialog == QLatin1String("permit") ? 1 : 2;
            action = c.actions->counterActions().at(which);
        }
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 10000);
        activate(c);
        clickRow(c, name);
        QTRY_VERIFY_WITH_TIMEOUT(action->isEnabled(), 10000);
        const QByteArray before = dump(raw, keys);
        const int auditedBefore = audited();
        QSignalSpy messages(c.actions, &ConsoleActions::message);

        QPointer<QDialog> shown;
        int opened = 0;
        // A mnemonic presses its button at once (QAbstractButton::animateClick: pressed() now, clicked() 100 ms
        // later): every button but cancel counts its presses.
        QStringList pressed;
        QString key;
        for (int letter = Qt::Key_A; letter <= Qt::Key_Z; ++letter) {
            for (const Qt::KeyboardModifiers modifiers :
                { Qt::KeyboardModifiers(Qt::AltModifier), Qt::KeyboardModifiers() }) {
                if (!shown || !shown->isVisible()) {
                    activate(c);
                    action->trigger();
                    shown = openDialog();
                    QVERIFY(shown);
                    ++opened;
                    for (QDialogButtonBox *box : shown->findChildren<QDialogButtonBox *>())
                        for (QAbstractButton *button : box->buttons())
                            if (box->buttonRole(button) != QDialogButtonBox::RejectRole)
                                connect(button, &QAbstractButton::pressed, this, [&pressed, &key, button] {
                                    pressed << button->text() + QStringLiteral(" by ") + key;
                                });
                }
                // To the dialog's window, as a key from the window system comes (shortcuts and mnemonics included).
                key = QKeySequence(letter | modifiers).toString();
                QTest::keyClick(shown->windowHandle(), Qt::Key(letter), modifiers);
                QVERIFY2(pressed.isEmpty(), qPrintable(pressed.join(QStringLiteral(", "))));
                QVERIFY2(dump(raw, keys) == before, qPrintable(key));
            }
        }
        if (shown)
            shown->reject();
        QTRY_VERIFY(!QApplication::activeModalWidget());
        // An action a key had started has been answered, audited and reported once the console's own connection has
        // answered all it had to send (a PING of the test's own is ordered after nothing the console sends).
        settle(c);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(dump(raw, keys), before);
        QCOMPARE(audited(), auditedBefore);
        QVERIFY2(messages.isEmpty(), qPrintable(messages.value(0).value(0).toString()));
        QVERIFY(opened >= 1);
        for (const QByteArray &key : keys)
            raw.command({ "DEL", key });
    }

    // Point 3: a gone lock's row is kept while the pointer rests on the table: a right-click on the row under the
    // pointer acts on that row, even once the gone row's seconds are over. The pointer leaves, and the row goes.
    void rowsStayUnderThePointer()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        qint64 offset = 0;
        LockTableModel *table = c.window.locksPane()->model();
        table->setClock([&offset] { return monotonicMs() + offset; });
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("edge-pointer");
        const QByteArray a = prefix + ":a", gone = prefix + ":b", target = prefix + ":c";
        const QByteArray targetOwner = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:43";
        holdAs(raw, a, "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:41");
        holdAs(raw, gone, "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42");
        holdAs(raw, target, targetOwner);
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, a).isValid() && shownIndex(c, gone).isValid()
                && shownIndex(c, target).isValid() && shownIndex(c, target).row() == shownIndex(c, gone).row() + 1,
            10000);
        activate(c);
        clickRow(c, a);

        raw.command({ "DEL", gone });
        QTRY_VERIFY_WITH_TIMEOUT(c.shownEnded(gone), 10000);
        QTableView *view = c.window.locksPane()->view();
        const QPoint at = view->visualRect(shownIndex(c, target)).center();
        QTest::mouseMove(view->viewport(), at);
        QTRY_VERIFY(view->viewport()->underMouse());
        offset = 60000; // the gone row's seconds are over
        // Gone rows looked at twice since (or, wrongly, the row dropped and nothing left to look at).
        const int checks = table->endedChecks();
        QTRY_VERIFY_WITH_TIMEOUT(table->endedChecks() >= checks + 2 || c.row(gone) < 0, 10000);
        QVERIFY(c.shownEnded(gone)); // kept: the pointer is on the table
        QCOMPARE(view->indexAt(at).data(LockTableModel::NameRole).toByteArray(), target);

        // The right-click, and Copy owner from its menu. While the menu is open nothing moves either.
        QApplication::clipboard()->clear();
        QTest::mousePress(view->viewport(), Qt::RightButton, {}, at);
        QTest::mouseRelease(view->viewport(), Qt::RightButton, {}, at);
        QCOMPARE(c.window.locksPane()->currentLock(), target);
        bool menuChecked = false;
        QTimer::singleShot(0, this, [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            [&] { QTRY_VERIFY((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) != nullptr); }();
            if (!menu)
                return;
            QTest::mouseMove(c.window.locksPane()->filterEdit()); // under the menu, off the table
            const int seen = table->endedChecks();
            [&] { QTRY_VERIFY_WITH_TIMEOUT(table->endedChecks() >= seen + 2, 10000); }();
            menuChecked = c.shownEnded(gone);
            QAction *copyOwner = nullptr;
            for (QAction *action : menu->actions())
                if (action->text().remove(QLatin1Char('&')) == QLatin1String("Copy owner"))
                    copyOwner = action;
            if (copyOwner)
                QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(copyOwner).center());
            else
                menu->close();
        });
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
        QApplication::sendEvent(view->viewport(), &event); // returns once the menu closes
        QVERIFY(menuChecked); // the gone row stayed while the menu was open
        QCOMPARE(QApplication::clipboard()->text(), QString::fromUtf8(targetOwner));
        QCOMPARE(c.selectedNames(), QList<QByteArray> { target });

        // The pointer leaves the table: the gone row goes.
        QTest::mouseMove(c.window.locksPane()->filterEdit());
        QTRY_VERIFY_WITH_TIMEOUT(!view->viewport()->underMouse() && c.row(gone) < 0, 10000);
        QCOMPARE(c.selectedNames(), QList<QByteArray> { target });
        raw.command({ "DEL", a, target });
    }

    // Point 3, bounded: a pointer resting on the table keeps gone rows, but not without end. Past 200 of them they all
    // go in one batch (a pointer left on a table of short-lived locks kept every one of them).
    void restingPointerKeepsABoundedNumberOfRows()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        qint64 offset = 0;
        LockTableModel *table = c.window.locksPane()->model();
        table->setClock([&offset] { return monotonicMs() + offset; });
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("edge-many") + ":";
        const auto seed = [&](int count, bool hold) {
            for (int i = 0; i < count; ++i) {
                const QByteArray name = prefix + QByteArray::number(i);
                if (hold) {
                    raw.append({ "HSET", name, kTheirs, "1" });
                    raw.append({ "PEXPIRE", name, "600000" });
                } else {
                    raw.append({ "DEL", name });
                }
            }
            raw.flush();
            for (int i = 0; i < count * (hold ? 2 : 1); ++i)
                QVERIFY(!raw.readReply(10000).isError());
        };
        const auto ended = [&](int count) {
            int n = 0;
            for (int i = 0; i < count; ++i)
                n += c.shownEnded(prefix + QByteArray::number(i)) ? 1 : 0;
            return n;
        };
        // A few gone rows are kept under the pointer, as rowsStayUnderThePointer shows; 210 are more than the bound.
        seed(210, true);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(prefix + "209") >= 0 && c.row(prefix + "0") >= 0, 20000);
        QTableView *view = c.window.locksPane()->view();
        QTest::mouseMove(view->viewport(), view->viewport()->rect().center());
        QTRY_VERIFY(view->viewport()->underMouse());
        seed(210, false);
        QTRY_COMPARE_WITH_TIMEOUT(ended(210), 210, 20000);
        offset = 60000;
        QTRY_VERIFY_WITH_TIMEOUT(c.row(prefix + "0") < 0 && c.row(prefix + "209") < 0, 10000);
        QVERIFY(view->viewport()->underMouse());
    }
};

QTEST_MAIN(TestConsoleEdges)
#include "tst_consoleedges.moc"
