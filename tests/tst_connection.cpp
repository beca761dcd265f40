// The transport on a real redis-server: pipelining, deadlines, reconnects, script caching, read-only mode, pub/sub.
#include "faultproxy.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/redisscript.h"
#include "redis/redissubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Runs one command and waits for its reply with a deadline, pumping the event loop meanwhile.
RedisResult run(RedisCommander &c, const QList<QByteArray> &argv, int timeoutMs = 10000)
{
    std::optional<RedisResult> result;
    c.command(argv, [&](const RedisResult &r) { result = r; });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), timeoutMs); }();
    return result.value_or(RedisResult::fromError(RedisError(RedisError::Kind::Timeout, QStringLiteral("test"))));
}

ConnectionOptions optionsFor(const RedisServer &server)
{
    return ConnectionOptions::fromUrl(server.url());
}
} // namespace

class TestConnection : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void pipelinedRepliesMatchTheirCommands()
    {
        RedisConnection c(optionsFor(m_server));
        const QByteArray key = uniqueKey("pipe");
        const int n = 2000;
        QList<qint64> seen;
        // All sent before the first reply can arrive: callbacks must still see their own command's answer.
        for (int i = 0; i < n; ++i)
            c.command({ "INCR", key }, [&seen](const RedisResult &r) { seen << r.value.toInteger(); });
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), n, 20000);
        for (int i = 0; i < n; ++i)
            QCOMPARE(seen.at(i), qint64(i + 1));
    }

    void corkedBurstKeepsItsOrder()
    {
        RedisConnection c(optionsFor(m_server));
        QVERIFY(run(c, { "PING" }).ok());
        QList<QByteArray> got;
        c.cork();
        for (int i = 0; i < 50; ++i)
            c.command({ "ECHO", QByteArray::number(i) }, [&got](const RedisResult &r) { got << r.value.bytes(); });
        c.uncork();
        QTRY_COMPARE(got.size(), 50);
        QCOMPARE(got.last(), "49");
    }

    void deferredCommandsRideAlongWithoutStealingReplies()
    {
        RedisConnection c(optionsFor(m_server));
        QVERIFY(run(c, { "PING" }).ok());
        const QByteArray key = uniqueKey("deferred");
        // Housekeeping sent "later" must not take the reply meant for the command that carries it.
        c.commandDeferred({ "SET", key, "x" });
        QCOMPARE(run(c, { "ECHO", "mine" }).value.bytes(), "mine");
        RawRedis raw(m_server.port());
        QCOMPARE(raw.get(key), "x");
        // With nothing else to carry it, it still leaves on its own.
        c.commandDeferred({ "DEL", key });
        QTRY_VERIFY(raw.get(key).isNull());
        QCOMPARE(run(c, { "ECHO", "again" }).value.bytes(), "again");
    }

    void databaseFromTheUrlIsSelected()
    {
        RedisConnection c(ConnectionOptions::fromUrl(m_server.url() + QStringLiteral("/3")));
        const QByteArray key = uniqueKey("db3");
        QVERIFY(run(c, { "SET", key, "in-three" }).ok());
        RawRedis raw(m_server.port());
        QVERIFY(raw.get(key).isNull());
        raw.command({ "SELECT", "3" });
        QCOMPARE(raw.get(key), "in-three");
    }

    void silentPeerGivesConnectTimeout()
    {
        // Accepts TCP and never says a word: the AUTH of the handshake gets no answer.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        ConnectionOptions o
            = ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(silent.serverPort()));
        o.password = "pw";
        o.connectTimeoutMs = 300;
        o.autoReconnect = false;
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Timeout);
    }

    void garbageFromThePeerIsAProtocolError()
    {
        QTcpServer liar;
        QVERIFY(liar.listen(QHostAddress::LocalHost, 0));
        connect(&liar, &QTcpServer::newConnection, this, [&liar] {
            QTcpSocket *s = liar.nextPendingConnection();
            connect(s, &QTcpSocket::readyRead, s, [s] {
                s->readAll();
                s->write("HTTP/1.1 400 Bad Request\r\n\r\n");
            });
        });
        ConnectionOptions o = ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(liar.serverPort()));
        o.autoReconnect = false;
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Protocol);
    }

    void serverErrorIsTypedReplyError()
    {
        RedisConnection c(optionsFor(m_server));
        const QByteArray key = uniqueKey("str");
        QVERIFY(run(c, { "SET", key, "v" }).ok());
        const RedisResult r = run(c, { "HGETALL", key });
        QCOMPARE(r.error.kind(), RedisError::Kind::Reply);
        QVERIFY(r.error.message().startsWith(QLatin1String("WRONGTYPE")));
        // The connection survives a server error.
        QCOMPARE(run(c, { "GET", key }).value.bytes(), "v");
    }

    void refusedConnectionIsIoError()
    {
        RedisServer gone;
        QVERIFY(gone.start());
        ConnectionOptions o = optionsFor(gone);
        gone.stop();
        o.autoReconnect = false;
        RedisConnection c(o);
        const RedisResult r = run(c, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Io);
    }

    // A server that refuses connections is reported as refusing, whichever command is first to hear of it: before,
    // the topology probe's deadline ran out and everyone waiting (the console's header among them) was told
    // "timeout: no connection within 5000 ms" instead of the refusal.
    void refusedRouterSaysRefused()
    {
        RedisServer gone;
        QVERIFY(gone.start());
        ConnectionOptions o = optionsFor(gone);
        gone.stop();
        // The probe gives up at its deadline; the refusals go on meanwhile. The first refusal must come before the
        // deadline (what the error reports): 300 ms could pass first on a busy machine, and the error said "timeout".
        o.commandTimeoutMs = 3000;
        RedisRouter router(o);
        QSignalSpy drops(&router, &RedisCommander::disconnected);
        const RedisResult r = run(router, { "PING" });
        QCOMPARE(r.error.kind(), RedisError::Kind::Io);
        QVERIFY2(
            r.error.message().contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(r.error.toString()));
        QVERIFY(!drops.isEmpty());
        for (const QList<QVariant> &drop : drops) {
            const RedisError error = drop.first().value<RedisError>();
            QVERIFY2(error.kind() != RedisError::Kind::Timeout, qPrintable(error.toString()));
        }
    }

    void stuckServerGivesTimeoutAndRecovers()
    {
        // A deadline far above any latency, and a pause that lasts until the test ends it: writes wait while the
        // server is paused for them, and CLIENT UNPAUSE (no write) still gets through.
        ConnectionOptions o = optionsFor(m_server);
        o.commandTimeoutMs = 3000;
        RedisConnection c(o);
        QVERIFY(run(c, { "PING" }).ok());
        RawRedis raw(m_server.port());
        const QByteArray key = uniqueKey("stuck");
        // Paused for longer than the command deadline: the command must fail with a timeout, not hang.
        QCOMPARE(raw.command({ "CLIENT", "PAUSE", "600000", "WRITE" }), RedisValue::status("OK"));
        const RedisResult r = run(c, { "INCR", key }, 30000);
        QCOMPARE(r.error.kind(), RedisError::Kind::Timeout);
        QCOMPARE(raw.command({ "CLIENT", "UNPAUSE" }), RedisValue::status("OK"));
        // After the timeout the connection starts over and answers again.
        QCOMPARE(run(c, { "PING" }).value, RedisValue::status("PONG"));
    }

    void reconnectsAfterServerRestart()
    {
        RedisServer server;
        QVERIFY(server.start());
        ConnectionOptions o = optionsFor(server);
        o.reconnectInitialDelayMs = 20;
        o.commandTimeoutMs = 20000;
        RedisConnection c(o);
        QVERIFY(run(c, { "PING" }).ok());
        QSignalSpy dropped(&c, &RedisConnection::disconnected);
        QSignalSpy ready(&c, &RedisConnection::ready);
        server.killHard();
        QTRY_COMPARE(dropped.size(), 1);
        QVERIFY(server.start());
        // A command sent while disconnected waits for the new connection instead of failing.
        const RedisResult r = run(c, { "PING" }, 20000);
        QVERIFY2(r.ok(), qPrintable(r.error.toString()));
        QVERIFY(ready.size() >= 1);
    }

    void scriptCacheFallsBackOnNoscript()
    {
        RedisConnection c(optionsFor(m_server));
        RawRedis raw(m_server.port());
        const RedisScript script(QByteArray("return ARGV[1] .. '-") + uniqueKey("s") + "'");
        QCOMPARE(raw.command({ "SCRIPT", "EXISTS", script.sha1() }).at(0).toInteger(), 0);
        std::optional<RedisResult> first;
        c.eval(script, {}, { "x" }, [&](const RedisResult &r) { first = r; });
        QTRY_VERIFY(first.has_value());
        QVERIFY2(first->ok(), qPrintable(first->error.toString()));
        QVERIFY(first->value.bytes().startsWith("x-"));
        // Loaded by the fallback EVAL, so the next EVALSHA is served from the cache.
        QCOMPARE(raw.command({ "SCRIPT", "EXISTS", script.sha1() }).at(0).toInteger(), 1);
        raw.command({ "SCRIPT", "FLUSH" });
        std::optional<RedisResult> second;
        c.eval(script, {}, { "y" }, [&](const RedisResult &r) { second = r; });
        QTRY_VERIFY(second.has_value());
        QVERIFY(second->value.bytes().startsWith("y-"));
    }

    void pipelinedCommandsCannotOvertakeAScript()
    {
        // A script the server has never seen, then a plain write pipelined behind it: the write must land last.
        RedisConnection c(optionsFor(m_server));
        const QByteArray key = uniqueKey("order");
        const RedisScript script("redis.call('set', KEYS[1], ARGV[1]) return 1 -- " + key);
        std::optional<RedisResult> scripted, plain;
        c.eval(script, { key }, { "from-script" }, [&](const RedisResult &r) { scripted = r; });
        c.command({ "SET", key, "plain" }, [&](const RedisResult &r) { plain = r; });
        QTRY_VERIFY(scripted.has_value() && plain.has_value());
        QVERIFY2(scripted->ok(), qPrintable(scripted->error.toString()));
        RawRedis raw(m_server.port());
        QCOMPARE(raw.get(key), "plain");
    }

    void busyServerAtHandshakeIsRetried()
    {
        // One client slot: while it is taken, AUTH is answered "max number of clients reached". That passes;
        // it is no reason to give up on the server for good.
        RedisServer server(RedisServerOptions {
            { QStringLiteral("--maxclients"), QStringLiteral("1") }, false, false, QStringLiteral("pw") });
        QVERIFY(server.start());
        auto occupant = std::make_unique<RawRedis>(server.port(), QByteArray(), QByteArray("pw"));
        QVERIFY(occupant->isConnected());
        ConnectionOptions o = optionsFor(server);
        o.password = "pw";
        o.reconnectInitialDelayMs = 20;
        o.reconnectMaxDelayMs = 100;
        o.commandTimeoutMs = 20000;
        RedisConnection c(o);
        QSignalSpy dropped(&c, &RedisConnection::disconnected);
        std::optional<RedisResult> result;
        c.command({ "PING" }, [&](const RedisResult &r) { result = r; });
        QTRY_VERIFY(dropped.size() >= 1);
        QVERIFY(dropped.at(0).at(0).value<RedisError>().message().contains(QLatin1String("max number of clients")));
        QVERIFY(!result.has_value());
        occupant.reset();
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 15000);
        QCOMPARE(result->value, RedisValue::status("PONG"));
    }

    void readOnlyRefusesWritesBeforeTheWire()
    {
        ConnectionOptions o = optionsFor(m_server);
        o.readOnly = true;
        RedisConnection c(o);
        const QByteArray key = uniqueKey("ro");
        RawRedis raw(m_server.port());
        const RedisResult r = run(c, { "SET", key, "v" });
        QCOMPARE(r.error.kind(), RedisError::Kind::ReadOnly);
        QVERIFY(raw.get(key).isNull());
        const RedisResult e = run(c, { "EVAL", "redis.call('set', KEYS[1], 'x')", "1", key });
        QCOMPARE(e.error.kind(), RedisError::Kind::ReadOnly);
        QVERIFY(raw.get(key).isNull());
        QVERIFY(run(c, { "GET", key }).ok());
    }

    void subscriberConfirmsAndDelivers()
    {
        RedisSubscriber sub(optionsFor(m_server));
        QSignalSpy messages(&sub, &RedisSubscriber::message);
        const QByteArray channel = uniqueKey("chan");
        bool confirmed = false;
        sub.subscribe(RedisSubscriber::Kind::Channel, channel, [&](const RedisError &e) { confirmed = !e.isError(); });
        QTRY_VERIFY(confirmed);
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "PUBLISH", channel, QByteArray("0\xff", 2) }).toInteger(), 1);
        QTRY_COMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).at(0).toByteArray(), channel);
        QCOMPARE(messages.at(0).at(1).toByteArray(), QByteArray("0\xff", 2));

        // Two users of one channel share one subscription; it ends with the last of them.
        sub.subscribe(RedisSubscriber::Kind::Channel, channel);
        sub.unsubscribe(RedisSubscriber::Kind::Channel, channel);
        QCOMPARE(raw.command({ "PUBLISH", channel, "1" }).toInteger(), 1);
        sub.unsubscribe(RedisSubscriber::Kind::Channel, channel);
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", channel }).at(1).toInteger(), 0);
    }

    void silentSubscriptionIsNoticedAndRenewed()
    {
        // Through a proxy that the test stops and starts: the silence lasts until the test ends it.
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        ConnectionOptions o = ConnectionOptions::fromUrl(proxy.url());
        o.commandTimeoutMs = 5000;
        o.reconnectInitialDelayMs = 20;
        RedisSubscriber sub(o);
        sub.setPingInterval(100);
        QSignalSpy dropped(&sub, &RedisSubscriber::disconnected);
        QSignalSpy resubscribed(&sub, &RedisSubscriber::resubscribed);
        const QByteArray channel = uniqueKey("quiet");
        bool confirmed = false;
        sub.subscribe(RedisSubscriber::Kind::Channel, channel, [&](const RedisError &) { confirmed = true; });
        QTRY_VERIFY(confirmed);
        // Quiet but alive: pings are answered, nothing is dropped. Proof rather than a pause: the server has
        // answered three of its keep-alive pings, and a sync through the same connection shows the answers are in.
        RawRedis raw(m_server.port());
        const auto pings = [&raw] {
            const QByteArray info = raw.command({ "INFO", "commandstats" }).bytes();
            const int at = info.indexOf("cmdstat_ping:calls=");
            return at < 0 ? 0 : info.mid(at + 19, info.indexOf(',', at) - at - 19).toLongLong();
        };
        const qint64 before = pings();
        QTRY_VERIFY_WITH_TIMEOUT(pings() >= before + 3, 30000);
        std::optional<bool> synced;
        sub.sync([&](bool delivered) { synced = delivered; });
        QTRY_VERIFY_WITH_TIMEOUT(synced.has_value(), 30000);
        QVERIFY(*synced);
        QCOMPARE(dropped.size(), 0);
        // The server stops answering: the subscriber must notice on its own, then come back once it answers again.
        proxy.setFrozen(true);
        QTRY_VERIFY_WITH_TIMEOUT(dropped.size() >= 1, 30000);
        QCOMPARE(dropped.at(0).at(0).value<RedisError>().kind(), RedisError::Kind::Timeout);
        proxy.setFrozen(false);
        QTRY_VERIFY_WITH_TIMEOUT(resubscribed.size() >= 1, 30000);
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", channel }).at(1).toInteger(), 1);
    }

    void subscriberResubscribesAfterRestart()
    {
        RedisServer server;
        QVERIFY(server.start());
        ConnectionOptions o = optionsFor(server);
        o.reconnectInitialDelayMs = 20;
        RedisSubscriber sub(o);
        QSignalSpy resubscribed(&sub, &RedisSubscriber::resubscribed);
        QSignalSpy messages(&sub, &RedisSubscriber::message);
        bool confirmed = false;
        sub.subscribe(RedisSubscriber::Kind::Channel, "c", [&](const RedisError &) { confirmed = true; });
        QTRY_VERIFY(confirmed);
        server.killHard();
        QVERIFY(server.start());
        QTRY_VERIFY_WITH_TIMEOUT(resubscribed.size() >= 1, 20000);
        RawRedis raw(server.port());
        QCOMPARE(raw.command({ "PUBLISH", "c", "0" }).toInteger(), 1);
        QTRY_COMPARE(messages.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestConnection)
#include "tst_connection.moc"
