// Redisson's semaphores and count-down latches, and a holder that dies, judged by Redisson itself (issue 48): the real
// client in a JVM (redissonjvm.h) at every pinned version, on the fixture's private redis-server. LockScope's counter
// writes wake Redisson's own acquire() and await(); a counter someone waits on is known without a declaration; a
// watchdog holder killed with -9 leaves a lock that expires, reported as expired, never as released.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestRedissonCounters : public QObject
{
    Q_OBJECT
    RedissonFixture m_fixture;
    RedisServer &m_server = m_fixture.server;
    QTemporaryDir &m_dir = m_fixture.dir;

    CliRun cli(const QStringList &args) { return m_fixture.cli(args); }

private slots:
    void initTestCase() { m_fixture.start(); }

    // Redisson's semaphores and latches, by LockScope's writes: add-permits wakes a blocked acquire(), release-permit
    // frees the permit whose id Java's acquire() returned (raw bytes since 3.17, text in 3.16), open-latch lets await()
    // return.
    void countersWakeRedisson_data() { redissonVersionRows(); }
    void countersWakeRedisson()
    {
        QFETCH(QString, version);
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const auto declared = [](const QByteArray &name) {
            return QStringList { QStringLiteral("--layout-pattern"),
                QStringLiteral("redisson=") + QString::fromUtf8(name) };
        };

        const QByteArray semaphore = uniqueKey("rs-semaphore");
        QVERIFY(java.call(redissonCall(QStringLiteral("trySetPermits"), QStringLiteral("a"),
            QStringLiteral("semaphore"), semaphore, { { QStringLiteral("permits"), 0 } }))[QStringLiteral("value")]
                    .toBool());
        const int acquiring = java.send(
            redissonCall(QStringLiteral("acquire"), QStringLiteral("b"), QStringLiteral("semaphore"), semaphore));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, semaphore), 30000);
        QVERIFY(!java.answered(acquiring));
        // No pattern declares it: its waiter's subscription on redisson_sc:{NAME} says it is Redisson's semaphore.
        CLI_EXIT(cli(QStringList { QStringLiteral("add-permits"), QString::fromUtf8(semaphore) }), CliExit::Done);
        const std::optional<QJsonObject> acquired = java.reply(acquiring, 60000);
        QVERIFY(acquired && acquired->value(QStringLiteral("ok")).toBool());

        const QByteArray expirable = uniqueKey("rs-expirable");
        java.call(redissonCall(QStringLiteral("trySetPermits"), QStringLiteral("a"), QStringLiteral("expirable"),
            expirable, { { QStringLiteral("permits"), 1 } }));
        const QJsonObject permit = java.call(
            redissonCall(QStringLiteral("acquire"), QStringLiteral("a"), QStringLiteral("expirable"), expirable));
        QVERIFY2(permit.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(permit).toJson()));
        const QString id = permit.value(QStringLiteral("value")).toString();
        QCOMPARE(java.call(redissonCall(QStringLiteral("availablePermits"), QStringLiteral("a"),
                     QStringLiteral("expirable"), expirable))[QStringLiteral("value")]
                     .toInt(),
            0);
        const CliRun freed = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(expirable),
                                     QStringLiteral("--permit"), id }
            + declared(expirable));
        CLI_EXIT(freed, CliExit::Done);
        QCOMPARE(java.call(redissonCall(QStringLiteral("availablePermits"), QStringLiteral("a"),
                     QStringLiteral("expirable"), expirable))[QStringLiteral("value")]
                     .toInt(),
            1);
        // Java's own release of that permit now fails: it was given back already.
        const QJsonObject twice = java.call(redissonCall(QStringLiteral("release"), QStringLiteral("a"),
            QStringLiteral("expirable"), expirable, { { QStringLiteral("permit"), id } }));
        QVERIFY2(!twice.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(twice).toJson()));

        const QByteArray latch = uniqueKey("rs-latch");
        QVERIFY(java.call(redissonCall(QStringLiteral("trySetCount"), QStringLiteral("a"), QStringLiteral("latch"),
            latch, { { QStringLiteral("count"), 2 } }))[QStringLiteral("value")]
                    .toBool());
        const int awaiting
            = java.send(redissonCall(QStringLiteral("await"), QStringLiteral("c"), QStringLiteral("latch"), latch));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, latch), 30000);
        QVERIFY(!java.answered(awaiting));
        // Undeclared too: its waiter listens on redisson_countdownlatch__channel__{NAME}.
        CLI_EXIT(cli(QStringList { QStringLiteral("open-latch"), QString::fromUtf8(latch), QStringLiteral("--yes") }),
            CliExit::Done);
        const std::optional<QJsonObject> opened = java.reply(awaiting, 60000);
        QVERIFY(opened && opened->value(QStringLiteral("ok")).toBool());
    }

    // A Redisson semaphore or latch that someone waits on is one, with no pattern declaring it: `show` and `list`
    // say so, with the channel as evidence. Nobody waiting: an integer is all there is, and a refusal names the
    // option that declares the name.
    void countersKnownByTheirWaiters_data() { redissonVersionRows(); }
    void countersKnownByTheirWaiters()
    {
        QFETCH(QString, version);
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray prefix = uniqueKey("rs-vouched");
        const QByteArray semaphore = prefix + ":slots", latch = prefix + ":ready";
        QVERIFY(java.call(redissonCall(QStringLiteral("trySetPermits"), QStringLiteral("a"),
            QStringLiteral("semaphore"), semaphore, { { QStringLiteral("permits"), 0 } }))[QStringLiteral("value")]
                    .toBool());
        QVERIFY(java.call(redissonCall(QStringLiteral("trySetCount"), QStringLiteral("a"), QStringLiteral("latch"),
            latch, { { QStringLiteral("count"), 1 } }))[QStringLiteral("value")]
                    .toBool());

        // Nobody waits yet: not shown, and the refusal says how to declare it.
        const CliRun idle = cli({ QStringLiteral("add-permits"), QString::fromUtf8(semaphore) });
        CLI_EXIT(idle, CliExit::NotDone);
        QVERIFY2(idle.err.contains("--layout-pattern redisson=" + semaphore), idle.err.constData());
        QCOMPARE(raw.get(semaphore), QByteArray("0"));

        const int acquiring = java.send(
            redissonCall(QStringLiteral("acquire"), QStringLiteral("b"), QStringLiteral("semaphore"), semaphore));
        const int awaiting
            = java.send(redissonCall(QStringLiteral("await"), QStringLiteral("c"), QStringLiteral("latch"), latch));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, semaphore) && someoneWaitsOn(raw, latch), 30000);

        const auto locks = listedLocks(m_server.url(), m_dir, QString::fromUtf8(prefix) + QStringLiteral(":*"));
        QVERIFY(locks);
        const QJsonObject shownSemaphore = locks->value(QString::fromUtf8(semaphore));
        QCOMPARE(shownSemaphore.value(QStringLiteral("kind")).toString(), QStringLiteral("semaphore"));
        QCOMPARE(shownSemaphore.value(QStringLiteral("library")).toString(), QStringLiteral("redisson"));
        QCOMPARE(shownSemaphore.value(QStringLiteral("waiters")).toInt(), 1);
        QVERIFY2(QJsonDocument(shownSemaphore.value(QStringLiteral("evidence")).toArray())
                     .toJson()
                     .contains("redisson_sc:{"),
            qPrintable(QJsonDocument(shownSemaphore).toJson()));
        const QJsonObject ready = locks->value(QString::fromUtf8(latch));
        QCOMPARE(ready.value(QStringLiteral("kind")).toString(), QStringLiteral("count-down-latch"));
        QCOMPARE(ready.value(QStringLiteral("count")).toInt(), 1);
        const CliRun shown = cli({ QStringLiteral("show"), QString::fromUtf8(semaphore) });
        CLI_EXIT(shown, CliExit::Done);

        // Whoever waited goes on; nothing was declared anywhere.
        CLI_EXIT(cli({ QStringLiteral("add-permits"), QString::fromUtf8(semaphore) }), CliExit::Done);
        CLI_EXIT(
            cli({ QStringLiteral("open-latch"), QString::fromUtf8(latch), QStringLiteral("--yes") }), CliExit::Done);
        QVERIFY(java.reply(acquiring, 60000).value_or(QJsonObject()).value(QStringLiteral("ok")).toBool());
        QVERIFY(java.reply(awaiting, 60000).value_or(QJsonObject()).value(QStringLiteral("ok")).toBool());
    }

    // kill -9 of the JVM that held with the watchdog: the lease runs out, `watch` reports it expired (never
    // released), and a Redisson waiter gets the lock on its own timer.
    void killedHolderExpires_data() { redissonVersionRows(); }
    void killedHolderExpires()
    {
        QFETCH(QString, version);
        RedissonJvm holder, waiter;
        QVERIFY(holder.start(version, m_server.url(), 2000)); // a 2 s lease once the watchdog is gone
        QVERIFY(waiter.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rs-killed");
        QProcess watch;
        startCli(watch,
            { QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--pattern"), QString::fromUtf8(name),
                QStringLiteral("--url"), m_server.url() },
            m_dir);
        QList<QJsonObject> events;
        const QJsonObject held = holder.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name));
        QVERIFY(held.value(QStringLiteral("ok")).toBool());
        const QString owner = held.value(QStringLiteral("owner")).toString();
        // watch has the hold and sees its renewals: it is watching when the holder dies.
        QVERIFY(waitForEvents(watch, &events,
            [&owner](const QList<QJsonObject> &e) { return countEvents(e, QStringLiteral("renewed"), owner) >= 1; }));
        const int blocked
            = waiter.send(redissonCall(QStringLiteral("lock"), QStringLiteral("b"), {}, name, lease(kLongLeaseMs)));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, name), 30000);

        holder.kill();
        const std::optional<QJsonObject> got = waiter.reply(blocked, 60000);
        QVERIFY(got && got->value(QStringLiteral("ok")).toBool());
        QVERIFY2(waitForEvents(watch, &events,
                     [&owner](const QList<QJsonObject> &e) {
                         return countEvents(e, QStringLiteral("expired"), owner) >= 1;
                     }),
            eventsText(events).constData());
        QCOMPARE(countEvents(events, QStringLiteral("released"), owner), 0);
        QCOMPARE(countEvents(events, QStringLiteral("force-released"), owner), 0);
        QVERIFY(waiter.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("b"), {}, name))[QStringLiteral("ok")]
                    .toBool());
        watch.terminate();
        CLI_EXIT(finishCli(watch), CliExit::Done);
    }
};

QTEST_GUILESS_MAIN(TestRedissonCounters)
#include "tst_redissoncounters.moc"
