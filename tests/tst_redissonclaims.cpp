// The guided demo's claims about Redisson that docs/guide.md marks as emulated (section 5), checked against Redisson
// itself (issue 48): the real client in a JVM (redissonjvm.h) at every pinned version. What the demo's emulated client
// does, Redisson must do:
// - a renewal that finds the holder's field gone stops the watchdog silently: the lock then runs out though the
//   holder's thread still thinks it holds it, and learns otherwise only from its unlock;
// - the waiting threads of one client share one subscription, and one release lets one of them in;
// - tryLock without a wait time never subscribes; with one it answers false once its budget is spent, and true when
//   a release comes within it;
// - since 3.24 an unlock leaves a latch key it deletes itself right after (one SET by the script, one DEL by the
//   client); before, neither.
#include "clirun.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QVersionNumber>

using namespace LockScope;
using namespace LockScope::Test;

namespace {

// How many times the server ran command since it started, scripts' own calls included (INFO commandstats).
qint64 calls(RawRedis &raw, const char *command)
{
    const QString stats = QString::fromUtf8(raw.command({ "INFO", "commandstats" }).bytes());
    const QRegularExpression line(QStringLiteral("cmdstat_%1:calls=(\\d+)").arg(QLatin1String(command)));
    const QRegularExpressionMatch m = line.match(stats);
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

} // namespace

class TestRedissonClaims : public QObject
{
    Q_OBJECT
    RedissonFixture m_fixture;
    RedisServer &m_server = m_fixture.server;

private slots:
    void initTestCase() { m_fixture.start(); }

    // The holder's field removed behind its back: the next renewal answers 0 and the watchdog drops the lock without
    // a word. Put back, the field is never renewed again: the key runs out, and the holder's unlock throws.
    void watchdogStopsSilentlyAfterAFailedRenewal_data() { redissonVersionRows(); }
    void watchdogStopsSilentlyAfterAFailedRenewal()
    {
        QFETCH(QString, version);
        RedissonJvm java;
        // A 6 s watchdog lease, renewed every 2 s.
        QVERIFY(java.start(version, m_server.url(), 6000));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("claim-watchdog");
        const QJsonObject held = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name));
        QVERIFY(held.value(QStringLiteral("ok")).toBool());
        const QByteArray owner = held.value(QStringLiteral("owner")).toString().toUtf8();
        // Renewing: the TTL comes back up, a second over the lowest seen (it runs from 6 s to 4 s between renewals).
        RenewalSeen renewed(raw, name, 1000);
        QTRY_VERIFY_WITH_TIMEOUT(renewed(), 30000);

        QVERIFY(!raw.command({ "HSET", name, "someone-else:1", "1" }).isError());
        QVERIFY(!raw.command({ "HDEL", name, owner }).isError());
        // Five seconds without a renewal, two of the watchdog's ticks: each found no field of the holder's.
        QTRY_VERIFY_WITH_TIMEOUT(raw.pttl(name) < 1000, 30000);
        QVERIFY(!raw.command({ "HSET", name, owner, "1" }).isError());
        QVERIFY(!raw.command({ "HDEL", name, "someone-else:1" }).isError());
        QVERIFY(!raw.command({ "PEXPIRE", name, "6000" }).isError());
        // A watchdog still at work would keep it for ever; a stopped one lets it run out.
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "EXISTS", name }).toInteger() == 0, 30000);

        const QJsonObject unlock = java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name));
        QCOMPARE(
            unlock.value(QStringLiteral("error")).toString(), QStringLiteral("java.lang.IllegalMonitorStateException"));
    }

    // Two threads of one client wait: one subscription between them. A release lets one in; the other gets the lock
    // when that one unlocks; the last one out unsubscribes.
    void aClientsWaitersShareOneSubscription_data() { redissonVersionRows(); }
    void aClientsWaitersShareOneSubscription()
    {
        QFETCH(QString, version);
        RedissonJvm holder, waiters;
        QVERIFY(holder.start(version, m_server.url()));
        QVERIFY(waiters.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("claim-shared");
        const QByteArray channel = "redisson_lock__channel:{" + name + "}";
        const auto subscribers = [&raw, &channel] {
            return raw.command({ "PUBSUB", "NUMSUB", channel }).at(1).toInteger();
        };
        QVERIFY(holder.call(redissonCall(QStringLiteral("lock"), QStringLiteral("h"), {}, name, lease(kLongLeaseMs)))
                    .value(QStringLiteral("ok"))
                    .toBool());
        const int b
            = waiters.send(redissonCall(QStringLiteral("lock"), QStringLiteral("b"), {}, name, lease(kLongLeaseMs)));
        QTRY_COMPARE_WITH_TIMEOUT(subscribers(), qint64(1), 30000);
        const int c
            = waiters.send(redissonCall(QStringLiteral("lock"), QStringLiteral("c"), {}, name, lease(kLongLeaseMs)));
        // c shares b's entry: still one subscription (and c, asleep or not yet, gets the lock only after b or before).
        QVERIFY(waiters.call(redissonCall(QStringLiteral("isLocked"), QStringLiteral("d"), {}, name))
                    .value(QStringLiteral("value"))
                    .toBool());
        QCOMPARE(subscribers(), qint64(1));

        QVERIFY(holder.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("h"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        // One of them gets it; the other waits on.
        int first = -1;
        QTRY_VERIFY_WITH_TIMEOUT((first = waiters.answered(b) ? b : waiters.answered(c) ? c : -1) >= 0, 60000);
        const int second = first == b ? c : b;
        QVERIFY(!waiters.answered(second));
        QVERIFY(waiters.reply(first)->value(QStringLiteral("ok")).toBool());
        // The other still needs it: subscribed, at once or as soon as its own lock() (sent while the first waited)
        // has taken its entry again after the first let its share go.
        QTRY_COMPARE_WITH_TIMEOUT(subscribers(), qint64(1), 30000);
        QVERIFY(!waiters.answered(second));
        const QString firstThread = first == b ? QStringLiteral("b") : QStringLiteral("c");
        const QString secondThread = first == b ? QStringLiteral("c") : QStringLiteral("b");
        QVERIFY(waiters.call(redissonCall(QStringLiteral("unlock"), firstThread, {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        const std::optional<QJsonObject> next = waiters.reply(second, 60000);
        QVERIFY(next && next->value(QStringLiteral("ok")).toBool());
        QTRY_COMPARE_WITH_TIMEOUT(subscribers(), qint64(0), 30000); // the last one out unsubscribed
        QVERIFY(waiters.call(redissonCall(QStringLiteral("unlock"), secondThread, {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        qInfo("Redisson %s: thread %s, which queued %s, got the lock first", qPrintable(version),
            qPrintable(firstThread), first == b ? "first" : "second");
    }

    // tryLock() with no wait time answers false at once and subscribes to nothing; with a budget it answers false
    // once the budget is spent, and true when a release comes within it.
    void tryLockSpendsItsBudget_data() { redissonVersionRows(); }
    void tryLockSpendsItsBudget()
    {
        QFETCH(QString, version);
        RedissonJvm holder, other;
        QVERIFY(holder.start(version, m_server.url()));
        QVERIFY(other.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("claim-trylock");
        QVERIFY(holder.call(redissonCall(QStringLiteral("lock"), QStringLiteral("h"), {}, name, lease(kLongLeaseMs)))
                    .value(QStringLiteral("ok"))
                    .toBool());

        const qint64 subscribesBefore = calls(raw, "subscribe") + calls(raw, "ssubscribe");
        const QJsonObject once = other.call(redissonCall(QStringLiteral("tryLock"), QStringLiteral("t"), {}, name,
            { { QStringLiteral("wait"), 0 }, { QStringLiteral("lease"), kLongLeaseMs } }));
        QCOMPARE(once.value(QStringLiteral("value")).toBool(), false);
        QCOMPARE(calls(raw, "subscribe") + calls(raw, "ssubscribe"), subscribesBefore);

        // A one-second budget against a ten-minute lease: false, long before the lease.
        const QJsonObject spent = other.call(redissonCall(QStringLiteral("tryLock"), QStringLiteral("t"), {}, name,
            { { QStringLiteral("wait"), 1000 }, { QStringLiteral("lease"), kLongLeaseMs } }));
        QVERIFY2(spent.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(spent).toJson()));
        QCOMPARE(spent.value(QStringLiteral("value")).toBool(), false);

        // A budget of a minute, and a release within it: true, woken by the release. Once the spent try's own
        // UNSUBSCRIBE is through: a SUBSCRIBE of the next try crossing it left that try without a subscription once
        // (Redisson 3.52.0), to sleep out the holder's ten minutes.
        QTRY_VERIFY_WITH_TIMEOUT(!someoneWaitsOn(raw, name), 30000);
        const int waiting = other.send(redissonCall(QStringLiteral("tryLock"), QStringLiteral("t"), {}, name,
            { { QStringLiteral("wait"), 60000 }, { QStringLiteral("lease"), kLongLeaseMs } }));
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsOn(raw, name), 30000);
        QVERIFY(holder.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("h"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        const std::optional<QJsonObject> got = other.reply(waiting, 60000);
        QVERIFY(got && got->value(QStringLiteral("value")).toBool());
        QVERIFY(other.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("t"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
    }

    // One level of a reentered lock given back: since 3.24 the script sets an unlock latch and the client deletes it
    // with a DEL of its own; before, the script writes no latch and the client sends no DEL. 3.52.0 to 4.2.0 send
    // that DEL for the wrong name (the client's id where the request id belongs), and the latch lives its lifetime.
    // What ran is read from the server's MONITOR log: the script's SET and the client's DEL, each with its key.
    void unlockLatchFromVersion324_data() { redissonVersionRows(); }
    void unlockLatchFromVersion324()
    {
        QFETCH(QString, version);
        const QVersionNumber n = QVersionNumber::fromString(version);
        const bool latched = n >= QVersionNumber(3, 24, 0);
        const bool wrongDel = n >= QVersionNumber(3, 52, 0) && n < QVersionNumber(4, 3, 0);
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("claim-latch");
        QByteArray owner;
        for (int level = 0; level < 2; ++level) {
            const QJsonObject held
                = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name, lease(kLongLeaseMs)));
            QVERIFY(held.value(QStringLiteral("ok")).toBool());
            owner = held.value(QStringLiteral("owner")).toString().toUtf8();
        }
        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        // Count 2 to 1: the script deletes nothing of the lock's own.
        QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        const QByteArray latchPrefix = "redisson_unlock_latch:{" + name + "}:";
        const auto sets = [&](const QList<QPair<quint16, QByteArray>> &lines, const char *command) {
            QByteArrayList keys;
            // A script's own calls come from "lua" (port 0, as the marks, whose lines have no quotes).
            for (const auto &[port, line] : lines) {
                const QByteArray head = QByteArray("\"") + command + "\" \"";
                if (line.startsWith(head))
                    keys << line.mid(head.size(), line.indexOf('"', head.size()) - head.size());
            }
            return keys;
        };
        QByteArrayList set, deleted;
        // The client's DEL may follow its unlock's reply by a moment: read the log until it shows (or, before 3.24,
        // until the unlock's own script has been logged, which no DEL can follow).
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
            const QList<QPair<quint16, QByteArray>> lines = log.readUntil("round");
            set += sets(lines, "set");
            set += sets(lines, "SET");
            deleted += sets(lines, "DEL");
            deleted += sets(lines, "del");
            return !latched || !deleted.isEmpty();
        }()),
            30000);
        if (!latched) {
            QVERIFY2(set.isEmpty(), set.join(' ').constData());
            QVERIFY2(deleted.isEmpty(), deleted.join(' ').constData());
        } else {
            QCOMPARE(set.size(), 1);
            QVERIFY2(set.first().startsWith(latchPrefix), set.first().constData());
            QCOMPARE(deleted.size(), 1);
            const QByteArray clientId = owner.left(owner.lastIndexOf(':'));
            QCOMPARE(deleted.first(), wrongDel ? latchPrefix + clientId : set.first());
            // The real latch: gone at once where the DEL names it, still there (for its lifetime) where it does not.
            QCOMPARE(raw.command({ "EXISTS", set.first() }).toInteger(), qint64(wrongDel ? 1 : 0));
        }
        QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
    }

    // G03's version claim: a lock taken three times with a fixed lease of two minutes, then given back level by
    // level. Each partial unlock restarts the TTL at the lease the lock was taken with, except on the versions the
    // narration names, which forget that lease after the first unlock: the second restarts the TTL at the watchdog
    // timeout (30 s). Both sides of both boundaries are checked (claims.txt).
    void partialUnlockRestartsTheFixedLease_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString &v : pinnedRedissonVersions() + claimRedissonVersions())
            QTest::newRow(qPrintable(v)) << v;
    }
    void partialUnlockRestartsTheFixedLease()
    {
        QFETCH(QString, version);
        const QVersionNumber n = QVersionNumber::fromString(version);
        const bool forgets = n >= QVersionNumber(3, 19, 2) && n <= QVersionNumber(3, 27, 1);
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url())); // the watchdog timeout at Redisson's 30 s
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("claim-g03");
        const qint64 leaseMs = 120000;
        for (int level = 0; level < 3; ++level)
            QVERIFY(java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name, lease(leaseMs)))
                        .value(QStringLiteral("ok"))
                        .toBool());
        QList<qint64> ttls; // after each partial unlock
        for (int level = 0; level < 2; ++level) {
            QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))
                        .value(QStringLiteral("ok"))
                        .toBool());
            ttls << raw.pttl(name);
        }
        qInfo("Redisson %s: TTL after the partial unlocks: %lld ms, %lld ms", qPrintable(version), ttls.at(0),
            ttls.at(1));
        // 30 s against two minutes: a minute and a half apart, whatever the machine's pace.
        QVERIFY2(ttls.at(0) > 60000, qPrintable(QString::number(ttls.at(0))));
        if (forgets)
            QVERIFY2(ttls.at(1) > 0 && ttls.at(1) <= 30000, qPrintable(QString::number(ttls.at(1))));
        else
            QVERIFY2(ttls.at(1) > 60000, qPrintable(QString::number(ttls.at(1))));
        QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());
        QCOMPARE(raw.command({ "EXISTS", name }).toInteger(), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestRedissonClaims)
#include "tst_redissonclaims.moc"
