// The console's release-client, as support staff use it after a pod was killed: the client's row chosen in the
// Clients view, its button, a dialog that lists exactly what it holds, where Return never confirms. Confirmed, exactly
// those holds go: another client's hold stays, and so does a hold the client took after the dialog opened; the whole is
// one audit record with its items and the reason typed. A holder that looks alive needs "Even if alive" ticked, and a
// production server the client id typed. Real clicks and keys, a real redis-server.
#include "consolefixture.h"
#include "contentionpane.h"
#include "kinds/custom/ownertemplate.h"
#include "models/keyedtablemodel.h"
#include "rawredis.h"
#include "redisserver.h"
#include "releaseclientdialog.h"
#include "testutil.h"

#include <QAction>
#include <QCheckBox>
#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kGone = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac"; // the killed pod's Redisson client id
const QByteArray kOther = "3b994673-ac41-4c0c-8f75-1b2a04b5341e";

// A Redisson reentrant hold as its client leaves it: the field "<uuid>:<thread>", the levels held, a lease.
void holdRedisson(RawRedis &raw, const QByteArray &name, const QByteArray &owner, int levels)
{
    QVERIFY(!raw.command({ "HSET", name, owner, QByteArray::number(levels) }).isError());
    QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
}

// The Clients view's row of client, as shown (sorted); invalid while it is not there.
QModelIndex clientRow(ContentionPane *pane, const QByteArray &client)
{
    const QAbstractItemModel *model = pane->clientsView()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data(KeyedTableModel::ClientRole).toByteArray() == client)
            return index;
    }
    return {};
}
} // namespace

class TestConsoleReleaseClient : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    // Chooses client's row in the Clients view with a click, once the view shows it.
    static void chooseClient(Console &c, const QByteArray &client)
    {
        c.window.showContentionView(QStringLiteral("clients"));
        ContentionPane *pane = c.window.contentionPane();
        QTableView *view = pane->clientsView();
        QTRY_VERIFY_WITH_TIMEOUT(clientRow(pane, client).isValid(), 20000);
        const QModelIndex index = clientRow(pane, client);
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        QCOMPARE(pane->currentClient(), client);
    }

    // Presses the button under the Clients view: the dialog it opens.
    static ReleaseClientDialog *pressRelease(Console &c)
    {
        QPushButton *button = c.window.contentionPane()->releaseClientButton();
        [&] {
            QVERIFY(button->isVisible());
            QTRY_VERIFY(button->isEnabled());
        }();
        if (QTest::currentTestFailed())
            return nullptr;
        QTest::mouseClick(button, Qt::LeftButton);
        return waitForDialog<ReleaseClientDialog>(&c.window);
    }

    static ReleaseClientDialog *askToRelease(Console &c, const QByteArray &client)
    {
        chooseClient(c, client);
        return QTest::currentTestFailed() ? nullptr : pressRelease(c);
    }

private slots:
    void initTestCase() { startConsoleTest(m_server, m_dir); }

    void exactlyWhatTheClientHeldIsReleased()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("rcc");
        const QByteArray orders = p + ":orders", catalog = p + ":catalog", other = p + ":other", late = p + ":late";
        holdRedisson(raw, orders, kGone + ":1", 2); // reentrant: held twice over
        holdRedisson(raw, catalog, kGone + ":7", 1);
        holdRedisson(raw, other, kOther + ":3", 1);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(orders) >= 0 && c.row(catalog) >= 0 && c.row(other) >= 0, 10000);

        // No client chosen: the button does nothing.
        c.window.showContentionView(QStringLiteral("clients"));
        ContentionPane *pane = c.window.contentionPane();
        pane->clientsView()->setCurrentIndex(QModelIndex());
        QTRY_VERIFY(!pane->releaseClientButton()->isEnabled());
        QVERIFY(!c.actions->releaseClientAction()->isEnabled());
        QVERIFY(pane->clientsView()->actions().contains(c.actions->releaseClientAction())); // its context menu

        // The dialog lists exactly the client's two holds; Return only cancels.
        ReleaseClientDialog *dialog = askToRelease(c, kGone);
        QVERIFY(dialog);
        QTreeWidget *items = dialog->itemsView();
        QCOMPARE(items->topLevelItemCount(), 2);
        QSet<QString> listed;
        for (int i = 0; i < items->topLevelItemCount(); ++i)
            listed << items->topLevelItem(i)->text(0) + QLatin1Char(' ') + items->topLevelItem(i)->text(2)
                    + QLatin1Char(' ') + items->topLevelItem(i)->text(3);
        QCOMPARE(listed,
            (QSet<QString> {
                QString::fromUtf8(orders + ' ' + kGone + ":1 2"), QString::fromUtf8(catalog + ' ' + kGone + ":7 1") }));
        QVERIFY(!dialog->evenIfAliveBox()->isVisible()); // nothing here looks alive
        QVERIFY(!dialog->idField()->isVisible()); // not a production server
        QVERIFY(dialog->confirmButton()->isEnabled());
        const qsizetype records = auditLines(auditPath()).size();
        QPointer<ReleaseClientDialog> guard(dialog);
        QDialog *shown = openDialog();
        QCOMPARE(shown, dialog);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY(!guard);
        // The reason field passes Return to the dialog as well: it cancels there too.
        dialog = askToRelease(c, kGone);
        QVERIFY(dialog);
        guard = dialog;
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4711"));
        QTest::keyClick(dialog->reasonField(), Qt::Key_Return);
        QTRY_VERIFY(!guard);
        settle(c);
        QCOMPARE(raw.hgetall(orders).value(kGone + ":1"), QByteArray("2"));
        QCOMPARE(raw.hgetall(catalog).value(kGone + ":7"), QByteArray("1"));
        QCOMPARE(auditLines(auditPath()).size(), records);

        // Again; while the person reads the list the client takes a third lock: it was not shown, so it stays.
        dialog = askToRelease(c, kGone);
        QVERIFY(dialog);
        QCOMPARE(dialog->itemsView()->topLevelItemCount(), 2);
        holdRedisson(raw, late, kGone + ":1", 1);
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4711 pod orders-7 killed"));
        QStringList said;
        connect(c.actions, &ConsoleActions::message, this, [&said](const QString &text, bool) { said << text; });
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(raw.type(orders) == "none" && raw.type(catalog) == "none", 10000);
        QTRY_VERIFY_WITH_TIMEOUT(auditLines(auditPath()).size() > records, 10000);
        settle(c);
        QCOMPARE(raw.hgetall(other).value(kOther + ":3"), QByteArray("1"));
        QCOMPARE(raw.hgetall(late).value(kGone + ":1"), QByteArray("1"));

        // One record, with both items, the reason, and each item's outcome.
        const QList<QJsonObject> after = auditLines(auditPath());
        QCOMPARE(after.size(), records + 1);
        const QJsonObject record = after.last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("release-client"));
        QCOMPARE(record.value(QStringLiteral("client")).toString(), QString::fromUtf8(kGone));
        QCOMPARE(record.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4711 pod orders-7 killed"));
        QCOMPARE(record.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
        const QJsonArray recorded = record.value(QStringLiteral("items")).toArray();
        QCOMPARE(recorded.size(), 2);
        QSet<QString> names;
        for (const QJsonValue &v : recorded) {
            const QJsonObject item = v.toObject();
            names << item.value(QStringLiteral("name")).toString();
            QCOMPARE(item.value(QStringLiteral("what")).toString(), QStringLiteral("hold"));
            QCOMPARE(item.value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
            if (item.value(QStringLiteral("name")).toString() == QString::fromUtf8(orders))
                QCOMPARE(item.value(QStringLiteral("count")).toInt(), 2);
        }
        QCOMPARE(names, (QSet<QString> { QString::fromUtf8(orders), QString::fromUtf8(catalog) }));
        // Said where the console says what its actions did.
        QTRY_VERIFY2(said.join('|').contains(QStringLiteral("released 2 item")), qPrintable(said.join('|')));
        QVERIFY2(
            c.window.statusMessage().contains(QStringLiteral("released 2 item")), qPrintable(c.window.statusMessage()));
        raw.command({ "DEL", other, late });
    }

    void aLiveHolderNeedsEvenIfAliveAndProductionTheId()
    {
        // A home-grown lock whose token names its host and process: this test's own, running here, so its holder is
        // alive. On a production server.
        QString error;
        const std::optional<OwnerTemplate> tpl
            = OwnerTemplate::parse("rcc-tpl:*=json:$.actor,host=$.host,pid=$.pid", &error);
        QVERIFY2(tpl, qPrintable(error));
        LockMonitor::Options options = Console::fastMonitor();
        options.stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
        options.stringPatterns.addTemplate(*tpl);
        Console c(ConnectionOptions::fromUrl(m_server.url()), options);
        c.window.setProduction(true);
        c.actions->setProduction(true);
        RawRedis raw(m_server.port());
        const QByteArray name = "rcc-tpl:" + uniqueKey("alive");
        const QByteArray value = "{\"actor\":\"pod-7\",\"host\":\"" + QSysInfo::machineHostName().toUtf8()
            + "\",\"pid\":" + QByteArray::number(QCoreApplication::applicationPid()) + "}";
        QVERIFY(!raw.command({ "SET", name, value, "PX", "600000" }).isError());
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);

        ReleaseClientDialog *dialog = askToRelease(c, "pod-7");
        QVERIFY(dialog);
        QCOMPARE(dialog->itemsView()->topLevelItemCount(), 1);
        QVERIFY2(dialog->plan().items.first().alive, qPrintable(dialog->plan().items.first().liveness));
        QVERIFY(dialog->evenIfAliveBox()->isVisible());
        QVERIFY(dialog->idField()->isVisible());
        QVERIFY(!dialog->confirmButton()->isEnabled());
        QVERIFY(dialog->whyNot().contains(QStringLiteral("alive")));
        // Ticked, but the id not typed yet: still no confirmation.
        QTest::mouseClick(dialog->evenIfAliveBox(), Qt::LeftButton);
        QVERIFY(dialog->evenIfAliveBox()->isChecked());
        QVERIFY(!dialog->confirmButton()->isEnabled());
        dialog->idField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->idField(), QStringLiteral("pod-7"));
        QVERIFY(dialog->confirmButton()->isEnabled());
        // Return in the id field only cancels.
        QPointer<ReleaseClientDialog> guard(dialog);
        const qsizetype records = auditLines(auditPath()).size();
        QTest::keyClick(dialog->idField(), Qt::Key_Return);
        QTRY_VERIFY(!guard);
        settle(c);
        QCOMPARE(raw.get(name), value);
        QCOMPARE(auditLines(auditPath()).size(), records);

        // Unticked, typed: the button says why it does not confirm.
        dialog = askToRelease(c, "pod-7");
        QVERIFY(dialog);
        dialog->idField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->idField(), QStringLiteral("pod-7"));
        QVERIFY(!dialog->confirmButton()->isEnabled());
        QVERIFY(dialog->confirmButton()->toolTip().contains(QStringLiteral("Even if alive")));
        QTest::mouseClick(dialog->evenIfAliveBox(), Qt::LeftButton);
        QVERIFY(dialog->confirmButton()->isEnabled());
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(auditLines(auditPath()).size() > records, 10000);
        const QJsonObject record = auditLines(auditPath()).last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("release-client"));
        QCOMPARE(record.value(QStringLiteral("items")).toArray().size(), 1);
    }

    void aClientThatHoldsNothingIsOfferedNothing()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rcc-gone"), gone = "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e";
        holdRedisson(raw, name, gone + ":9", 1);
        // The client is chosen while it holds; by the time the pass reads, its hold is gone.
        chooseClient(c, gone);
        if (QTest::currentTestFailed())
            return;
        raw.command({ "DEL", name });
        const qsizetype records = auditLines(auditPath()).size();
        ReleaseClientDialog *dialog = pressRelease(c);
        QVERIFY(dialog);
        QVERIFY(!dialog->confirmButton());
        QVERIFY(dialog->text().contains(QStringLiteral("holds nothing")));
        QVERIFY(!dialog->reasonField()->isVisible());
        dialog->reject();
        QCOMPARE(auditLines(auditPath()).size(), records);
    }

    void readOnlyOffersNothing()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.readOnly = true;
        Console c(options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rcc-ro");
        holdRedisson(raw, name, kGone + ":2", 1);
        chooseClient(c, kGone);
        if (QTest::currentTestFailed())
            return;
        ContentionPane *pane = c.window.contentionPane();
        QVERIFY(!c.actions->releaseClientAction()->isEnabled());
        QVERIFY(!pane->releaseClientButton()->isEnabled());
        QVERIFY(pane->releaseClientButton()->toolTip().contains(QStringLiteral("Read-only")));
        raw.command({ "DEL", name });
    }
};

QTEST_MAIN(TestConsoleReleaseClient)
#include "tst_consolereleaseclient.moc"
