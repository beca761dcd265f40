// Who may use an SSH tunnel, against a real sshd in a network namespace: host keys that are unknown (refused with
// the fingerprint until accepted, asked about at a terminal) or changed (refused), a key the server does not
// authorize, a password login, the agent's keys; and how USER@HOST[:PORT] is read.
#include "sshfixture.h"

#include "ssh/sshoptions.h"

#include <QDeadlineTimer>

using namespace LockScope;
using namespace LockScope::Test;

class TestSshAuth : public QObject, protected SshFixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }
    void init() { ensureSshd(); }
    void targetParsing_data();
    void targetParsing();
    void unknownHostKeyIsRefusedUntilAccepted();
    void unknownHostKeyIsAskedAboutAtATerminal();
    void changedHostKeyIsRefused();
    void keyTheServerDoesNotAuthorizeIsRefused();
    void passwordLoginWhenNoKeyIsAccepted();
    void agentKeysWhenNoKeyIsGiven();
};

void TestSshAuth::targetParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::newRow("user, host, port") << "ops@bastion.example:2222" << true << "ops"
                                      << "bastion.example" << 2222;
    QTest::newRow("host alone") << "bastion" << true << ""
                                << "bastion" << 22;
    QTest::newRow("ipv6 with port") << "ops@[fd00::1]:2200" << true << "ops"
                                    << "fd00::1" << 2200;
    QTest::newRow("bare ipv6") << "fd00::1" << true << ""
                               << "fd00::1" << 22;
    QTest::newRow("user with @") << "a@b@host" << true << "a@b"
                                 << "host" << 22;
    QTest::newRow("empty user") << "@host" << false << ""
                                << "" << 0;
    QTest::newRow("no host") << "ops@" << false << ""
                             << "" << 0;
    QTest::newRow("port 0") << "host:0" << false << ""
                            << "" << 0;
    QTest::newRow("port too big") << "host:70000" << false << ""
                                  << "" << 0;
    QTest::newRow("port not a number") << "host:ssh" << false << ""
                                       << "" << 0;
    QTest::newRow("space in host") << "ops@bad host" << false << ""
                                   << "" << 0;
    QTest::newRow("unclosed bracket") << "[fd00::1:22" << false << ""
                                      << "" << 0;
}

void TestSshAuth::targetParsing()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    RedisError error;
    const SshOptions o = SshOptions::parseTarget(text, &error);
    QCOMPARE(!error.isError(), valid);
    if (!valid) {
        QCOMPARE(error.kind(), RedisError::Kind::InvalidArgument);
        QVERIFY(!o.isSet());
        return;
    }
    QTEST(o.user, "user");
    QTEST(o.host, "host");
    QTEST(int(o.port), "port");
}

void TestSshAuth::unknownHostKeyIsRefusedUntilAccepted()
{
    const QString knownHosts = m_dir.filePath(QStringLiteral("empty_known_hosts"));
    QFile::remove(knownHosts);
    const QStringList list { QStringLiteral("list") };

    // Unknown: refused, with the fingerprint to check, and nothing remembered.
    CliRun r = cli(list + sshArgs(m_redis, knownHosts));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(m_host.hostFingerprint().toLatin1()) && r.err.contains("not known"), r.err.constData());
    QVERIFY2(r.err.contains("--ssh-accept-host-key " + m_host.hostFingerprint().toLatin1()), r.err.constData());
    QVERIFY(!QFile::exists(knownHosts));

    // Accepting another fingerprint than the server's is a refusal too.
    r = cli(list + sshArgs(m_redis, knownHosts)
        + QStringList { QStringLiteral("--ssh-accept-host-key"),
            QStringLiteral("SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY(!QFile::exists(knownHosts));

    // The fingerprint the person saw: accepted, remembered, and not asked about again.
    r = cli(list + sshArgs(m_redis, knownHosts)
        + QStringList { QStringLiteral("--ssh-accept-host-key"), m_host.hostFingerprint() });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains(
        m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")).split(' ').value(2)));
    r = cli(list + sshArgs(m_redis, knownHosts));
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestSshAuth::unknownHostKeyIsAskedAboutAtATerminal()
{
    // As ssh does at a terminal: the fingerprint is shown and the key accepted only on "yes". script(1) gives the
    // CLI a terminal; the answer is typed into it.
    // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves the exit code -1.
    const auto atTerminal = [&](const QString &knownHosts, const QByteArray &answer) {
        QProcess p;
        startCliAtTerminal(p, QStringList { QStringLiteral("list") } + sshArgs(m_redis, knownHosts), environment());
        QByteArray seen;
        QDeadlineTimer deadline(30000);
        // The answer goes in once the question is on the terminal.
        while (!seen.contains("[y/N]") && p.state() == QProcess::Running && !deadline.hasExpired()) {
            p.waitForReadyRead(1000);
            seen += p.readAllStandardOutput();
        }
        p.write(answer);
        const CliRun r = finishCliAtTerminal(p, 30000, seen);
        return std::make_pair(r.exitCode, r.out);
    };
    const QString knownHosts = m_dir.filePath(QStringLiteral("asked_known_hosts"));
    QFile::remove(knownHosts);
    auto [code, seen] = atTerminal(knownHosts, "n\n");
    QVERIFY2(seen.contains(m_host.hostFingerprint().toLatin1()), seen.constData());
    QCOMPARE(code, 3);
    QVERIFY(!QFile::exists(knownHosts));
    std::tie(code, seen) = atTerminal(knownHosts, "yes\n");
    QVERIFY2(code == 0, seen.constData());
    QVERIFY2(seen.contains("0 locks") || seen.contains("1 lock"), seen.constData());
    QVERIFY(QFile::exists(knownHosts));
}

void TestSshAuth::changedHostKeyIsRefused()
{
    // known_hosts holds another key for this host: refused, even when the real key's fingerprint is "accepted".
    const QString knownHosts = writeKnownHosts(QStringLiteral("changed_known_hosts"),
        m_host.knownHostsLine(m_host.otherHostKeyFile() + QStringLiteral(".pub")));
    const CliRun r = cli(QStringList { QStringLiteral("list") } + sshArgs(m_redis, knownHosts)
        + QStringList { QStringLiteral("--ssh-accept-host-key"), m_host.hostFingerprint() });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("CHANGED") && r.err.contains(m_host.hostFingerprint().toLatin1()), r.err.constData());
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), m_host.knownHostsLine(m_host.otherHostKeyFile() + QStringLiteral(".pub")));
}

void TestSshAuth::keyTheServerDoesNotAuthorizeIsRefused()
{
    CliRun r = cli(QStringList { QStringLiteral("list") } + sshArgs(m_redis, m_knownHosts, m_host.otherKey()));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("refused") && r.err.contains(m_host.otherKey().toUtf8()), r.err.constData());

    // A key file that is not there is a usage error, found before anything connects.
    r = cli(QStringList { QStringLiteral("list") }
        + sshArgs(m_redis, m_knownHosts, m_dir.filePath(QStringLiteral("no-such-key"))));
    QCOMPARE(r.exitCode, 2);
    // And SSH options without --ssh are too.
    r = cli({ QStringLiteral("list"), QStringLiteral("--ssh-key"), m_host.clientKey() });
    QCOMPARE(r.exitCode, 2);
}

void TestSshAuth::passwordLoginWhenNoKeyIsAccepted()
{
    // No key given, no agent, no ~/.ssh/id_*: the password (from the environment, never argv) is what logs in.
    const QStringList args { QStringLiteral("list"), QStringLiteral("--url"),
        QStringLiteral("redis://127.0.0.1:%1").arg(m_redis), QStringLiteral("--ssh"), m_host.sshTarget(),
        QStringLiteral("--ssh-known-hosts"), m_knownHosts, QStringLiteral("--ssh-password-env"),
        QStringLiteral("SSH_TEST_PASSWORD") };
    // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves the exit code -1.
    const auto run = [&](const QString &password) {
        QProcessEnvironment e = environment();
        e.insert(QStringLiteral("SSH_TEST_PASSWORD"), password);
        const CliRun r = runCli(args, e, {}, CliWait::Blocking, 60000);
        return std::make_pair(r.exitCode, r.err);
    };
    auto [code, err] = run(SshHost::password());
    QVERIFY2(code == 0, err.constData());
    std::tie(code, err) = run(QStringLiteral("not-the-password"));
    QCOMPARE(code, 3);
    // Says what was tried, and what the host would take.
    QVERIFY2(err.contains("the password") && err.contains("publickey, password"), err.constData());
    QVERIFY(!err.contains("not-the-password"));
}

void TestSshAuth::agentKeysWhenNoKeyIsGiven()
{
    // No --ssh-key: the agent's keys are offered (HOME has no ~/.ssh/id_*), as ssh does.
    const QStringList args { QStringLiteral("list"), QStringLiteral("--url"),
        QStringLiteral("redis://127.0.0.1:%1").arg(m_redis), QStringLiteral("--ssh"), m_host.sshTarget(),
        QStringLiteral("--ssh-known-hosts"), m_knownHosts };
    const QString socket = m_dir.filePath(QStringLiteral("agent.sock"));
    QProcess agent;
    agent.start(QStringLiteral("ssh-agent"), { QStringLiteral("-D"), QStringLiteral("-a"), socket });
    QVERIFY(agent.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 15000);
    QProcessEnvironment e = environment();
    e.insert(QStringLiteral("SSH_AUTH_SOCK"), socket);
    const auto run = [&](const QString &program, const QStringList &arguments) {
        QProcess p;
        p.setProcessEnvironment(e);
        p.start(program, arguments);
        p.closeWriteChannel();
        p.waitForFinished(60000);
        return std::make_pair(p.exitCode(), p.readAllStandardError());
    };
    // The CLI through clirun.h: a crash, a hang or a sanitizer's report fails the test, and leaves the exit code -1.
    const auto cliRun = [&](const QStringList &arguments) {
        const CliRun r = runCli(arguments, e, {}, CliWait::Blocking, 60000);
        return std::make_pair(r.exitCode, r.err);
    };
    // An empty agent: refused, saying the agent was tried.
    auto [code, err] = cliRun(args);
    QCOMPARE(code, 3);
    QVERIFY2(err.contains("agent"), err.constData());
    std::tie(code, err) = run(QStringLiteral("ssh-add"), { m_host.clientKey() });
    QVERIFY2(code == 0, err.constData());
    std::tie(code, err) = cliRun(args);
    QVERIFY2(code == 0, err.constData());
    agent.kill();
    agent.waitForFinished();
}

QTEST_GUILESS_MAIN(TestSshAuth)
#include "tst_sshauth.moc"
