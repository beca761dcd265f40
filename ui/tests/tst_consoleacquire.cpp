// The console's acquire at its edges (issue 47), through real key and mouse events on the offscreen window, against a
// real redis-server:
// - the acquire dialog takes a typed name's own kind, not the selected row's, and its watchdog lease is the hold's;
// - an acquire on an application's hash, or while the server is down, is refused at once and audits nothing.
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

class TestConsoleAcquire : public QObject
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

    // Point 4: the read-write lock catalog is selected; the person types orders:N in the acquire dialog and presses
    // Return. The kind follows the typed name (a new name: the default, a reentrant lock), so no read lock is taken.
    void typedNameIsClassifiedAfresh()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray catalog = uniqueKey("edge-catalog");
        raw.command({ "HSET", catalog, "mode", "read", kTheirs, "1" });
        raw.command({ "PEXPIRE", catalog, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, catalog).isValid()
                && shownIndex(c, catalog).data(LockTableModel::KindRole).toString() == QLatin1String("readwrite"),
            10000);
        activate(c);
        clickRow(c, catalog);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_N, Qt::ControlModifier);
        auto *dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        QCOMPARE(dialog->kindBox()->currentData().toInt(), int(LockMode::Read));
        QVERIFY(dialog->kindNote()->isVisible());

        const QByteArray typed = "orders:" + uniqueKey("edge-typed");
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(typed));
        QCOMPARE(dialog->kindBox()->currentData().toInt(), int(LockMode::Reentrant));
        QVERIFY(!dialog->kindNote()->isVisible());
        QVERIFY(!dialog->noticeLabel()->isVisible());
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(typed).isEmpty(), 10000);
        const QMap<QByteArray, QByteArray> fields = raw.hgetall(typed);
        QVERIFY2(!fields.contains("mode"), fields.keys().join(' ').constData()); // a reentrant lock, no read lock
        QCOMPARE(fields.value(c.actions->ownHold(typed)), QByteArray("1"));

        // The selected name typed back: its own kind again, said.
        activate(c);
        c.window.locksPane()->selectLock(catalog);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_N, Qt::ControlModifier);
        dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(typed));
        QCOMPARE(dialog->kindBox()->currentData().toInt(), int(LockMode::Reentrant));
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Backspace);
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(catalog));
        QCOMPARE(dialog->kindBox()->currentData().toInt(), int(LockMode::Read));
        QVERIFY(dialog->kindNote()->isVisible());
        dialog->reject();

        c.window.locksPane()->selectLock(typed);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        c.actions->releaseAllAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(typed), QByteArray("none"), 10000);
        raw.command({ "DEL", catalog });
    }

    // Point 14: the acquire dialog's watchdog lease, as --watchdog-timeout: a hold taken with 20 s while the console's
    // own watchdog timeout is 6 s starts at 20 s, and its renewals (every third of the shortest lease held) extend it
    // to 20 s again.
    void watchdogLeaseFromTheDialog()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url())); // the console's watchdog timeout: 6 s
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("edge-lease");
        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_N, Qt::ControlModifier);
        auto *dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        QCOMPARE(dialog->watchdogLeaseBox()->value(), 6000); // the console's own, to start with
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(name));
        dialog->watchdogLeaseBox()->setFocus();
        dialog->watchdogLeaseBox()->selectAll();
        QTest::keyClicks(dialog->watchdogLeaseBox(), QStringLiteral("20000"));
        QCOMPARE(dialog->watchdogLeaseBox()->value(), 20000);
        QSignalSpy renewed(&c.client, &LockClient::holdRenewed);
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(name).isEmpty(), 10000);
        QVERIFY2(raw.pttl(name) > 6000, QByteArray::number(raw.pttl(name)).constData());
        QTRY_VERIFY_WITH_TIMEOUT(!renewed.isEmpty(), 20000);
        QCOMPARE(renewed.first().at(0).value<HoldEvent>().leaseMs, 20000);
        QVERIFY2(raw.pttl(name) > 6000, QByteArray::number(raw.pttl(name)).constData());
        c.window.locksPane()->chooseLock(name);
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->releaseAllAction()->isEnabled(), 10000);
        c.actions->releaseAllAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
    }

    // Point 5: an acquire on an application's hash says the name is no lock and the acquire was refused (not a
    // force release), changes nothing and audits nothing.
    void acquireOnAnApplicationHashIsRefused()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        const QByteArray app = uniqueKey("edge-user");
        raw.command({ "HSET", app, "name", "ann", "email", "ann@example.com" });
        const QByteArray before = dump(raw, { app });
        const int auditedBefore = audited();
        QSignalSpy messages(c.actions, &ConsoleActions::message);
        activate(c);
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_N, Qt::ControlModifier);
        auto *dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(app));
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 10000);
        const QString said = messages.first().at(0).toString();
        QVERIFY2(said.contains(QStringLiteral("not a lock")) && said.contains(QStringLiteral("acquire refused")),
            qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("force")), qPrintable(said));
        QVERIFY(messages.first().at(1).toBool()); // an error
        QCOMPARE(dump(raw, { app }), before);
        QCOMPARE(audited(), auditedBefore);
        raw.command({ "DEL", app });
    }

    // Point 5: the server goes away; an acquire is refused at once, says why, and audits nothing. Back, it works.
    void acquireWhileDisconnectedIsRefused()
    {
        RedisServer own;
        QString error;
        QVERIFY2(own.start(&error), qPrintable(error));
        Console c(ConnectionOptions::fromUrl(own.url()), Console::fastMonitor(), 60000);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        QTRY_VERIFY_WITH_TIMEOUT(c.client.connection()->isReady(), 10000);
        QSignalSpy dropped(c.client.connection(), &RedisCommander::disconnected);
        own.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!dropped.isEmpty(), 10000);

        const int auditedBefore = audited();
        QSignalSpy messages(c.actions, &ConsoleActions::message);
        AcquireRequest request;
        request.name = uniqueKey("edge-offline");
        request.token = "console";
        c.actions->acquire(request);
        QCOMPARE(messages.size(), 1); // at once
        QVERIFY2(messages.first().at(0).toString().contains(QStringLiteral("Not connected")),
            qPrintable(messages.first().at(0).toString()));
        QCOMPARE(audited(), auditedBefore);

        QVERIFY2(own.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(c.client.connection()->isReady(), 20000);
        c.actions->acquire(request);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(request.name).isEmpty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(audited(), auditedBefore + 1, 10000);
        // The monitor is live again too: the lock shows, and is released from its row.
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, request.name).isValid(), 20000);
        c.window.locksPane()->chooseLock(request.name);
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->releaseAllAction()->isEnabled(), 10000);
        c.actions->releaseAllAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(request.name).isEmpty(), 10000);
    }
};

QTEST_MAIN(TestConsoleAcquire)
#include "tst_consoleacquire.moc"
