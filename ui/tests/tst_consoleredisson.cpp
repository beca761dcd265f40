// The console against Redisson itself (issue 48): real Redisson threads in a JVM (redissonjvm.h, the driver
// scripts/dev setup builds from Maven Central) and the console driven as a person drives it. Its force release
// wakes a Redisson thread blocked in lock() at once, and the old owner's unlock throws; a lock the console took with
// Ctrl+N is waited on by Redisson, which gets it the moment the console releases it.
//
// Holders here take ten-minute leases: a waiter that got the lock within the test's minute was woken by a message.
#include "acquiredialog.h"
#include "consolefixture.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissoncases.h"
#include "testutil.h"

#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {

// The newest Redisson the tests pin, and the oldest: the console's writes are the CLI's, which tst_redisson checks
// against every pinned version.
QStringList newestAndOldest()
{
    const QStringList versions = pinnedRedissonVersions();
    return versions.size() < 2 ? versions : QStringList { versions.first(), versions.last() };
}

} // namespace

class TestConsoleRedisson : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    static void versionRows()
    {
        QTest::addColumn<QString>("version");
        for (const QString &v : newestAndOldest())
            QTest::newRow(qPrintable(v)) << v;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
        QVERIFY2(!RedissonJvm::java().isEmpty(), "no java: install a JDK (scripts/dev setup)");
        QVERIFY2(newestAndOldest().size() == 2, "tests/interop/redisson/versions.txt names too few versions");
    }

    // The row selected, Force release, the confirm button clicked: the Redisson thread blocked behind the holder's
    // ten-minute lease gets the lock now, and the holder's own unlock is refused by Redisson.
    void forceReleaseWakesRedisson_data() { versionRows(); }
    void forceReleaseWakesRedisson()
    {
        QFETCH(QString, version);
        RedissonJvm holder, waiter;
        QVERIFY(holder.start(version, m_server.url()));
        QVERIFY(waiter.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        const QByteArray name = uniqueKey("console-rs-force");
        const QJsonObject held = holder.call(redissonCall(
            QStringLiteral("lock"), QStringLiteral("a"), {}, name, { { QStringLiteral("lease"), kLongLeaseMs } }));
        QVERIFY(held.value(QStringLiteral("ok")).toBool());
        const int blocked = waiter.send(redissonCall(
            QStringLiteral("lock"), QStringLiteral("b"), {}, name, { { QStringLiteral("lease"), kLongLeaseMs } }));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, name), 30000);
        // The console shows the waiter before the person acts.
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && c.monitor.record(name)->info.waiters == 1, 30000);

        activate(c);
        clickRow(c, name);
        c.actions->forceReleaseAction()->trigger();
        auto *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QVERIFY2(dialog->text().contains(held.value(QStringLiteral("owner")).toString()), qPrintable(dialog->text()));
        QVERIFY2(dialog->text().contains(QStringLiteral("1 waiter")), qPrintable(dialog->text()));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);

        const std::optional<QJsonObject> woke = waiter.reply(blocked, 60000);
        QVERIFY(woke && woke->value(QStringLiteral("ok")).toBool());
        const QJsonObject late = holder.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name));
        QCOMPARE(
            late.value(QStringLiteral("error")).toString(), QStringLiteral("java.lang.IllegalMonitorStateException"));
        QVERIFY(waiter.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("b"), {}, name))[QStringLiteral("ok")]
                    .toBool());
    }

    // Ctrl+N, the name typed, Return: the console holds the lock. A Redisson thread waits on it, and gets it the
    // moment Release all levels (Ctrl+Shift+R) gives it back, though the console's lease had long to run.
    void redissonWaitsOnTheConsolesLock_data() { versionRows(); }
    void redissonWaitsOnTheConsolesLock()
    {
        QFETCH(QString, version);
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        const QByteArray name = uniqueKey("console-rs-ours");

        activate(c);
        QTest::keySequence(&c.window, c.actions->acquireAction()->shortcut());
        auto *dialog = qobject_cast<AcquireDialog *>(openDialog());
        QVERIFY(dialog);
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QString::fromUtf8(name));
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!c.actions->ownHold(name).isEmpty(), 30000);

        const int blocked = java.send(redissonCall(
            QStringLiteral("lock"), QStringLiteral("a"), {}, name, { { QStringLiteral("lease"), kLongLeaseMs } }));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, name), 30000);
        QVERIFY(!java.answered(blocked));

        c.select(name);
        activate(c);
        QTRY_VERIFY(c.actions->releaseAllAction()->isEnabled());
        QTest::keySequence(&c.window, c.actions->releaseAllAction()->shortcut());
        const std::optional<QJsonObject> got = java.reply(blocked, 60000);
        QVERIFY(got && got->value(QStringLiteral("ok")).toBool());
        QCOMPARE(
            raw.hgetall(name).keys(), QList<QByteArray> { got->value(QStringLiteral("owner")).toString().toUtf8() });
        QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))[QStringLiteral("ok")]
                    .toBool());
    }
};

QTEST_MAIN(TestConsoleRedisson)
#include "tst_consoleredisson.moc"
