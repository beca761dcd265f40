// Sentinel on real processes (a master, a replica, three sentinels): the master is found by name, a name no sentinel
// knows is a clear error, and when the master dies under lock traffic the client and the monitor move to the
// promoted replica by themselves, held locks and all.
#include "clirun.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redis/sentinelresolver.h"
#include "redissentinel.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <optional>
#include <tuple>

using namespace LockScope;
using namespace LockScope::Test;

class TestSentinel : public QObject
{
    Q_OBJECT
    RedisSentinelSet m_set;

    ConnectionOptions options(const QByteArray &master)
    {
        ConnectionOptions o; // host and port come from Sentinel
        o.sentinels = ConnectionOptions::parseSentinels(m_set.sentinelList());
        o.sentinelMaster = master;
        o.connectTimeoutMs = 2000;
        o.commandTimeoutMs = 3000;
        o.reconnectMaxDelayMs = 500;
        return o;
    }

    AcquireRequest request(const QByteArray &name, qint64 leaseMs = -1)
    {
        AcquireRequest r;
        r.name = name;
        r.leaseMs = leaseMs;
        return r;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_set.start(&error), qPrintable(error));
    }

    void masterFoundByName()
    {
        LockClient client(options(m_set.masterName()));
        const QByteArray name = uniqueKey("sentinel");
        const AcquireResult a = acquire(client, request(name, 30000));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(RawRedis(m_set.master().port()).hgetall(name).value(a.owner), "1");
        QCOMPARE(client.connection()->mode(), RedisRouter::Mode::Standalone);
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
    }

    void cliFindsTheMaster()
    {
        LockClient client(options(m_set.masterName()));
        const QByteArray name = uniqueKey("cli");
        const AcquireResult a = acquire(client, request(name, 30000));
        QVERIFY(a.acquired);
        // Through clirun.h: a crash, a hang or a sanitizer's report fails the test.
        const QTemporaryDir dir; // the CLI's audit log
        const CliRun listed
            = runCli({ QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--sentinel"),
                         m_set.sentinelList(), QStringLiteral("--master"), QString::fromUtf8(m_set.masterName()),
                         QStringLiteral("--pattern"), QString::fromUtf8(name) },
                dir);
        CLI_EXIT(listed, CliExit::Done);
        const QJsonArray locks = QJsonDocument::fromJson(listed.out).array();
        QCOMPARE(locks.size(), 1);
        QCOMPARE(locks.at(0).toObject().value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        // --sentinel needs --master: a usage error, nothing contacted.
        CLI_EXIT(runCli({ QStringLiteral("list"), QStringLiteral("--sentinel"), m_set.sentinelList() }, dir),
            CliExit::Usage);
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
    }

    void unknownMasterIsAClearError()
    {
        ConnectionOptions o = options("no-such-master");
        o.autoReconnect = false;
        LockClient client(o);
        const AcquireResult a = acquire(client, request(uniqueKey("x"), 1000));
        QVERIFY(!a.acquired);
        QVERIFY2(a.error.message().contains(QLatin1String("no-such-master")), qPrintable(a.error.toString()));
    }

    // A sentinel that answers with something that is no address (found by fuzz_replies): an empty host, a port past
    // 65535 that a 16-bit port would have cut to 4464, a port of 0. None is followed; the next sentinel is asked,
    // and the real one's answer is taken.
    void anAnswerThatIsNoAddressIsNotFollowed()
    {
        QTcpServer liar;
        QVERIFY(liar.listen(QHostAddress::LocalHost, 0));
        const QList<QByteArray> answers = { "*2\r\n$9\r\n127.0.0.1\r\n$5\r\n70000\r\n",
            "*2\r\n$0\r\n\r\n$4\r\n6379\r\n", "*2\r\n$9\r\n127.0.0.1\r\n$1\r\n0\r\n" };
        int asked = 0;
        connect(&liar, &QTcpServer::newConnection, this, [&] {
            QTcpSocket *s = liar.nextPendingConnection();
            const QByteArray answer = answers.at(asked++ % answers.size());
            connect(s, &QTcpSocket::readyRead, s, [s, answer] {
                s->readAll();
                s->write(answer);
            });
        });
        for (int lie = 0; lie < int(answers.size()); ++lie) {
            ConnectionOptions o = options(m_set.masterName());
            o.sentinels = { SentinelAddress { QStringLiteral("127.0.0.1"), liar.serverPort() } };
            o.sentinels += ConnectionOptions::parseSentinels(m_set.sentinelList());
            SentinelResolver resolver(o);
            std::optional<std::tuple<QString, quint16, RedisError>> found;
            resolver.resolve([&](const QString &host, quint16 port, const RedisError &error) {
                found = std::make_tuple(host, port, error);
            });
            QTRY_VERIFY_WITH_TIMEOUT(found.has_value(), 20000);
            const auto &[host, port, error] = *found;
            QVERIFY2(!error.isError(), qPrintable(error.toString()));
            QCOMPARE(port, m_set.master().port()); // the real sentinel's answer, not the liar's
            QVERIFY(!host.isEmpty());
        }
        QCOMPARE(asked, int(answers.size()));
        // With only the liar to ask, resolving fails and says why.
        ConnectionOptions o = options(m_set.masterName());
        o.sentinels = { SentinelAddress { QStringLiteral("127.0.0.1"), liar.serverPort() } };
        SentinelResolver resolver(o);
        std::optional<RedisError> failed;
        resolver.resolve([&](const QString &, quint16, const RedisError &error) { failed = error; });
        QTRY_VERIFY_WITH_TIMEOUT(failed.has_value(), 20000);
        QVERIFY(failed->isError());
        QVERIFY2(failed->message().contains(QLatin1String("no usable address")), qPrintable(failed->toString()));
    }

    // Last: it changes which server is the master.
    void failoverUnderLockTraffic()
    {
        const QByteArray prefix = uniqueKey("fo") + ":";
        LockClient client(options(m_set.masterName()));
        const QByteArray heldName = prefix + "held";
        const AcquireResult held = acquire(client, request(heldName));
        QVERIFY(held.acquired && held.watchdog);
        LockMonitor::Options mo;
        mo.pattern = prefix + "*";
        mo.rescanIntervalMs = 300;
        MonitorWatch w(options(m_set.masterName()), mo);
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 1);
        RawRedis replica(m_set.replica().port());
        QTRY_COMPARE(replica.command({ "EXISTS", heldName }).toInteger(), qint64(1)); // replicated before the crash

        // Traffic: acquire-release cycles that keep going through the failover (some fail while no master exists).
        int cycles = 0;
        int failures = 0;
        int next = 0;
        bool stop = false;
        std::function<void()> cycle = [&] {
            if (stop)
                return;
            const QByteArray name = prefix + QByteArray::number(next++ % 5);
            client.acquire(request(name, 10000), [&, name](const AcquireResult &a) {
                if (!a.acquired) {
                    ++failures;
                    QTimer::singleShot(50, &client, [&] { cycle(); });
                    return;
                }
                client.release(
                    name, a.owner,
                    [&](const ReleaseResult &r) {
                        if (r.outcome == ReleaseResult::Outcome::Released)
                            ++cycles;
                        else
                            ++failures;
                        cycle();
                    },
                    LockMode::Reentrant);
            });
        };
        cycle();
        QTRY_VERIFY(cycles >= 10);
        const quint16 oldMaster = m_set.master().port();
        m_set.master().killHard();
        QTRY_VERIFY_WITH_TIMEOUT(m_set.currentMasterPort() == m_set.replica().port(), 30000);
        // The client found the new master: traffic flows again there.
        const int before = cycles;
        QTRY_VERIFY_WITH_TIMEOUT(cycles >= before + 10, 20000);
        stop = true;
        QCOMPARE(client.connection()->options().port, m_set.replica().port());
        QVERIFY(client.connection()->options().port != oldMaster);
        // The watchdog hold carried over: renewed on the new master, still ours.
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QTRY_VERIFY_WITH_TIMEOUT(renewed.count() > 0, 20000);
        // The promotion closed the replica's client connections: a fresh one.
        RawRedis promoted(m_set.replica().port());
        QCOMPARE(promoted.hgetall(heldName).value(held.owner), "1");
        // The monitor moved too: a lock taken now on the new master shows up.
        const AcquireResult late = acquire(client, request(prefix + "late", 30000));
        QVERIFY(late.acquired);
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, prefix + "late", 0, 20000));
        QVERIFY(w.monitor.record(heldName) && w.monitor.record(heldName)->present);
        QTRY_VERIFY(w.monitor.connection()->options().port == m_set.replica().port());
        QCOMPARE(release(client, heldName, held.owner).outcome, ReleaseResult::Outcome::Released);
        cycle = nullptr;
    }
};

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
