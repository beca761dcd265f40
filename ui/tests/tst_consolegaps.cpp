// The console's writes that had no test of their own, as a person uses them, against a real redis-server: release all
// levels of our hold, give back a permit of an expirable semaphore, switch our watchdog off and on again, each with
// what Redis holds afterwards and the audit records it left; and an audit log that cannot be written, which refuses
// every write of the console before anything changes.
#include "acquiredialog.h"
#include "consolefixture.h"
#include "counteractions.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QJsonArray>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// The console as the app wires it, with a watchdog lease of a minute: nothing here may run out by itself.
struct GapsConsole : Console
{
    GapsConsole(const ConnectionOptions &options, LockMonitor::Options monitorOptions)
        : Console(options, monitorOptions, 60000)
    { }
};

AcquireRequest watchdogHold(const QByteArray &name)
{
    AcquireRequest r;
    r.name = name;
    r.token = "1";
    r.leaseMs = -1; // the watchdog's lease, renewed
    return r;
}

QPushButton *okButton(QDialog *dialog)
{
    auto *box = dialog->findChild<QDialogButtonBox *>();
    return box ? box->button(QDialogButtonBox::Ok) : nullptr;
}
} // namespace

class TestConsoleGaps : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    // A path nobody can write, root included: its parent is a regular file.
    QString unwritablePath() const { return m_dir.filePath(QStringLiteral("not-a-directory/audit.log")); }
    QList<QJsonObject> audit() const { return auditLines(auditPath()); }

    static LockMonitor::Options monitorOptions()
    {
        LockMonitor::Options o;
        o.rescanIntervalMs = 200;
        o.stringPatterns.declare("redisson", "counters:*");
        return o;
    }

    // Acquired through the console's own acquire (what its dialog runs once accepted), and audited.
    static void acquire(GapsConsole &c, const AcquireRequest &request)
    {
        const int before = int(c.client.holds().size());
        c.actions->acquire(request);
        QTRY_VERIFY_WITH_TIMEOUT(
            !c.actions->ownHold(request.name).isEmpty() || int(c.client.holds().size()) > before, 10000);
    }

    // The records for name, in order, from the index'th line on.
    QList<QJsonObject> recordsFor(const QByteArray &name, int from = 0) const
    {
        QList<QJsonObject> out;
        const QList<QJsonObject> all = audit();
        for (int i = from; i < all.size(); ++i)
            if (all.at(i).value(QStringLiteral("name")).toString() == QString::fromUtf8(name))
                out << all.at(i);
        return out;
    }

    QMessageBox *auditRefusal(GapsConsole &c) const
    {
        QMessageBox *box = nullptr;
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT((box = c.window.findChild<QMessageBox *>()) != nullptr && box->isVisible(), 10000);
        }();
        return box;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile blocker(m_dir.filePath(QStringLiteral("not-a-directory")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
    }

    void cleanup() { qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8()); }

    // Three levels of our own hold, all given back by "Release all levels": the key is gone, and each level left its
    // record, the last one "released".
    void releaseAllLevels()
    {
        GapsConsole c(ConnectionOptions::fromUrl(m_server.url()), monitorOptions());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("gaps-all");
        for (int level = 1; level <= 3; ++level)
            c.actions->acquire(watchdogHold(name));
        const QByteArray owner = c.client.ownerField("1");
        QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(owner), QByteArray("3"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(recordsFor(name).size(), 3, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(c.levelsShown(name, owner), 3, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        const int from = int(audit().size());

        c.actions->releaseAllAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(recordsFor(name, from).size(), 3, 10000);
        const QList<QJsonObject> records = recordsFor(name, from);
        const QStringList outcomes { QStringLiteral("still-held"), QStringLiteral("still-held"),
            QStringLiteral("released") };
        for (int i = 0; i < 3; ++i) {
            const QJsonObject &r = records.at(i);
            QCOMPARE(r.value(QStringLiteral("action")).toString(), QStringLiteral("release"));
            QCOMPARE(r.value(QStringLiteral("outcome")).toString(), outcomes.at(i));
            QCOMPARE(r.value(QStringLiteral("result")).toString(), outcomes.at(i));
            QCOMPARE(r.value(QStringLiteral("client_id")).toString(), QString::fromUtf8(c.client.clientId()));
            QCOMPARE(
                r.value(QStringLiteral("url")).toString(), ConnectionOptions::fromUrl(m_server.url()).toDisplayUrl());
        }
        QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(name).isEmpty(), 10000);
        QTRY_VERIFY(c.window.statusMessage().contains(QStringLiteral("released ")));
        QVERIFY(!c.window.statusMessage().contains(QStringLiteral("still held")));
    }

    // One permit of an expirable semaphore given back from the console, as its holder's release would: the count goes
    // up, the permit goes, its waiters hear the count, and the record says which permit.
    void releasePermit()
    {
        GapsConsole c(ConnectionOptions::fromUrl(m_server.url()), monitorOptions());
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("gaps-permit");
        const QByteArray permit = "0123456789abcdef0123456789abcdef";
        raw.command({ "SET", name, "0" });
        raw.command({ "ZADD", "{" + name + "}:timeout", "922337203685477", permit });
        RawSubscriber waiter(m_server.port(), "redisson_sc:{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QAction *release = c.actions->counterActions().at(1);
        QTRY_VERIFY_WITH_TIMEOUT(release->isEnabled(), 10000);
        const int from = int(audit().size());

        release->trigger();
        QInputDialog *dialog = waitForDialog<QInputDialog>(&c.window);
        auto *choice = dialog->findChild<QComboBox *>();
        QVERIFY(choice);
        QCOMPARE(choice->count(), 1);
        QVERIFY(okButton(dialog));
        QTest::mouseClick(okButton(dialog), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.get(name), QByteArray("1"), 10000);
        QCOMPARE(raw.command({ "ZCARD", "{" + name + "}:timeout" }).toInteger(), 0);
        QCOMPARE(waiter.next(), QByteArray("message:1"));
        QTRY_COMPARE_WITH_TIMEOUT(recordsFor(name, from).size(), 1, 10000);
        const QJsonObject r = recordsFor(name, from).first();
        QCOMPARE(r.value(QStringLiteral("action")).toString(), QStringLiteral("release-permit"));
        QCOMPARE(r.value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        QCOMPARE(r.value(QStringLiteral("permit")).toString(), QString::fromLatin1(permit));
        QCOMPARE(r.value(QStringLiteral("count_now")).toString(), QStringLiteral("1"));
        QCOMPARE(r.value(QStringLiteral("client_id")).toString(), QString::fromUtf8(c.client.clientId()));
    }

    // Our watchdog switched off, then on again: on renews at once (the lease back to a whole minute), and both are
    // audited with our hold.
    void watchdogOffThenOn()
    {
        GapsConsole c(ConnectionOptions::fromUrl(m_server.url()), monitorOptions());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("gaps-watchdog");
        acquire(c, watchdogHold(name));
        const QByteArray owner = c.actions->ownHold(name);
        QVERIFY(!owner.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->watchdogAction()->isEnabled());
        QVERIFY(c.actions->watchdogAction()->isChecked());
        const int from = int(audit().size());

        c.actions->watchdogAction()->trigger(); // off
        QVERIFY(!c.actions->watchdogAction()->isChecked());
        QVERIFY(!c.client.isWatchdogEnabled(name, owner));
        // Time passes without renewals (as if 40 s had): on must bring the lease back by itself, at once.
        raw.command({ "PEXPIRE", name, "20000" });
        c.actions->watchdogAction()->trigger(); // on
        QVERIFY(c.actions->watchdogAction()->isChecked());
        QVERIFY(c.client.isWatchdogEnabled(name, owner));
        QTRY_VERIFY_WITH_TIMEOUT(raw.pttl(name) > 40000, 10000);
        QCOMPARE(raw.hgetall(name).value(owner), QByteArray("1"));

        const QList<QJsonObject> records = recordsFor(name, from);
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.at(0).value(QStringLiteral("action")).toString(), QStringLiteral("watchdog-off"));
        QCOMPARE(records.at(1).value(QStringLiteral("action")).toString(), QStringLiteral("watchdog-on"));
        for (const QJsonObject &r : records) {
            QCOMPARE(r.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
            QCOMPARE(r.value(QStringLiteral("client_id")).toString(), QString::fromUtf8(c.client.clientId()));
            const QJsonArray holders { QJsonObject { { QStringLiteral("owner"), QString::fromUtf8(owner) } } };
            QCOMPARE(r.value(QStringLiteral("holders_before")).toArray(), holders);
        }
    }

    // With the audit log unwritable, each write of the console is refused with a warning that says why, and nothing
    // changes in Redis: acquire, release all levels, the watchdog, force release, add permits.
    void unwritableAuditLogRefusesEveryWrite()
    {
        GapsConsole c(ConnectionOptions::fromUrl(m_server.url()), monitorOptions());
        RawRedis raw(m_server.port());
        const QByteArray ours = uniqueKey("gaps-ours");
        acquire(c, watchdogHold(ours));
        const QByteArray owner = c.actions->ownHold(ours);
        const QByteArray theirs = uniqueKey("gaps-theirs");
        raw.command({ "HSET", theirs, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731", "1" });
        raw.command({ "PEXPIRE", theirs, "600000" });
        const QByteArray semaphore = "counters:" + uniqueKey("gaps-sem");
        raw.command({ "SET", semaphore, "0" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(ours) >= 0 && c.row(theirs) >= 0 && c.row(semaphore) >= 0, 10000);
        const int records = int(audit().size());
        qputenv("LOCKSCOPE_AUDIT_LOG", unwritablePath().toUtf8());

        const auto refused = [&](const char *what) {
            QMessageBox *box = auditRefusal(c);
            QVERIFY2(box, what);
            QVERIFY2(box->text().contains(unwritablePath()) && box->text().contains(QStringLiteral("Nothing was")),
                qPrintable(box->text()));
            QVERIFY(c.window.statusMessage().contains(QStringLiteral("audit log")));
            QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
            QTRY_VERIFY(c.window.findChild<QMessageBox *>() == nullptr);
        };

        // Acquire, through its dialog.
        const QByteArray fresh = uniqueKey("gaps-fresh");
        c.actions->acquireAction()->trigger();
        AcquireDialog *acquireDialog = waitForDialog<AcquireDialog>(&c.window);
        acquireDialog->nameEdit()->setText(QString::fromUtf8(fresh));
        QTest::mouseClick(okButton(acquireDialog), Qt::LeftButton);
        refused("acquire");
        QCOMPARE(raw.type(fresh), QByteArray("none"));

        // Release all levels, and the watchdog, of our own hold.
        c.select(ours);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        c.actions->releaseAllAction()->trigger();
        refused("release all");
        QCOMPARE(raw.hgetall(ours).value(owner), QByteArray("1"));
        QVERIFY(c.actions->watchdogAction()->isChecked());
        c.actions->watchdogAction()->trigger();
        refused("watchdog");
        QVERIFY(c.client.isWatchdogEnabled(ours, owner));
        QVERIFY(c.actions->watchdogAction()->isChecked());

        // Force release of someone else's lock, confirmed in its dialog.
        c.select(theirs);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *force = waitForDialog<ForceReleaseDialog>(&c.window);
        QTest::mouseClick(force->confirmButton(), Qt::LeftButton);
        refused("force release");
        QCOMPARE(raw.type(theirs), QByteArray("hash"));
        QVERIFY(raw.pttl(theirs) > 0);

        // Add permits, through its dialog.
        c.select(semaphore);
        QAction *add = c.actions->counterActions().at(0);
        QTRY_VERIFY(add->isEnabled());
        add->trigger();
        QInputDialog *permits = waitForDialog<QInputDialog>(&c.window);
        permits->setIntValue(3);
        QTest::mouseClick(okButton(permits), Qt::LeftButton);
        refused("add permits");
        QCOMPARE(raw.get(semaphore), QByteArray("0"));

        QVERIFY(!QFile::exists(unwritablePath()));
        QCOMPARE(int(audit().size()), records);
    }
};

QTEST_MAIN(TestConsoleGaps)
#include "tst_consolegaps.moc"
