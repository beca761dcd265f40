// The transport's batches on a real redis-server: many commands, one callback with every reply in order, as a walk
// of a big keyspace sends them (a TYPE per key). Through a connection and through a router in front of one server.
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTest>

#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
struct BatchAnswer
{
    RedisError error;
    QList<RedisValue> replies;
    int calls = 0;
};

// Sends a batch and waits for its one answer, pumping the event loop; also checks the answer came later, not inside
// the call.
BatchAnswer runBatch(RedisCommander &c, const QList<QList<QByteArray>> &commands)
{
    auto answer = std::make_shared<BatchAnswer>();
    bool inside = true;
    bool calledInside = false;
    c.commandBatch(commands, [answer, &inside, &calledInside](const RedisError &error, const QList<RedisValue> &r) {
        calledInside = calledInside || inside;
        answer->error = error;
        answer->replies = r;
        ++answer->calls;
    });
    inside = false;
    [&] { QTRY_VERIFY_WITH_TIMEOUT(answer->calls > 0, 10000); }();
    [&] { QVERIFY(!calledInside); }();
    return *answer;
}

ConnectionOptions optionsFor(const RedisServer &server)
{
    return ConnectionOptions::fromUrl(server.url());
}
} // namespace

class TestBatches : public QObject
{
    Q_OBJECT
    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void repliesComeInOrderWithServerErrorsAmongThem()
    {
        const QByteArray key = uniqueKey("batch");
        RawRedis raw(m_server.port());
        raw.command({ "SET", key, "1" });
        RedisConnection connection(optionsFor(m_server));
        RedisRouter router(optionsFor(m_server));
        for (RedisCommander *c : QList<RedisCommander *> { &connection, &router }) {
            const BatchAnswer a = runBatch(*c, { { "GET", key }, { "HGET", key, "f" }, { "TYPE", key }, { "PING" } });
            QVERIFY(!a.error.isError());
            QCOMPARE(a.calls, 1);
            QCOMPARE(a.replies.size(), 4);
            QCOMPARE(a.replies.at(0).bytes(), QByteArray("1"));
            QVERIFY(a.replies.at(1).isError()); // WRONGTYPE is the command's answer, not the batch's failure
            QCOMPARE(a.replies.at(1).errorCode(), QByteArray("WRONGTYPE"));
            QCOMPARE(a.replies.at(2).bytes(), QByteArray("string"));
            QCOMPARE(a.replies.at(3).bytes(), QByteArray("PONG"));
            // Commands after the batch still get their own replies.
            std::optional<RedisResult> after;
            c->command({ "GET", key }, [&](const RedisResult &r) { after = r; });
            QTRY_VERIFY(after.has_value());
            QCOMPARE(after->value.bytes(), QByteArray("1"));
        }
    }

    void sameCommandForEachKey()
    {
        const QByteArray p = uniqueKey("each") + ":";
        RawRedis raw(m_server.port());
        raw.command({ "SET", p + "s", "1" });
        raw.command({ "HSET", p + "h", "f", "v" });
        raw.command({ "RPUSH", p + "l", "x" });
        RedisConnection connection(optionsFor(m_server));
        auto answer = std::make_shared<BatchAnswer>();
        connection.commandEach({ "TYPE" }, { p + "s", p + "h", p + "l", p + "none" }, {},
            [answer](const RedisError &error, const QList<RedisValue> &r) {
                answer->error = error;
                answer->replies = r;
                ++answer->calls;
            });
        QTRY_COMPARE(answer->calls, 1);
        QVERIFY(!answer->error.isError());
        QList<QByteArray> types;
        for (const RedisValue &v : std::as_const(answer->replies))
            types << v.bytes();
        QCOMPARE(types, (QList<QByteArray> { "string", "hash", "list", "none" }));
        // A head and a tail around each key.
        answer->calls = 0;
        connection.commandEach({ "HSCAN" }, { p + "h" }, { "0", "COUNT", "64" },
            [answer](const RedisError &error, const QList<RedisValue> &r) {
                answer->error = error;
                answer->replies = r;
                ++answer->calls;
            });
        QTRY_COMPARE(answer->calls, 1);
        QCOMPARE(answer->replies.value(0).at(1).size(), 2);
        QCOMPARE(answer->replies.value(0).at(1).at(0).bytes(), QByteArray("f"));
    }

    void emptyBatchAnswersLater()
    {
        RedisConnection connection(optionsFor(m_server));
        const BatchAnswer a = runBatch(connection, {});
        QVERIFY(!a.error.isError());
        QVERIFY(a.replies.isEmpty());
    }

    void readOnlyRefusesABatchThatWritesWhole()
    {
        ConnectionOptions o = optionsFor(m_server);
        o.readOnly = true;
        RedisConnection connection(o);
        const QByteArray key = uniqueKey("robatch");
        RawRedis raw(m_server.port());
        const BatchAnswer a = runBatch(connection, { { "GET", key }, { "SET", key, "v" }, { "PING" } });
        QCOMPARE(a.error.kind(), RedisError::Kind::ReadOnly);
        QVERIFY(a.replies.isEmpty());
        QVERIFY(raw.get(key).isNull()); // nothing of it reached the server
        // The same through commandEach.
        auto answer = std::make_shared<BatchAnswer>();
        connection.commandEach({ "DEL" }, { key }, {}, [answer](const RedisError &error, const QList<RedisValue> &) {
            answer->error = error;
            ++answer->calls;
        });
        QTRY_COMPARE(answer->calls, 1);
        QCOMPARE(answer->error.kind(), RedisError::Kind::ReadOnly);
        QVERIFY(runBatch(connection, { { "GET", key } }).replies.value(0).isNil());
    }

    void aLostConnectionFailsTheBatchOnce()
    {
        RedisConnection connection(optionsFor(m_server));
        std::optional<RedisResult> id;
        connection.command({ "CLIENT", "ID" }, [&](const RedisResult &r) { id = r; });
        QTRY_VERIFY(id.has_value());
        const QByteArray list = uniqueKey("blocked");
        auto answer = std::make_shared<BatchAnswer>();
        // The first reply comes at once; the second never does (BLPOP on an empty list, no timeout).
        connection.commandBatch(
            { { "PING" }, { "BLPOP", list, "0" } }, [answer](const RedisError &error, const QList<RedisValue> &r) {
                answer->error = error;
                answer->replies = r;
                ++answer->calls;
            });
        RawRedis raw(m_server.port());
        QTRY_COMPARE(raw.command({ "CLIENT", "LIST", "ID", id->value.bytes() }).bytes().contains("cmd=blpop"), true);
        raw.command({ "CLIENT", "KILL", "ID", id->value.bytes() });
        QTRY_COMPARE(answer->calls, 1);
        QCOMPARE(answer->error.kind(), RedisError::Kind::Io);
        QVERIFY(answer->replies.isEmpty());
        // And the connection comes back for what follows.
        QVERIFY(!runBatch(connection, { { "PING" } }).error.isError());
        QCOMPARE(answer->calls, 1);
    }
};

QTEST_GUILESS_MAIN(TestBatches)
#include "tst_batches.moc"
