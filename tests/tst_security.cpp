// Authentication, ACL permissions and TLS against real servers: each failure is a typed error and changes nothing.
#include "lock/lockclient.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
RedisResult run(RedisConnection &c, const QList<QByteArray> &argv)
{
    std::optional<RedisResult> result;
    c.command(argv, [&](const RedisResult &r) { result = r; });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 15000); }();
    return result.value_or(RedisResult {});
}

template <typename T, typename Start> T await(Start start)
{
    std::optional<T> result;
    start([&](const T &r) { result = r; });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 15000); }();
    return result.value_or(T {});
}
} // namespace

class TestSecurity : public QObject
{
    Q_OBJECT
    RedisServer m_acl { RedisServerOptions { { QStringLiteral("--requirepass"), QStringLiteral("s3cret"),
        // A support user that may read and run lock scripts but not delete keys or publish.
        QStringLiteral("--user"), QStringLiteral("viewer"), QStringLiteral("on"), QStringLiteral(">viewpw"),
        QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@read"), QStringLiteral("+@connection"),
        QStringLiteral("--user"), QStringLiteral("locker"), QStringLiteral("on"), QStringLiteral(">lockpw"),
        QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@all"),
        // May lock but not subscribe to any channel: waiters have to fall back to the TTL, as Redisson's do.
        QStringLiteral("--user"), QStringLiteral("nochan"), QStringLiteral("on"), QStringLiteral(">nochanpw"),
        QStringLiteral("~*"), QStringLiteral("resetchannels"), QStringLiteral("+@all") } } };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_acl.start(&error), qPrintable(error));
    }

    void passwordAuth()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(m_acl.url());
        o.password = "s3cret";
        RedisConnection c(o);
        QCOMPARE(run(c, { "PING" }).value, RedisValue::status("PONG"));
    }

    void aclUserAuth()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(m_acl.url());
        o.user = "locker";
        o.password = "lockpw";
        RedisConnection c(o);
        QCOMPARE(run(c, { "ACL", "WHOAMI" }).value.bytes(), "locker");
    }

    void wrongPasswordIsAuthError()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(m_acl.url());
        o.password = "hunter2-not-it";
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Auth);
        QCOMPARE(c.state(), RedisConnection::State::Closed);
        QVERIFY(!r.error.message().contains(QLatin1String("hunter2")));
    }

    void missingPasswordIsAuthError()
    {
        RedisConnection c(ConnectionOptions::fromUrl(m_acl.url()));
        QCOMPARE(run(c, { "GET", "x" }).error.kind(), RedisError::Kind::Auth);
    }

    void noPermIsPermissionErrorAndChangesNothing()
    {
        const QByteArray name = uniqueKey("acl-lock");
        RawRedis admin(m_acl.port(), {}, "s3cret");
        // A lock held by someone else; the viewer may look but must not be able to release it.
        const QByteArray owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
        admin.command({ "HSET", name, owner, "1" });
        admin.command({ "PEXPIRE", name, "60000" });

        ConnectionOptions o = ConnectionOptions::fromUrl(m_acl.url());
        o.user = "viewer";
        o.password = "viewpw";
        LockClient client(o);
        const ForceReleaseResult r = await<ForceReleaseResult>(
            [&](auto done) { client.forceRelease(name, ForceGuard {}, done, LockMode::Reentrant); });
        QCOMPARE(r.error.kind(), RedisError::Kind::Permission);
        QVERIFY(!r.deleted);
        QCOMPARE(admin.hgetall(name).value(owner), "1");
        QVERIFY(admin.pttl(name) > 0);

        const AcquireResult a = await<AcquireResult>([&](auto done) {
            client.acquire({ uniqueKey("acl-new"), {}, 5000, 0 }, done);
        });
        QCOMPARE(a.error.kind(), RedisError::Kind::Permission);
        QVERIFY(!a.acquired);
    }

    void waiterWithoutChannelPermissionFallsBackToTheTtl()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(m_acl.url());
        o.user = "nochan";
        o.password = "nochanpw";
        LockClient holder(o), waiter(o);
        const QByteArray name = uniqueKey("nochan");
        QVERIFY(await<AcquireResult>([&](auto done) { holder.acquire({ name, "1", 300, 0 }, done); }).acquired);
        // No wake-up can arrive (SUBSCRIBE is denied), and nobody releases: only the lease running out frees it.
        const AcquireResult a = await<AcquireResult>([&](auto done) {
            waiter.acquire({ name, "2", 5000, 20000 }, done);
        });
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QVERIFY(a.attempts >= 2);
    }

    void tlsWithTrustedCa()
    {
        RedisServer server(RedisServerOptions { {}, true, false, {} });
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        ConnectionOptions o = ConnectionOptions::fromUrl(server.tlsUrl());
        QVERIFY(o.tls);
        o.tlsCaFile = server.caFile();
        LockClient client(o);
        const QByteArray name = uniqueKey("tls-lock");
        const AcquireResult a = await<AcquireResult>([&](auto done) { client.acquire({ name, {}, 10000, 0 }, done); });
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        RawRedis raw(server.port());
        QCOMPARE(raw.hgetall(name).value(a.owner), "1");
    }

    void tlsRefusesUntrustedServer()
    {
        RedisServer server(RedisServerOptions { {}, true, false, {} });
        QVERIFY(server.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(server.tlsUrl());
        o.tlsCaFile = server.rogueCaFile();
        o.autoReconnect = false;
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Io);
        QVERIFY2(r.error.message().contains(QLatin1String("certificate"), Qt::CaseInsensitive),
            qPrintable(r.error.message()));

        // Insecure mode is an explicit choice, and then it connects.
        o.tlsInsecure = true;
        RedisConnection insecure(o);
        QCOMPARE(run(insecure, { "PING" }).value, RedisValue::status("PONG"));
    }

    void tlsServerNameIsChecked()
    {
        RedisServer server(RedisServerOptions { {}, true, false, {} });
        QVERIFY(server.start());
        // By address, naming the host the certificate was issued for.
        ConnectionOptions o = ConnectionOptions::fromUrl(QStringLiteral("rediss://127.0.0.1:%1").arg(server.tlsPort()));
        o.tlsCaFile = server.caFile();
        o.tlsServerName = QStringLiteral("localhost");
        o.autoReconnect = false;
        {
            RedisConnection named(o);
            QCOMPARE(run(named, { "PING" }).value, RedisValue::status("PONG"));
        }
        o.tlsServerName = QStringLiteral("cache.example.com");
        RedisConnection wrong(o);
        const RedisResult r = run(wrong, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Io);
        QVERIFY2(r.error.message().contains(QLatin1String("cache.example.com")), qPrintable(r.error.message()));
    }

    void tlsClientCertificate()
    {
        RedisServer server(RedisServerOptions { {}, true, true, {} });
        QVERIFY(server.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(server.tlsUrl());
        o.tlsCaFile = server.caFile();
        o.autoReconnect = false;
        {
            RedisConnection noCert(o);
            QVERIFY(!run(noCert, { "PING" }).ok());
        }
        o.tlsCertFile = server.clientCertFile();
        o.tlsKeyFile = server.clientKeyFile();
        RedisConnection withCert(o);
        QCOMPARE(run(withCert, { "PING" }).value, RedisValue::status("PONG"));
    }

    void missingTlsFilesAreClearErrors()
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(QStringLiteral("rediss://localhost:1"));
        o.tlsCaFile = QStringLiteral("/nonexistent/ca.pem");
        o.autoReconnect = false;
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::InvalidArgument);
        QVERIFY(r.error.message().contains(QLatin1String("/nonexistent/ca.pem")));
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
