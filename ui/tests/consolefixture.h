// What the console tests share: the console wired as the app wires it, and the audit log as written.
#pragma once

#include "consoleactions.h"
#include "consolerecording.h"
#include "eventspane.h"
#include "homegrownlocks.h"
#include "kinds/custom/ownertemplate.h"
#include "lock/lockclient.h"
#include "lockfilterproxy.h"
#include "lockspane.h"
#include "mainwindow.h"
#include "models/locktablemodel.h"
#include "models/locktimelinemodel.h"
#include "monitor/lockmonitor.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"

#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPointer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace LockScope::Test {

// The console as the app wires it (AppSession), with a short watchdog lease so a lease runs out in seconds (renewed
// every 2 s: a renewal would have to be 4 s late for a hold to end while the watchdog is on).
struct Console
{
    explicit Console(const ConnectionOptions &options, LockMonitor::Options monitorOptions = fastMonitor(),
        int watchdogTimeoutMs = 6000)
        : client(options, clientOptions(monitorOptions.stringPatterns, watchdogTimeoutMs))
        , monitor(options, monitorOptions)
    {
        window.setLockMonitor(&monitor, client.clientId());
        // The display target, as AppSession gives it: the audit records' "url" is what the app writes, the route
        // through an SSH host included.
        actions = new ConsoleActions(&client, &monitor, &window, options.auditTarget(), options.readOnly);
        window.setConsole(actions);
        monitor.start();
        window.show();
    }
    // The client knows the names the monitor was told of, as the app's profile gives both the same patterns: a write
    // by name acts only on what they make a lock.
    static LockClientOptions clientOptions(
        const StringLockPatterns &patterns = StringLockPatterns(StringLockPatterns::defaults()),
        int watchdogTimeoutMs = 6000)
    {
        LockClientOptions o;
        o.watchdogTimeoutMs = watchdogTimeoutMs;
        o.stringPatterns = patterns;
        return o;
    }
    static LockMonitor::Options fastMonitor()
    {
        LockMonitor::Options o;
        o.rescanIntervalMs = 200;
        return o;
    }
    int row(const QByteArray &name) const { return window.locksPane()->model()->rowOf(name); }
    QModelIndex cell(const QByteArray &name, int column) const
    {
        return window.locksPane()->model()->index(row(name), column);
    }
    // The row reaches the table (and its filter's incremental pass) after the monitor has the lock: select it once
    // the view has it, as a person can only click a row they see.
    void select(const QByteArray &name)
    {
        QTRY_VERIFY_WITH_TIMEOUT(
            (window.locksPane()->selectLock(name), window.locksPane()->currentLock() == name), 10000);
    }
    // The locks the table has selected, by name: what the person sees chosen.
    QList<QByteArray> selectedNames() const
    {
        QList<QByteArray> names;
        for (const QModelIndex &index : window.locksPane()->view()->selectionModel()->selectedRows())
            names << index.data(LockTableModel::NameRole).toByteArray();
        return names;
    }
    // The lock is shown as gone: its row stays a moment, greyed and saying how it ended (and while it is selected).
    bool shownEnded(const QByteArray &name) const
    {
        return row(name) >= 0 && cell(name, LockTableModel::Name).data(LockTableModel::EndedRole).toBool();
    }
    // Gone from the table, or shown as gone.
    bool shownGone(const QByteArray &name) const { return row(name) < 0 || shownEnded(name); }
    // The hold's levels as the monitor shows them, or 0.
    qint64 levelsShown(const QByteArray &name, const QByteArray &owner) const
    {
        const LockRecord *r = monitor.record(name);
        if (r && r->present)
            for (const LockHolder &h : r->info.holders)
                if (h.owner == owner)
                    return h.count;
        return 0;
    }
    bool sawEvent(LockEvent::Type type, const QByteArray &name) const
    {
        const LockTimelineModel *events = window.eventsPane()->model();
        for (int row = 0; row < events->rowCount(); ++row)
            if (events->eventAt(row).type == type && events->eventAt(row).name == name)
                return true;
        return false;
    }

    MainWindow window;
    LockClient client;
    LockMonitor monitor;
    ConsoleActions *actions = nullptr;
};

template <typename T> T *waitForDialog(QWidget *parent)
{
    T *dialog = nullptr;
    [&] { QTRY_VERIFY((dialog = parent->findChild<T *>()) != nullptr && dialog->isVisible()); }();
    return dialog;
}

// Someone else's Redisson lock: a JVM's owner field, and a lease no test outlives (each test ends it itself).
// initTestCase's part of most console tests: the private redis-server started, and the audit log (audit.log) and the
// settings (config/) in the test's own directory, never the developer's.
inline void startConsoleTest(RedisServer &server, const QTemporaryDir &dir)
{
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    qputenv("LOCKSCOPE_AUDIT_LOG", dir.filePath(QStringLiteral("audit.log")).toUtf8());
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
}

// The console's recording of the last hour into path, as AppSession gives it one (File's toggle, the status bar).
inline ConsoleRecording *recordConsole(Console &c, const RedisServer &server, const QString &path)
{
    auto *recording = new ConsoleRecording(&c.monitor, server.url().toUtf8(), path, &c.window);
    c.window.setRecording(recording);
    return recording;
}

// The home-grown lock scheme (homegrownlocks.h), as the console learns it: a profile's owner template
// (ConnectionProfile::stringLockPatterns), given to its monitor and its client.
inline LockMonitor::Options homeGrownOptions(const QByteArray &p)
{
    LockMonitor::Options options = Console::fastMonitor();
    options.stringPatterns = StringLockPatterns(StringLockPatterns::defaults());
    QString error;
    const std::optional<OwnerTemplate> tpl = OwnerTemplate::parse(homeGrownTemplate(p), &error);
    if (!tpl)
        qFatal("owner template: %s", qPrintable(error));
    options.stringPatterns.addTemplate(*tpl);
    return options;
}

inline const QByteArray kTheirs = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
inline void holdAsSomeoneElse(RawRedis &raw, const QByteArray &name)
{
    QVERIFY(!raw.command({ "HSET", name, kTheirs, "1" }).isError());
    QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
}

// What a person does with the console, as the tests do it: real keys and clicks on what is shown.
// The modal dialog open now, once it is shown and has the keyboard (null, and the test failed, when none comes).
inline QDialog *openDialog()
{
    QDialog *dialog = nullptr;
    [&] {
        QTRY_VERIFY((dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget())) && dialog->isVisible()
            && QApplication::activeWindow() == dialog && QApplication::focusWidget());
    }();
    return QTest::currentTestFailed() ? nullptr : dialog;
}

// The window back in front, with the keyboard on the lock table.
inline void activate(Console &c)
{
    c.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&c.window));
    c.window.locksPane()->view()->setFocus(Qt::OtherFocusReason);
    QTRY_VERIFY(c.window.locksPane()->view()->hasFocus());
}

// A row of the table as shown (filtered, sorted); invalid when it is not shown.
inline QModelIndex shownIndex(Console &c, const QByteArray &name)
{
    LocksPane *pane = c.window.locksPane();
    const int row = pane->model()->rowOf(name);
    return row < 0 ? QModelIndex() : pane->proxy()->fromTable(pane->model()->index(row, LockTableModel::Name));
}

inline void clickRow(Console &c, const QByteArray &name)
{
    QTableView *view = c.window.locksPane()->view();
    const QModelIndex index = shownIndex(c, name);
    QVERIFY(index.isValid());
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
    QCOMPARE(c.window.locksPane()->currentLock(), name);
}

// Types a name glob into the filter, as a person does, and waits until the table shows its rows.
inline void typeFilter(Console &c, const QString &glob)
{
    QLineEdit *filter = c.window.locksPane()->filterEdit();
    filter->setFocus(Qt::OtherFocusReason);
    filter->selectAll();
    QTest::keyClick(filter, Qt::Key_Backspace);
    QTest::keyClicks(filter, glob);
    LockFilterModel *model = c.window.locksPane()->proxy()->filterModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->filter().nameGlob == glob && !model->isMatching(), 10000);
}

inline bool hiddenByFilter(Console &c, const QByteArray &name)
{
    return shownIndex(c, name).data(LockFilterModel::HiddenByFilterRole).toBool();
}

inline void holdAs(RawRedis &raw, const QByteArray &name, const QByteArray &owner)
{
    QVERIFY(!raw.command({ "HSET", name, owner, "1" }).isError());
    QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
}

// Waits until the console's own connection has answered everything it was asked to send: a PING sent on it, answered
// while nothing else is outstanding there, twice in a row. Replies come in order and each step of an action (a read,
// then its script) is sent from the previous step's reply, so once a PING is answered with nothing pending no step of
// any action is on its way; the second PING covers a step sent from a queued call (a refusal's answer). Whatever a
// key press or a click made the console send has then reached Redis, been answered, reported and audited: Redis read
// before that could still be as it was while a wrongly sent write was on the wire.
inline void settle(Console &c)
{
    struct Probe
    {
        bool asking = false;
        int quiet = 0;
    };
    auto probe = std::make_shared<Probe>(); // outlives a failed wait: the answer may come after it
    QPointer<RedisRouter> connection(c.client.connection());
    const auto quiet = [probe, connection] {
        if (!probe->asking && probe->quiet < 2 && connection) {
            probe->asking = true;
            connection->command({ "PING" }, [probe, connection](const RedisResult &r) {
                probe->asking = false;
                probe->quiet = r.ok() && connection && connection->pendingCount() == 0 ? probe->quiet + 1 : 0;
            });
        }
        return probe->quiet >= 2;
    };
    QTRY_VERIFY_WITH_TIMEOUT(quiet(), 30000);
}

// Every key of the server with its DUMP and its absolute expiry (PEXPIRETIME: -1 none), what "unchanged" means: a TTL
// renewed or shortened shows, where a PTTL read a moment later would differ anyway.
inline QMap<QByteArray, QPair<QByteArray, qint64>> everything(RawRedis &raw)
{
    QMap<QByteArray, QPair<QByteArray, qint64>> out;
    const RedisValue keys = raw.command({ "KEYS", "*" });
    for (int i = 0; i < keys.size(); ++i) {
        const QByteArray key = keys.at(i).bytes();
        out.insert(key, { raw.command({ "DUMP", key }).bytes(), raw.command({ "PEXPIRETIME", key }).toInteger() });
    }
    return out;
}

inline QByteArray dump(RawRedis &raw, const QList<QByteArray> &keys)
{
    QByteArray out;
    for (const QByteArray &key : keys)
        out += key + '=' + raw.command({ "DUMP", key }).bytes().toHex() + ';';
    return out;
}

} // namespace LockScope::Test
