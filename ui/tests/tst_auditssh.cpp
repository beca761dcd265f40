// tst_auditwrites through an SSH host: every write of the console, built as the app builds it for a profile with an SSH
// tunnel, leaves lockscope-cli's record of the same action made with --ssh, field by field, and its own writes the
// fields the docs list; in English and in Chinese. Each record's url names the route as the docs write it
// ("redis://127.0.0.1:6379/0 through SSH ops@bastion"). Against a real sshd and redis-server in a network namespace.
#include "auditwrites.h"
#include "sshhost.h"
#include "translations.h"

#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>

using namespace LockScope;
using namespace LockScope::Test;

class TestAuditSsh : public QObject
{
    Q_OBJECT
    SshHost m_host;
    QTemporaryDir m_dir;
    quint16 m_redis = 0;
    QString m_knownHosts;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_host.start(&error), qPrintable(error));
        m_redis = m_host.startRedis({}, &error);
        QVERIFY2(m_redis, qPrintable(error));
        m_knownHosts = m_dir.filePath(QStringLiteral("known_hosts"));
        QFile known(m_knownHosts);
        QVERIFY(known.open(QIODevice::WriteOnly));
        known.write(m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")));
        known.close();
        QCOMPARE(useOwnAuditLog(m_dir), auditPath());
    }

    void everyWriteThroughSsh_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void everyWriteThroughSsh()
    {
        QFETCH(QString, lang);
        QVERIFY(I18n::install(lang)); // before the console is built, as main() does
        const auto english = qScopeGuard([] { I18n::install(QStringLiteral("en")); });
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis);
        // The profile's options as the connection dialog (or --ssh) gives them, the host key already known.
        ConnectionOptions options = ConnectionOptions::fromUrl(url);
        options.ssh = SshOptions::parseTarget(m_host.sshTarget());
        options.ssh.keyFile = m_host.clientKey();
        options.ssh.knownHostsFile = m_knownHosts;
        options.ssh.readSshConfig = false;
        LockMonitor::Options profile = Console::fastMonitor();
        profile.stringPatterns.declare("redisson", "audit-counters:*");
        Console c(options, profile);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));

        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("HOME"), m_dir.path()); // no ~/.ssh of the machine's
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        if (lang != QLatin1String("en")) {
            env.insert(QStringLiteral("LANG"), lang + QStringLiteral(".UTF-8"));
            env.insert(QStringLiteral("LANGUAGE"), lang);
        }
        const QStringList route { QStringLiteral("--url"), url, QStringLiteral("--ssh"), m_host.sshTarget(),
            QStringLiteral("--ssh-key"), m_host.clientKey(), QStringLiteral("--ssh-known-hosts"), m_knownHosts };
        const qsizetype from = auditLines(auditPath()).size();
        AuditWrites w { c, auditPath(),
            [this](const QList<QByteArray> &argv) {
                QStringList args;
                for (const QByteArray &a : argv)
                    args << QString::fromUtf8(a);
                return m_host.redisCli(m_redis, args);
            },
            [&env, &route](const QStringList &args) { return runCli(args + route, env, {}, CliWait::Blocking, 60000); },
            { QStringLiteral("--layout-pattern"), QStringLiteral("redisson=audit-counters:*") } };
        // A waiter inside the namespace, as Redisson's would be.
        const auto listen = [this](const QByteArray &channel) {
            auto *p = new QProcess;
            p->start(QStringLiteral("ip"),
                { QStringLiteral("netns"), QStringLiteral("exec"), m_host.netns(), QStringLiteral("redis-cli"),
                    QStringLiteral("-p"), QString::number(m_redis), QStringLiteral("SUBSCRIBE"),
                    QString::fromUtf8(channel) });
            return std::shared_ptr<void>(p, [](void *q) {
                auto *process = static_cast<QProcess *>(q);
                process->kill();
                process->waitForFinished(5000);
                delete process;
            });
        };
        // Both programs' records held to each other here; the url as the docs write it, below.
        w.everyWrite(QString(), uniqueKey("audit-ssh"), listen);
        if (QTest::currentTestFailed())
            return;

        QStringList urls;
        for (const QJsonObject &r : auditLinesFrom(auditPath(), from))
            urls << r.value(QStringLiteral("url")).toString();
        urls.removeDuplicates();
        const QString documented
            = QStringLiteral("redis://127.0.0.1:%1/0 through SSH %2").arg(m_redis).arg(m_host.sshTarget());
        // Untranslated in every language: audit records are read by tools, and one log has readers of many.
        QCOMPARE(urls, QStringList { documented });
    }
};

QTEST_MAIN(TestAuditSsh)
#include "tst_auditssh.moc"
