// A host key that changes between two sessions of one connection: after a session that was accepted (its key known,
// or its fingerprint confirmed), sshd restarts with another host key, and the reconnect is refused, not accepted. The
// first key's acceptance is for that key only; the new one is what an attacker in the middle would offer.
#include "sshfixture.h"

#include "redis/redisconnection.h"
#include "ssh/sshoptions.h"

#include <QSignalSpy>

using namespace LockScope;
using namespace LockScope::Test;

class TestSshRekey : public QObject, protected SshFixture
{
    Q_OBJECT

    ConnectionOptions options(const QString &knownHosts, const QByteArray &accept = {}) const
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(m_redis));
        o.ssh = SshOptions::parseTarget(m_host.sshTarget());
        o.ssh.keyFile = m_host.clientKey();
        o.ssh.knownHostsFile = knownHosts;
        o.ssh.readSshConfig = false;
        o.ssh.acceptHostKey = accept;
        o.reconnectMaxDelayMs = 500;
        return o;
    }

    static bool pings(RedisConnection &connection)
    {
        std::optional<bool> answered;
        connection.command({ "PING" }, [&](const RedisResult &r) { answered = r.ok() && r.value.bytes() == "PONG"; });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(answered.has_value(), 30000); }();
        return answered.value_or(false);
    }

    // A session up, sshd gone, sshd back with the other host key: the connection's reconnect must end in the refusal
    // it says (code), and never in a session. Returns the refusal.
    RedisError reconnectAfterRekey(const ConnectionOptions &o)
    {
        RedisConnection connection(o);
        QSignalSpy disconnected(&connection, &RedisCommander::disconnected);
        connection.open();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(connection.isReady(), 30000); }();
        if (!connection.isReady() || !pings(connection))
            return RedisError(RedisError::Kind::Io, QStringLiteral("the first session did not come up"));
        const int acceptedBefore = int(m_host.sshdLog().count(QStringLiteral("Accepted publickey")));

        m_host.killSshd();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!disconnected.isEmpty() && !connection.isReady(), 30000); }();
        QString error;
        if (!m_host.startSshd(&error, SshHost::HostKey::Other))
            return RedisError(RedisError::Kind::Io, error);
        const auto refusal = [&]() -> RedisError {
            for (const QList<QVariant> &args : std::as_const(disconnected)) {
                const RedisError e = args.first().value<RedisError>();
                if (e.code().startsWith("SSH_HOSTKEY"))
                    return e;
            }
            return {};
        };
        // The reconnect is tried as soon as sshd is back; its answer is the refusal, or (were the new key accepted) a
        // session, which the log and isReady() would show.
        [&] { QTRY_VERIFY_WITH_TIMEOUT(refusal().isError() || connection.isReady(), 30000); }();
        if (connection.isReady())
            return RedisError(RedisError::Kind::Io, QStringLiteral("reconnected through the changed host key"));
        const RedisError refused = refusal();
        if (m_host.sshdLog().count(QStringLiteral("Accepted publickey")) != acceptedBefore)
            return RedisError(RedisError::Kind::Io, QStringLiteral("sshd accepted a login after the key changed"));
        // Nothing goes through a connection that was refused.
        std::optional<RedisResult> after;
        connection.command({ "PING" }, [&](const RedisResult &r) { after = r; });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(after.has_value(), 30000); }();
        if (after && after->ok())
            return RedisError(RedisError::Kind::Io, QStringLiteral("a command went through after the refusal"));
        return refused;
    }

private slots:
    void initTestCase() { setUpFixture(); }
    void init()
    {
        // Each test starts with sshd up with its own key.
        m_host.killSshd();
        QString error;
        QVERIFY2(m_host.startSshd(&error), qPrintable(error));
    }

    // known_hosts holds the first key: the new one is CHANGED, and known_hosts keeps the first.
    void knownKeyChangedOnReconnectIsRefused()
    {
        const QByteArray line = m_host.knownHostsLine(m_host.hostKeyFile() + QStringLiteral(".pub"));
        const QString knownHosts = writeKnownHosts(QStringLiteral("rekey_known_hosts"), line);
        const RedisError refused = reconnectAfterRekey(options(knownHosts));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(refused.code() == "SSH_HOSTKEY_CHANGED", qPrintable(refused.toString()));
        QVERIFY2(refused.message().contains(QStringLiteral("CHANGED")), qPrintable(refused.message()));
        QFile file(knownHosts);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), line);
    }

    // The first key was confirmed by its fingerprint (--ssh-accept-host-key, the console's question) and could not be
    // remembered (a known_hosts that keeps nothing): the confirmation is for that fingerprint only, not for whatever
    // answers at the address next time.
    void acceptedFingerprintDoesNotCoverANewKey()
    {
        const QString knownHosts = QStringLiteral("/dev/null");
        const RedisError refused = reconnectAfterRekey(options(knownHosts, m_host.hostFingerprint().toLatin1()));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(refused.code().startsWith("SSH_HOSTKEY"), qPrintable(refused.toString()));
        QVERIFY2(refused.message().contains(m_host.hostFingerprint()), qPrintable(refused.message()));
    }
};

QTEST_GUILESS_MAIN(TestSshRekey)
#include "tst_sshrekey.moc"
