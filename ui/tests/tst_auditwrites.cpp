// Every write the console makes leaves the record lockscope-cli leaves for the same action on the same state, field by
// field (release of one level and of all levels, force release, add permits, release a permit, open a latch), and the
// writes only the console makes (acquire, busy or not, and the watchdog off and on) leave exactly the fields the docs
// list. The console is built as the app builds it (its display target as the audit's url), in English and in Chinese
// (the translator the app installs): no field is translated. A user and a database in the URL are part of the url, the
// password never. tst_auditssh does the same through an SSH host.
#include "auditwrites.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"
#include "translations.h"

#include <QScopeGuard>
#include <QTemporaryDir>

using namespace LockScope;
using namespace LockScope::Test;

class TestAuditWrites : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QCOMPARE(useOwnAuditLog(m_dir), auditPath());
        RawRedis raw(m_server.port());
        QVERIFY(!raw.command({ "ACL", "SETUSER", "auditor", "on", ">s3cret", "~*", "&*", "+@all" }).isError());
    }

    void everyWriteAsDocumented_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("user"); // the URL names a user, a password and database 3
        for (const QString &lang : { QStringLiteral("en"), QStringLiteral("zh_CN") })
            for (const bool user : { false, true })
                QTest::addRow("%s%s", qPrintable(lang), user ? ", user and db" : "") << lang << user;
    }

    void everyWriteAsDocumented()
    {
        QFETCH(QString, lang);
        QFETCH(bool, user);
        QVERIFY(I18n::install(lang)); // before the console is built, as main() does
        const auto english = qScopeGuard([] { I18n::install(QStringLiteral("en")); });
        const QString shown = user ? QStringLiteral("redis://auditor@127.0.0.1:%1/3").arg(m_server.port())
                                   : QStringLiteral("redis://127.0.0.1:%1/0").arg(m_server.port());
        const QString given
            = user ? QStringLiteral("redis://auditor:s3cret@127.0.0.1:%1/3").arg(m_server.port()) : m_server.url();
        LockMonitor::Options profile = Console::fastMonitor();
        profile.stringPatterns.declare("redisson", "audit-counters:*");
        Console c(ConnectionOptions::fromUrl(given), profile);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        if (user)
            QVERIFY(!raw.command({ "SELECT", "3" }).isError());

        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("LOCKSCOPE_TEST_PW"), QStringLiteral("s3cret"));
        if (lang != QLatin1String("en")) {
            env.insert(QStringLiteral("LANG"), lang + QStringLiteral(".UTF-8"));
            env.insert(QStringLiteral("LANGUAGE"), lang);
        }
        // The password on the command line would be in ps: lockscope-cli takes it from the environment.
        const QStringList target = user ? QStringList { QStringLiteral("--url"), shown,
            QStringLiteral("--password-env"), QStringLiteral("LOCKSCOPE_TEST_PW") }
                                        : QStringList { QStringLiteral("--url"), m_server.url() };
        AuditWrites w { c, auditPath(),
            [&raw](const QList<QByteArray> &argv) {
                const RedisValue v = raw.command(argv);
                QByteArrayList text;
                if (v.isArray())
                    for (int i = 0; i < v.size(); ++i)
                        text << (v.at(i).isInteger() ? QByteArray::number(v.at(i).toInteger()) : v.at(i).bytes());
                else
                    text << (v.isInteger() ? QByteArray::number(v.toInteger()) : v.bytes());
                return text.join('\n');
            },
            [&env, &target](const QStringList &args) { return runCli(args + target, env); },
            { QStringLiteral("--layout-pattern"), QStringLiteral("redisson=audit-counters:*") } };
        w.everyWrite(shown, uniqueKey("audit"), [this](const QByteArray &channel) {
            return std::shared_ptr<void>(std::make_shared<RawSubscriber>(m_server.port(), channel));
        });
    }
};

QTEST_MAIN(TestAuditWrites)
#include "tst_auditwrites.moc"
