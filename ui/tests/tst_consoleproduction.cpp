// A production server, as support staff meet it: the header says PRODUCTION, and the force release dialog confirms
// only once the lock's name is typed (real key presses); Return never confirms, a wrong name never does. The reason
// typed goes into the audit record, on any server, and every write is posted to the profile's notify list.
#include "connectionheader.h"
#include "consolefixture.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"
#include "webhook.h"

#include <QAction>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleProduction : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    ForceReleaseDialog *openDialog(Console &c, const QByteArray &name)
    {
        [&] { QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000); }();
        c.select(name);
        [&] { QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled()); }();
        c.actions->forceReleaseAction()->trigger();
        return waitForDialog<ForceReleaseDialog>(&c.window);
    }

private slots:
    void initTestCase() { startConsoleTest(m_server, m_dir); }

    void theNameMustBeTyped()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        c.window.setProduction(true);
        c.actions->setProduction(true);
        QVERIFY(c.window.findChild<ConnectionHeader *>()->production());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("payments");
        raw.command({ "HSET", name, kTheirs, "1" });
        raw.command({ "PEXPIRE", name, "600000" });

        ForceReleaseDialog *dialog = openDialog(c, name);
        QVERIFY(dialog);
        QVERIFY(dialog->nameField()->isVisible());
        QVERIFY(!dialog->confirmButton()->isEnabled());
        // A wrong name: still no confirmation.
        dialog->nameField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->nameField(), QStringLiteral("payment"));
        QVERIFY(!dialog->confirmButton()->isEnabled());
        // The right name, and Return: the dialog only cancels.
        QTest::keyClicks(dialog->nameField(), QString::fromUtf8(name.mid(7)));
        QCOMPARE(dialog->nameField()->text(), QString::fromUtf8(name));
        QVERIFY(dialog->confirmButton()->isEnabled());
        QPointer<ForceReleaseDialog> guard(dialog);
        const qsizetype records = auditLines(auditPath()).size();
        QTest::keyClick(dialog->nameField(), Qt::Key_Return);
        QTRY_VERIFY(!guard || !guard->isVisible());
        QCOMPARE(raw.hgetall(name).value(kTheirs), QByteArray("1"));
        QCOMPARE(auditLines(auditPath()).size(), records);

        // Again, typed and clicked, with a reason: released, and the reason recorded.
        dialog = openDialog(c, name);
        QVERIFY(dialog);
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4711 payments stuck"));
        dialog->nameField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->nameField(), QString::fromUtf8(name));
        QVERIFY(dialog->confirmButton()->isEnabled());
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_VERIFY(auditLines(auditPath()).size() > records);
        const QJsonObject record = auditLines(auditPath()).last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(record.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
        QCOMPARE(record.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4711 payments stuck"));
    }

    void elsewhereNoNameIsAsked()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(!c.window.findChild<ConnectionHeader *>()->production());
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("staging");
        raw.command({ "HSET", name, kTheirs, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        ForceReleaseDialog *dialog = openDialog(c, name);
        QVERIFY(dialog);
        QVERIFY(!dialog->nameField()->isVisible());
        QVERIFY(dialog->confirmButton()->isEnabled());
        const qsizetype records = auditLines(auditPath()).size();
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_VERIFY(auditLines(auditPath()).size() > records);
        QVERIFY(!auditLines(auditPath()).last().contains(QStringLiteral("reason"))); // none typed, none recorded
    }

    // The profile's notify list: the console's force release is posted there as lockscope-cli's would be, the
    // record as the log has it, with the chat line.
    void writesArePostedToTheProfilesHooks()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        Hook hook;
        c.actions->setNotify({ hook.url() });
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("hooked");
        raw.command({ "HSET", name, kTheirs, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        ForceReleaseDialog *dialog = openDialog(c, name);
        QVERIFY(dialog);
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("INC-4712"));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(hook.requests.size(), 1, 10000);
        const QJsonObject body = QJsonDocument::fromJson(hook.requests.first().second).object();
        QCOMPARE(body.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(body.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(body.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4712"));
        QVERIFY2(body.value(QStringLiteral("text")).toString().contains(QStringLiteral("INC-4712")),
            hook.requests.first().second.constData());
    }
};

QTEST_MAIN(TestConsoleProduction)
#include "tst_consoleproduction.moc"
