// Network faults between a client and a real redis-server, injected by a proxy under the test's control: replies
// cut off mid-reply, pipelines cut off mid-command, replies late past the deadline, a network that stops moving.
// The promise checked each time: every command is answered exactly once, by its own reply or by a typed error,
// a reply never lands on another command, and the client works again afterwards.
#include "clirun.h"
#include "faultproxy.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redis/respcodec.h"
#include "redisserver.h"
#include "testutil.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
constexpr int kPipeline = 200;

// What came back for each command of a pipeline, and how many times.
struct Tally
{
    QList<int> calls = QList<int>(kPipeline, 0);
    QList<RedisResult> results = QList<RedisResult>(kPipeline);

    RedisCommander::Callback at(int i)
    {
        return [this, i](const RedisResult &r) {
            ++calls[i];
            results[i] = r;
        };
    }
    int answered() const
    {
        return int(std::count_if(calls.begin(), calls.end(), [](int c) { return c > 0; }));
    }
    // The number of leading successes; everything after them must have failed.
    int successes() const
    {
        int s = 0;
        while (s < kPipeline && results.at(s).ok())
            ++s;
        return s;
    }
};

ConnectionOptions fastOptions(const QString &url, int timeoutMs = 5000)
{
    ConnectionOptions o = ConnectionOptions::fromUrl(url);
    o.commandTimeoutMs = timeoutMs;
    o.reconnectInitialDelayMs = 20;
    o.reconnectMaxDelayMs = 50;
    return o;
}

RedisResult call(RedisConnection &c, const QList<QByteArray> &argv)
{
    return await<RedisResult>([&](auto done) { c.command(argv, done); });
}

FaultProxy &listening(FaultProxy &proxy)
{
    proxy.listen();
    return proxy;
}

// A connection to the server through a proxy of its own, open and past its first round trip before faults begin.
struct Proxied
{
    Proxied(quint16 serverPort, int timeoutMs = 5000)
        : proxy(serverPort)
        , connection(fastOptions(listening(proxy).url(), timeoutMs))
    {
        connection.open();
    }
    bool ready() { return proxy.port() != 0 && call(connection, { "PING" }).ok(); }

    FaultProxy proxy;
    RedisConnection connection;
};
} // namespace

class TestProxyFaults : public QObject
{
    Q_OBJECT

private:
    RedisServer m_server;

    // Every command answered once; the successes are a prefix, each with its own INCR value; the rest typed errors.
    static void checkPipeline(const Tally &t, RedisError::Kind failure)
    {
        for (int i = 0; i < kPipeline; ++i)
            QVERIFY2(t.calls.at(i) == 1,
                qPrintable(QStringLiteral("command %1 answered %2 times").arg(i).arg(t.calls.at(i))));
        const int s = t.successes();
        for (int i = 0; i < s; ++i)
            QCOMPARE(t.results.at(i).value.toInteger(), qint64(i + 1));
        for (int i = s; i < kPipeline; ++i)
            QVERIFY2(t.results.at(i).error.kind() == failure, qPrintable(t.results.at(i).error.toString()));
    }

    void sendPipeline(RedisConnection &c, const QByteArray &key, Tally &t)
    {
        c.cork();
        for (int i = 0; i < kPipeline; ++i)
            c.command({ "INCR", key }, t.at(i));
        c.uncork();
        QTRY_COMPARE_WITH_TIMEOUT(t.answered(), kPipeline, 15000);
    }

private slots:
    void initTestCase() { QVERIFY(m_server.start()); }

    void replyCutMidStream_data()
    {
        QTest::addColumn<int>("offset");
        // ":1\r\n" is 4 bytes, ":10\r\n" 5: inside the first reply, on reply boundaries, inside later replies.
        for (int offset : { 0, 1, 3, 4, 5, 7, 250, 251, 1000 })
            QTest::addRow("after %d bytes", offset) << offset;
    }

    void replyCutMidStream()
    {
        QFETCH(int, offset);
        Proxied p(m_server.port());
        QVERIFY(p.ready());
        FaultProxy &proxy = p.proxy;
        RedisConnection &c = p.connection;
        RawRedis raw(m_server.port());
        const QByteArray key = uniqueKey("cut-reply");

        proxy.cutRepliesAfter(offset);
        Tally t;
        sendPipeline(c, key, t);
        QCOMPARE(proxy.cuts(), 1);
        checkPipeline(t, RedisError::Kind::Io);
        QVERIFY(t.successes() < kPipeline);
        // The server may have run more than the client heard of, never fewer.
        const qint64 executed = raw.get(key).toLongLong();
        QVERIFY(executed >= t.successes() && executed <= kPipeline);

        // The connection comes back, and the next reply is the next command's own.
        const RedisResult next = call(c, { "INCR", key });
        QVERIFY2(next.ok(), qPrintable(next.error.toString()));
        QCOMPARE(next.value.toInteger(), executed + 1);
        QCOMPARE(proxy.accepted(), 2);
    }

    void pipelineCutMidCommand_data()
    {
        QTest::addColumn<int>("offset");
        const int size = int(formatCommand({ "INCR", uniqueKey("cut-request") }).size());
        QTest::addRow("inside the first command") << size - 1;
        QTest::addRow("after the first command") << size;
        QTest::addRow("inside the second command") << size + 1;
        QTest::addRow("inside the 11th command") << 10 * size + 3;
        QTest::addRow("inside the last command") << (kPipeline - 1) * size + 5;
    }

    void pipelineCutMidCommand()
    {
        QFETCH(int, offset);
        Proxied p(m_server.port());
        QVERIFY(p.ready());
        FaultProxy &proxy = p.proxy;
        RedisConnection &c = p.connection;
        RawRedis raw(m_server.port());
        const QByteArray key = uniqueKey("cut-request");
        const int size = int(formatCommand({ "INCR", key }).size());

        proxy.cutRequestsAfter(offset);
        Tally t;
        sendPipeline(c, key, t);
        QCOMPARE(proxy.cuts(), 1);
        checkPipeline(t, RedisError::Kind::Io);
        // Exactly the whole commands that reached the server ran; the torn one did not.
        QTRY_COMPARE(raw.get(key).toLongLong(), qint64(offset / size));
        QVERIFY(t.successes() <= offset / size);

        const RedisResult next = call(c, { "INCR", key });
        QVERIFY2(next.ok(), qPrintable(next.error.toString()));
        QCOMPARE(next.value.toInteger(), qint64(offset / size + 1));
    }

    void floodOfRepliesLeavesTurnsToTheWindow()
    {
        // Replies read at once (held by the proxy, then let go together) whose callbacks take a while, as a scan's
        // pages do at a million locks: they are handed over in order, but not all in one turn of the event loop, and
        // the server closing right behind them takes none away.
        Proxied p(m_server.port());
        QVERIFY(p.ready());
        constexpr int kReplies = 40;
        p.proxy.setRepliesHeld(true);
        QList<int> order;
        QList<bool> ok;
        int doneWhenTheLoopTurned = -1;
        for (int i = 0; i < kReplies; ++i)
            p.connection.command({ "PING" }, [&, i](const RedisResult &r) {
                if (i == 0)
                    QTimer::singleShot(0, [&] { doneWhenTheLoopTurned = int(order.size()); });
                order << i;
                ok << (r.ok() && r.value.bytes() == "PONG");
                QElapsedTimer busy; // the callback's own work: a millisecond each, 40 in all
                busy.start();
                while (busy.elapsed() < 1) { }
            });
        const qint64 replyBytes = kReplies * qint64(sizeof "+PONG\r\n" - 1);
        QTRY_COMPARE(p.proxy.heldReplyBytes(), replyBytes);
        p.proxy.cutRepliesAfter(replyBytes);
        p.proxy.setRepliesHeld(false);
        QTRY_COMPARE(order.size(), kReplies);
        for (int i = 0; i < kReplies; ++i) {
            QCOMPARE(order.at(i), i);
            QVERIFY2(ok.at(i), qPrintable(QStringLiteral("reply %1 is not its PONG").arg(i)));
        }
        QVERIFY2(doneWhenTheLoopTurned > 0 && doneWhenTheLoopTurned < kReplies,
            qPrintable(QStringLiteral("the event loop turned after %1 of %2 replies")
                           .arg(doneWhenTheLoopTurned)
                           .arg(kReplies)));
    }

    void stalledNetworkPastTheDeadline_data()
    {
        QTest::addColumn<bool>("frozen");
        QTest::addRow("replies late") << false;
        QTest::addRow("nothing moves") << true;
    }

    void stalledNetworkPastTheDeadline()
    {
        // A deadline far above any latency, and a stall that lasts until every command has timed out: the late
        // replies come only when the test lets them.
        QFETCH(bool, frozen);
        Proxied p(m_server.port(), 2000);
        QVERIFY(p.ready());
        FaultProxy &proxy = p.proxy;
        RedisConnection &c = p.connection;
        RawRedis raw(m_server.port());
        const QByteArray key = uniqueKey("stalled");

        if (frozen)
            proxy.setFrozen(true);
        else
            proxy.setRepliesHeld(true);
        QList<int> calls(5, 0);
        QList<RedisError::Kind> kinds(5, RedisError::Kind::None);
        for (int i = 0; i < 5; ++i)
            c.command({ "INCR", key }, [&calls, &kinds, i](const RedisResult &r) {
                ++calls[i];
                kinds[i] = r.error.kind();
            });
        QTRY_VERIFY_WITH_TIMEOUT(!calls.contains(0), 30000);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(calls.at(i), 1);
            QCOMPARE(kinds.at(i), RedisError::Kind::Timeout);
        }
        // Late replies arrive on a connection the client has already dropped: they must not answer anything else.
        const qint64 executed = frozen ? 0 : 5;
        QTRY_COMPARE(raw.get(key).toLongLong(), executed);
        proxy.setFrozen(false);
        proxy.setRepliesHeld(false);
        const RedisResult next = call(c, { "INCR", key });
        QVERIFY2(next.ok(), qPrintable(next.error.toString()));
        QCOMPARE(next.value.toInteger(), executed + 1);
    }

    void unlockUnderCutsAppliesOnce_data()
    {
        QTest::addColumn<bool>("cutRequest");
        QTest::addRow("reply cut") << false;
        QTest::addRow("script torn on the way") << true;
    }

    void unlockUnderCutsAppliesOnce()
    {
        QFETCH(bool, cutRequest);
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        LockClient client(fastOptions(proxy.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cut-unlock");
        AcquireRequest request;
        request.name = name;
        request.leaseMs = 60000;
        request.token = "1";
        QVERIFY(acquire(client, request).acquired);
        QVERIFY(acquire(client, request).acquired); // count 2
        const QByteArray owner = client.ownerField("1");

        // The first attempt's reply (or its second half) is lost; the retry, same request id, is answered from
        // the latch or runs for the first time: either way one level goes.
        if (cutRequest)
            proxy.cutRequestsAfter(20);
        else
            proxy.cutRepliesAfter(2);
        const ReleaseResult r = release(client, name, owner);
        QVERIFY2(r.outcome == ReleaseResult::Outcome::StillHeld, qPrintable(r.error.toString() + r.message));
        QCOMPARE(proxy.cuts(), 1);
        QCOMPARE(raw.hgetall(name).value(owner), "1");
        QCOMPARE(release(client, name, owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
    }

    void acquireWhoseReplyIsLost()
    {
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        LockClient client(fastOptions(proxy.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cut-acquire");
        AcquireRequest request;
        request.name = name;
        request.leaseMs = 60000;
        request.token = "1";
        AcquireRequest warmUp = request;
        warmUp.name = name + ":warm-up";
        QVERIFY(acquire(client, warmUp).acquired);

        // The server takes the lock, the client never hears: a typed error, no hold believed, the lease bounded.
        proxy.cutRepliesAfter(0);
        const AcquireResult a = acquire(client, request);
        QCOMPARE(a.error.kind(), RedisError::Kind::Io);
        QVERIFY(!a.acquired);
        for (const HoldEvent &h : client.holds())
            QVERIFY(h.name != name);
        const qint64 ttl = raw.pttl(name);
        QVERIFY2(ttl > 0 && ttl <= 60000, qPrintable(QString::number(ttl)));
    }

    void cliReportsAStallThenWorks()
    {
        // Support staff on a server see a stall as a clear timeout with its exit code, not a hang, and the next
        // run works once the network moves again.
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        proxy.setFrozen(true);
        QTemporaryDir dir;
        const QStringList list { QStringLiteral("list"), QStringLiteral("--url"), proxy.url() };
        // The proxy lives in this thread: wait with the event loop running.
        const CliRun stalled = runCli(list, dir, {}, CliWait::ServeEvents);
        CLI_REFUSED(stalled, CliExit::Connect, "did not answer within"); // the code ("timeout") is --json's
        proxy.setFrozen(false);
        CLI_EXIT(runCli(list, dir, {}, CliWait::ServeEvents), CliExit::Done);
    }
};

QTEST_GUILESS_MAIN(TestProxyFaults)
#include "tst_proxyfaults.moc"
