// Reaching Redis through an SSH host: a real sshd in a network namespace of the test's own is the only way in (the
// redis-servers listen on the namespace's loopback). The CLI lists, locks and force-releases through the tunnel;
// sshd killed mid-session is reported and the connection comes back with it; a cluster whose nodes announce
// namespace addresses, Sentinel and the master it names, and TLS inside the tunnel are used whole. Who may use the
// tunnel (host keys, keys, passwords, the agent) is tst_sshauth's.
#include "sshfixture.h"

#include "redis/redisconnection.h"
#include "ssh/sshoptions.h"
#include "ssh/sshtunnel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>

#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

class TestSsh : public QObject, protected SshFixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }
    void init() { ensureSshd(); }
    void redisIsReachableOnlyThroughTheTunnel();
    void listLockAndForceReleaseThroughTheTunnel();
    void addressTheSshHostCannotReachIsSaidSo();
    void sshHostThatNeverAnswersEndsCleanly();
    void tunnelDroppedMidConnectLetsGoAtOnce();
    void sshdKilledMidSessionIsReportedThenReconnects();
    void clusterReachedOnlyThroughTheTunnel();
    void sentinelAndItsMasterReachedThroughTheTunnel();
    void tlsRunsEndToEndInsideTheTunnel();
};

void TestSsh::redisIsReachableOnlyThroughTheTunnel()
{
    // Without the tunnel: refused at the namespace's address (Redis is bound to its loopback), and this machine's own
    // loopback has no such server. The tests below would prove nothing if either answered.
    QTcpSocket direct;
    direct.connectToHost(m_host.sshAddress(), m_redis);
    QVERIFY(!direct.waitForConnected(5000));
    const CliRun plain = cli({ QStringLiteral("list"), QStringLiteral("--url"),
        QStringLiteral("redis://%1:%2").arg(m_host.sshAddress()).arg(m_redis) });
    CLI_EXIT(plain, CliExit::Connect);

    m_host.redisCli(m_redis, { QStringLiteral("SET"), QStringLiteral("probe"), QStringLiteral("through") });
    const CliRun r
        = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list") } + sshArgs(m_redis, m_knownHosts));
    CLI_EXIT(r, CliExit::Done);
}

void TestSsh::listLockAndForceReleaseThroughTheTunnel()
{
    const QString name = QStringLiteral("orders:ssh");
    // A holder: lockscope-cli lock, through the tunnel, holding until its standard input ends.
    QProcess holder;
    startCli(holder,
        QStringList { QStringLiteral("lock"), name, QStringLiteral("--json") } + sshArgs(m_redis, m_knownHosts),
        environment());
    QTRY_VERIFY2_WITH_TIMEOUT(m_host.redisCli(m_redis, { QStringLiteral("HLEN"), name }) == "1",
        qPrintable(QString::fromLocal8Bit(holder.readAllStandardError())), 30000);
    const QByteArray field = m_host.redisCli(m_redis, { QStringLiteral("HKEYS"), name });

    // Listed through the tunnel, with that holder.
    const CliRun list = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                                QStringLiteral("orders:*") }
        + sshArgs(m_redis, m_knownHosts));
    CLI_EXIT(list, CliExit::Done);
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
    CLI_EXIT(release, CliExit::Done);
    QCOMPARE(m_host.redisCli(m_redis, { QStringLiteral("EXISTS"), name }), QByteArray("0"));
    QTRY_VERIFY_WITH_TIMEOUT((heard += subscriber.readAllStandardOutput()).contains("message"), 15000);
    subscriber.kill();
    subscriber.waitForFinished();

    // The audit record names the route, not only the URL: a release is traceable to the bastion it went through.
    QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
    QVERIFY(audit.open(QIODevice::ReadOnly));
    const QByteArray log = audit.readAll();
    QVERIFY2(log.contains("force-release") && log.contains(m_host.sshTarget().toUtf8()), log.constData());

    // End of input ends the hold (the lock was force-released meanwhile: the CLI says it lost it). A crash, a hang or
    // a sanitizer's report fails the test (clirun.h).
    holder.closeWriteChannel();
    QVERIFY(finishCli(holder, 20000).normal());
}

void TestSsh::addressTheSshHostCannotReachIsSaidSo()
{
    // Nothing listens there inside the namespace: the SSH host's own connect is refused, and the error says whose.
    QStringList args = sshArgs(m_redis, m_knownHosts);
    args[1] = QStringLiteral("redis://127.0.0.1:1");
    const CliRun r = cli(QStringList { QStringLiteral("list") } + args);
    CLI_REFUSED(
        r, CliExit::Connect, QStringLiteral("SSH %1 could not reach 127.0.0.1:1").arg(m_host.sshTarget()).toUtf8());
}

void TestSsh::sshHostThatNeverAnswersEndsCleanly()
{
    // A host that takes the TCP connection and never sends its banner: the connect attempt blocks in libssh until the
    // connect timeout, and the CLI gives up on Redis at the same time. It exits with the connect failure, and its SSH
    // thread is interrupted and waited for rather than left inside libssh while the process exits (a sanitizer's
    // report of that race fails the test in runCli, under TSan: this test is labelled threads).
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    QStringList args = sshArgs(m_redis, m_knownHosts);
    args[3] = QStringLiteral("lockscope@127.0.0.1:%1").arg(silent.serverPort());
    const CliRun r = cli(
        QStringList { QStringLiteral("list"), QStringLiteral("--connect-timeout"), QStringLiteral("1500") } + args);
    CLI_EXIT(r, CliExit::Connect);
    QVERIFY2(r.err.contains("127.0.0.1:" + QByteArray::number(silent.serverPort())), r.err.constData());
}

void TestSsh::tunnelDroppedMidConnectLetsGoAtOnce()
{
    // A tunnel given up while its connect attempt waits for a silent host's banner (a minute's connect timeout):
    // stopping it shuts the attempt's socket down, so the host sees the connection closed now, not a minute later,
    // and the tunnel's thread ends with it instead of living on inside libssh.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    SshOptions options;
    options.host = QStringLiteral("127.0.0.1");
    options.port = silent.serverPort();
    options.user = QStringLiteral("lockscope");
    options.knownHostsFile = m_knownHosts;
    options.readSshConfig = false;
    std::shared_ptr<SshTunnel> tunnel = SshTunnel::forOptions(options, 60000);
    bool answered = false;
    QObject context;
    tunnel->openChannel(QStringLiteral("127.0.0.1"), m_redis, 60000, &context, [&answered](int fd, const RedisError &) {
        answered = true;
        if (fd >= 0)
            ::close(fd);
    });
    QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnections(), 20000);
    std::unique_ptr<QTcpSocket> accepted(silent.nextPendingConnection());
    QVERIFY(accepted->state() == QAbstractSocket::ConnectedState);
    tunnel.reset();
    // Well inside the attempt's minute: without the interrupt the connection stayed open until then.
    QTRY_VERIFY_WITH_TIMEOUT(accepted->state() != QAbstractSocket::ConnectedState, 20000);
    QVERIFY(!answered); // nobody is told anything after the tunnel is gone
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
    CLI_EXIT(list, CliExit::Done);
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), names.size());

    // A force release routed to whichever master holds the slot.
    for (const QString &name : { names.first(), names.last() }) {
        const CliRun release = cli(
            QStringList { QStringLiteral("force-release"), name, QStringLiteral("--yes"), QStringLiteral("--cluster") }
            + sshArgs(ports.first(), m_knownHosts));
        CLI_EXIT(release, CliExit::Done);
    }
    const CliRun after
        = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--cluster"),
                  QStringLiteral("--pattern"), QStringLiteral("cluster:ssh:*") }
            + sshArgs(ports.first(), m_knownHosts));
    CLI_EXIT(after, CliExit::Done);
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
    CLI_EXIT(list, CliExit::Done);
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), 1);
    const CliRun release = cli(
        QStringList { QStringLiteral("force-release"), QStringLiteral("sentinel:ssh"), QStringLiteral("--yes") } + via);
    CLI_EXIT(release, CliExit::Done);
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
    CLI_EXIT(r, CliExit::Done);
    // A name the certificate does not carry fails verification: TLS is checked, not merely carried.
    r = cli(QStringList { QStringLiteral("list") } + args
        + QStringList { QStringLiteral("--tls-ca"), m_host.tlsCaFile(), QStringLiteral("--tls-server-name"),
            QStringLiteral("redis.elsewhere.example") });
    CLI_REFUSED(r, CliExit::Connect, "redis.elsewhere.example");
    // Plain RESP into a TLS port gets no answer a client could read.
    args[1] = QStringLiteral("redis://127.0.0.1:%1").arg(port);
    r = cli(QStringList { QStringLiteral("list"), QStringLiteral("--connect-timeout"), QStringLiteral("2000") } + args);
    CLI_EXIT(r, CliExit::Connect);
}

QTEST_GUILESS_MAIN(TestSsh)
#include "tst_ssh.moc"
