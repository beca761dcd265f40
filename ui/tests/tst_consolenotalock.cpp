// The console never changes what is no lock: a lock the person confirmed a force release of, replaced while the
// dialog was open by application data that still carries the old holder's field, is refused with the reason show
// gives, and the data is left exactly as it is. A guard of the shown holders' names alone would let this one through
// (the holder's field is still there): the script's guard also requires a lock's shape (every holder a whole count).
#include "consolefixture.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleNotALock : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8()); // settings stay in the test
        QCoreApplication::setOrganizationName(QStringLiteral("lockscope-tests"));
    }

    void forceReleaseRefusedWhenTheLockBecameData()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("orders");
        const QByteArray holder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
        raw.command({ "HSET", name, holder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QCOMPARE(dialog->shownHolders(), QList<QByteArray> { holder });

        // While the dialog is open the name becomes an application's record that happens to keep that field.
        raw.command({ "DEL", name });
        raw.command({ "HSET", name, holder, "1", "email", "a@example.org" });
        const QMap<QByteArray, QByteArray> data = raw.hgetall(name);
        // The console sees it is no lock any more before the person clicks.
        QTRY_VERIFY_WITH_TIMEOUT(c.shownGone(name), 10000);

        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(c.window.statusMessage().contains(QStringLiteral("not a lock")), 10000);
        QCOMPARE(raw.hgetall(name), data);
        QCOMPARE(raw.pttl(name), qint64(-1));
        const QList<QJsonObject> audit = auditLines(m_dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(!audit.isEmpty());
        // The script's guard stopped it (the holders are no longer exactly those shown), and the person is told what
        // is there now.
        QCOMPARE(audit.last().value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));
    }
};

QTEST_MAIN(TestConsoleNotALock)
#include "tst_consolenotalock.moc"
