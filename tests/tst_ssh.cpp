// Reaching Redis through an SSH host: a real sshd in a network namespace of the test's own is the only way in (the
// redis-servers listen on the namespace's loopback). The CLI lists, locks and force-releases through the tunnel; host
// keys that are unknown or changed and a key the server does not authorize are refused; sshd killed mid-session is
// reported and the connection comes back with it; a cluster whose nodes announce namespace addresses is used whole.
#include "clirun.h"
#include "sshhost.h"

#include "redis/redisconnection.h"
#include "ssh/sshoptions.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestSsh : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void targetParsing_data();
    void targetParsing();
    void redisIsReachableOnlyThroughTheTunnel();
    void listLockAndForceReleaseThroughTheTunnel();
    void unknownHostKeyIsRefusedUntilAccepted();
    void unknownHostKeyIsAskedAboutAtATerminal();
    void changedHostKeyIsRefused();
    void keyTheServerDoesNotAuthorizeIsRefused();
    void passwordLoginWhenNoKeyIsAccepted();
    void addressTheSshHostCannotReachIsSaidSo();
    void agentKeysWhenNoKeyIsGiven();
    void sshdKilledMidSessionIsReportedThenReconnects();
    void clusterReachedOnlyThroughTheTunnel();
    void sentinelAndItsMasterReachedThroughTheTunnel();
    void tlsRunsEndToEndInsideTheTunnel();

private:
    // lockscope-cli with HOME in the test's directory (no ~/.ssh of the machine's) and no agent.
    CliRun cli(const QStringList &args);
    QStringList sshArgs(quint16 redisPort, const QString &knownHosts, const QString &key = {}) const;
    QString writeKnownHosts(const QString &name, const QByteArray &contents);
    QProcessEnvironment environment() const;

    SshHost m_host;
    QTemporaryDir m_dir;
    quint16 m_redis = 0;
    QString m_knownHosts; // holds the SSH host's real key
};

void TestSsh::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(m_host.start(&error), qPrintable(error));
    m_redis = m_host.startRedis({}, &error);
    QVERIFY2(m_redis, qPrintable(error));
    m_knownHosts = writeKnownHosts(
        QStringLiteral("known_hosts"), m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub")));
}

void TestSsh::init()
{
    // Each test starts with sshd up, whatever the one before did to it.
    if (!m_host.isSshdRunning()) {
        QString error;
        QVERIFY2(m_host.startSshd(&error), qPrintable(error));
    }
}

QProcessEnvironment TestSsh::environment() const
{
    QProcessEnvironment e = cliEnvironment(m_dir);
    e.insert(QStringLiteral("HOME"), m_dir.path());
    e.remove(QStringLiteral("SSH_AUTH_SOCK"));
    return e;
}

QString TestSsh::writeKnownHosts(const QString &name, const QByteArray &contents)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    file.write(contents);
    return path;
}

QStringList TestSsh::sshArgs(quint16 redisPort, const QString &knownHosts, const QString &key) const
{
    return { QStringLiteral("--url"), QStringLiteral("redis://127.0.0.1:%1").arg(redisPort), QStringLiteral("--ssh"),
        m_host.sshTarget(), QStringLiteral("--ssh-key"), key.isEmpty() ? m_host.clientKey() : key,
        QStringLiteral("--ssh-known-hosts"), knownHosts };
}

CliRun TestSsh::cli(const QStringList &args)
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    p.closeWriteChannel();
    CliRun r;
    if (!p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void TestSsh::targetParsing_data()
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

void TestSsh::targetParsing()
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

void TestSsh::redisIsReachableOnlyThroughTheTunnel()
{
    // Without the tunnel: refused at the namespace's address (Redis is bound to its loopback), and this machine's own
    // loopback has no such server. The tests below would prove nothing if either answered.
    QTcpSocket direct;
    direct.connectToHost(m_host.sshAddress(), m_redis);
    QVERIFY(!direct.waitForConnected(5000));
    const CliRun plain = cli({ QStringLiteral("list"), QStringLiteral("--url"),
        QStringLiteral("redis://%1:%2").arg(m_host.sshAddress()).arg(m_redis) });
    QCOMPARE(plain.exitCode, 3);

    m_host.redisCli(m_redis, { QStringLiteral("SET"), QStringLiteral("probe"), QStringLiteral("through") });
    const CliRun r
        = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list") } + sshArgs(m_redis, m_knownHosts));
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestSsh::listLockAndForceReleaseThroughTheTunnel()
{
    const QString name = QStringLiteral("orders:ssh");
    // A holder: lockscope-cli lock, through the tunnel, holding until its standard input ends.
    QProcess holder;
    holder.setProcessEnvironment(environment());
    holder.start(QStringLiteral(LOCKSCOPE_CLI_PATH),
        QStringList { QStringLiteral("lock"), name, QStringLiteral("--json") } + sshArgs(m_redis, m_knownHosts));
    QVERIFY(holder.waitForStarted());
    QTRY_VERIFY2_WITH_TIMEOUT(m_host.redisCli(m_redis, { QStringLiteral("HLEN"), name }) == "1",
        qPrintable(QString::fromLocal8Bit(holder.readAllStandardError())), 30000);
    const QByteArray field = m_host.redisCli(m_redis, { QStringLiteral("HKEYS"), name });

    // Listed through the tunnel, with that holder.
    const CliRun list = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                                QStringLiteral("orders:*") }
        + sshArgs(m_redis, m_knownHosts));
    QVERIFY2(list.exitCode == 0, list.err.constData());
    const QJsonArray locks = QJsonDocument::fromJson(list.out).array();
    QCOMPARE(locks.size(), 1);
    QCOMPARE(locks.first()[QStringLiteral("name")].toString(), name);
    QCOMPARE(locks.first()[QStringLiteral("holders")][0][QStringLiteral("owner")].toString(), QString::fromUtf8(field));

    // A waiter's view: the wake-up message Redisson's waiters sleep on, seen inside the namespace.
    QProcess subscriber;
    subscriber.start(QStringLiteral("ip"),
        { QStringLiteral("netns"), QStringLiteral("exec"), m_host.netns(), QStringLiteral("redis-cli"),
            QStringLiteral("-p"), QString::number(m_redis), QStringLiteral("SUBSCRIBE"),
            QStringLiteral("redisson_lock__channel:{%1}").arg(name) });
    QByteArray heard;
    QTRY_VERIFY_WITH_TIMEOUT((heard += subscriber.readAllStandardOutput()).contains("subscribe"), 15000);

    const CliRun release = cli(QStringList { QStringLiteral("force-release"), name, QStringLiteral("--yes") }
        + sshArgs(m_redis, m_knownHosts));
    QVERIFY2(release.exitCode == 0, release.err.constData());
    QCOMPARE(m_host.redisCli(m_redis, { QStringLiteral("EXISTS"), name }), QByteArray("0"));
    QTRY_VERIFY_WITH_TIMEOUT((heard += subscriber.readAllStandardOutput()).contains("message"), 15000);
    subscriber.kill();
    subscriber.waitForFinished();

    // The audit record names the route, not only the URL: a release is traceable to the bastion it went through.
    QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
    QVERIFY(audit.open(QIODevice::ReadOnly));
    const QByteArray log = audit.readAll();
    QVERIFY2(log.contains("force-release") && log.contains(m_host.sshTarget().toUtf8()), log.constData());

    holder.closeWriteChannel();
    if (!holder.waitForFinished(20000))
        holder.kill();
}

void TestSsh::unknownHostKeyIsRefusedUntilAccepted()
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

void TestSsh::unknownHostKeyIsAskedAboutAtATerminal()
{
    // As ssh does at a terminal: the fingerprint is shown and the key accepted only on "yes". script(1) gives the
    // CLI a terminal; the answer is typed into it.
    const auto atTerminal = [&](const QString &knownHosts, const QByteArray &answer) {
        QStringList words { QStringLiteral(LOCKSCOPE_CLI_PATH), QStringLiteral("list") };
        words += sshArgs(m_redis, knownHosts);
        for (QString &w : words)
            w = QLatin1Char('\'') + w + QLatin1Char('\'');
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(QStringLiteral("script"),
            { QStringLiteral("-qefc"), words.join(QLatin1Char(' ')), QStringLiteral("/dev/null") });
        p.waitForStarted();
        QByteArray seen;
        QDeadlineTimer deadline(30000);
        // The answer goes in once the question is on the terminal.
        while (!seen.contains("[y/N]") && p.state() == QProcess::Running && !deadline.hasExpired()) {
            p.waitForReadyRead(1000);
            seen += p.readAllStandardOutput();
        }
        p.write(answer);
        p.waitForFinished(30000);
        seen += p.readAllStandardOutput();
        return std::make_pair(p.exitCode(), seen);
    };
    const QString knownHosts = m_dir.filePath(QStringLiteral("asked_known_hosts"));
    QFile::remove(knownHosts);
    auto [code, seen] = atTerminal(knownHosts, "n\n");
    QVERIFY2(seen.contains(m_host.hostFingerprint().toLatin1()), seen.constData());
    QCOMPARE(code, 3);
    QVERIFY(!QFile::exists(knownHosts));
    std::tie(code, seen) = atTerminal(knownHosts, "yes\n");
    QVERIFY2(code == 0, seen.constData());
    QVERIFY2(seen.contains("1 lock") || seen.contains("lock(s)"), seen.constData());
    QVERIFY(QFile::exists(knownHosts));
}

void TestSsh::changedHostKeyIsRefused()
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

void TestSsh::keyTheServerDoesNotAuthorizeIsRefused()
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

void TestSsh::passwordLoginWhenNoKeyIsAccepted()
{
    // No key given, no agent, no ~/.ssh/id_*: the password (from the environment, never argv) is what logs in.
    const QStringList args { QStringLiteral("list"), QStringLiteral("--url"),
        QStringLiteral("redis://127.0.0.1:%1").arg(m_redis), QStringLiteral("--ssh"), m_host.sshTarget(),
        QStringLiteral("--ssh-known-hosts"), m_knownHosts, QStringLiteral("--ssh-password-env"),
        QStringLiteral("SSH_TEST_PASSWORD") };
    const auto run = [&](const QString &password) {
        QProcess p;
        QProcessEnvironment e = environment();
        e.insert(QStringLiteral("SSH_TEST_PASSWORD"), password);
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
        p.closeWriteChannel();
        p.waitForFinished(60000);
        return std::make_pair(p.exitCode(), p.readAllStandardError());
    };
    auto [code, err] = run(SshHost::password());
    QVERIFY2(code == 0, err.constData());
    std::tie(code, err) = run(QStringLiteral("not-the-password"));
    QCOMPARE(code, 3);
    // Says what was tried, and what the host would take.
    QVERIFY2(err.contains("the password") && err.contains("publickey, password"), err.constData());
    QVERIFY(!err.contains("not-the-password"));
}

void TestSsh::addressTheSshHostCannotReachIsSaidSo()
{
    // Nothing listens there inside the namespace: the SSH host's own connect is refused, and the error says whose.
    QStringList args = sshArgs(m_redis, m_knownHosts);
    args[1] = QStringLiteral("redis://127.0.0.1:1");
    const CliRun r = cli(QStringList { QStringLiteral("list") } + args);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QStringLiteral("SSH %1 could not reach 127.0.0.1:1").arg(m_host.sshTarget()).toUtf8()),
        r.err.constData());
}

void TestSsh::agentKeysWhenNoKeyIsGiven()
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
    // An empty agent: refused, saying the agent was tried.
    auto [code, err] = run(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    QCOMPARE(code, 3);
    QVERIFY2(err.contains("agent"), err.constData());
    std::tie(code, err) = run(QStringLiteral("ssh-add"), { m_host.clientKey() });
    QVERIFY2(code == 0, err.constData());
    std::tie(code, err) = run(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    QVERIFY2(code == 0, err.constData());
    agent.kill();
    agent.waitForFinished();
}

void TestSsh::sshdKilledMidSessionIsReportedThenReconnects()
{
    ConnectionOptions options = ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(m_redis));
    options.ssh = SshOptions::parseTarget(m_host.sshTarget());
    options.ssh.keyFile = m_host.clientKey();
    options.ssh.knownHostsFile = m_knownHosts;
    options.ssh.readSshConfig = false;
    options.reconnectMaxDelayMs = 500;
    RedisConnection connection(options);
    QSignalSpy disconnected(&connection, &RedisCommander::disconnected);
    connection.open();
    QTRY_VERIFY_WITH_TIMEOUT(connection.isReady(), 20000);

    m_host.killSshd();
    QTRY_VERIFY_WITH_TIMEOUT(!disconnected.isEmpty(), 20000);
    const RedisError error = disconnected.first().first().value<RedisError>();
    // Said as what happened: the SSH host went away (not "Redis closed the connection").
    QVERIFY2(error.message().contains(QStringLiteral("SSH")), qPrintable(error.message()));
    QVERIFY(!connection.isReady());

    QString startError;
    QVERIFY2(m_host.startSshd(&startError), qPrintable(startError));
    QTRY_VERIFY_WITH_TIMEOUT(connection.isReady(), 30000);
    bool answered = false;
    connection.command({ "PING" }, [&](const RedisResult &r) { answered = r.value.bytes() == "PONG"; });
    QTRY_VERIFY_WITH_TIMEOUT(answered, 15000);
}

void TestSsh::clusterReachedOnlyThroughTheTunnel()
{
    QString error;
    const QList<quint16> ports = m_host.startCluster(3, &error);
    QVERIFY2(ports.size() == 3, qPrintable(error));
    // Locks in slots of all three masters (each node announces 127.0.0.1:<its port> of the namespace).
    QStringList names;
    for (int i = 0; names.size() < 12; ++i)
        names << QStringLiteral("cluster:ssh:%1").arg(i);
    for (const QString &name : names)
        m_host.redisCli(ports.first(),
            { QStringLiteral("HSET"), name, QStringLiteral("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1"),
                QStringLiteral("1") },
            true);
    for (const quint16 port : ports)
        QVERIFY(m_host.redisCli(port, { QStringLiteral("DBSIZE") }).toInt() > 0); // every master holds some
    const CliRun list = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--cluster"),
                                QStringLiteral("--pattern"), QStringLiteral("cluster:ssh:*") }
        + sshArgs(ports.first(), m_knownHosts));
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), names.size());

    // A force release routed to whichever master holds the slot.
    for (const QString &name : { names.first(), names.last() }) {
        const CliRun release = cli(
            QStringList { QStringLiteral("force-release"), name, QStringLiteral("--yes"), QStringLiteral("--cluster") }
            + sshArgs(ports.first(), m_knownHosts));
        QVERIFY2(release.exitCode == 0, release.err.constData());
    }
    const CliRun after
        = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--cluster"),
                  QStringLiteral("--pattern"), QStringLiteral("cluster:ssh:*") }
            + sshArgs(ports.first(), m_knownHosts));
    QVERIFY2(after.exitCode == 0, after.err.constData());
    QCOMPARE(QJsonDocument::fromJson(after.out).array().size(), names.size() - 2);
}

void TestSsh::sentinelAndItsMasterReachedThroughTheTunnel()
{
    QString error;
    const quint16 master = m_host.startRedis({}, &error);
    QVERIFY2(master, qPrintable(error));
    const quint16 sentinel = m_host.startSentinel(master, QStringLiteral("lsmaster"), &error);
    QVERIFY2(sentinel, qPrintable(error));
    m_host.redisCli(master,
        { QStringLiteral("HSET"), QStringLiteral("sentinel:ssh"),
            QStringLiteral("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1"), QStringLiteral("1") });
    // The sentinel names the master as 127.0.0.1:<port>: an address that means something only where the sentinel
    // is, so the master, like the sentinel, is reached through the tunnel.
    const QStringList via = QStringList { QStringLiteral("--sentinel"), QStringLiteral("127.0.0.1:%1").arg(sentinel),
        QStringLiteral("--master"), QStringLiteral("lsmaster") }
        + sshArgs(master, m_knownHosts).mid(2);
    const CliRun list = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                                QStringLiteral("sentinel:*") }
        + via);
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), 1);
    const CliRun release = cli(
        QStringList { QStringLiteral("force-release"), QStringLiteral("sentinel:ssh"), QStringLiteral("--yes") } + via);
    QVERIFY2(release.exitCode == 0, release.err.constData());
    QCOMPARE(m_host.redisCli(master, { QStringLiteral("EXISTS"), QStringLiteral("sentinel:ssh") }), QByteArray("0"));
}

void TestSsh::tlsRunsEndToEndInsideTheTunnel()
{
    QString error;
    const quint16 port = m_host.startTlsRedis(&error);
    QVERIFY2(port, qPrintable(error));
    QStringList args = sshArgs(port, m_knownHosts);
    args[1] = QStringLiteral("rediss://127.0.0.1:%1").arg(port);
    // Verified against the CA, for the name Redis is known by at the far end of the tunnel.
    CliRun r = cli(
        QStringList { QStringLiteral("list") } + args + QStringList { QStringLiteral("--tls-ca"), m_host.tlsCaFile() });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // A name the certificate does not carry fails verification: TLS is checked, not merely carried.
    r = cli(QStringList { QStringLiteral("list") } + args
        + QStringList { QStringLiteral("--tls-ca"), m_host.tlsCaFile(), QStringLiteral("--tls-server-name"),
            QStringLiteral("redis.elsewhere.example") });
    QCOMPARE(r.exitCode, 3);
    // Plain RESP into a TLS port gets no answer a client could read.
    args[1] = QStringLiteral("redis://127.0.0.1:%1").arg(port);
    r = cli(QStringList { QStringLiteral("list"), QStringLiteral("--connect-timeout"), QStringLiteral("2000") } + args);
    QVERIFY(r.exitCode != 0);
}

QTEST_GUILESS_MAIN(TestSsh)
#include "tst_ssh.moc"
