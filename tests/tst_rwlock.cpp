// The read-write lock (docs/protocol/readwrite.md) on a real server, checked through an independent raw client:
// the hash with its mode, reader and ":write" fields, each read hold's rwlock_timeout key, and "0"/"1" on
// redisson_rwlock:{N}.
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest rw(const QByteArray &name, LockMode kind, QByteArray token, qint64 waitMs = 0, qint64 leaseMs = 30000)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.token = std::move(token);
    r.waitMs = waitMs;
    r.leaseMs = leaseMs;
    return r;
}

// The test's own ears on the read-write channel.
struct Ears : RawSubscriber
{
    Ears(quint16 port, const QByteArray &name)
        : RawSubscriber(port, LockNames::rwChannel(name))
    { }
};

QByteArray timeoutKey(const QByteArray &name, const QByteArray &field, int k)
{
    return "{" + name + "}:" + field + ":rwlock_timeout:" + QByteArray::number(k);
}
} // namespace

class TestRwLock : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    ConnectionOptions m_options;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_options = ConnectionOptions::fromUrl(m_server.url());
    }

    void readersShareAndWritersWait()
    {
        LockClient a(m_options), b(m_options), c(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-read");
        Ears ears(m_server.port(), name);

        const AcquireResult ra = acquire(a, rw(name, LockMode::Read, "1"));
        const AcquireResult rb = acquire(b, rw(name, LockMode::Read, "1"));
        QVERIFY(ra.acquired && rb.acquired);
        QVERIFY(acquire(a, rw(name, LockMode::Read, "1")).acquired); // reentrant read
        QCOMPARE(raw.hgetall(name),
            (QMap<QByteArray, QByteArray> { { "mode", "read" }, { ra.owner, "2" }, { rb.owner, "1" } }));
        QVERIFY(raw.pttl(timeoutKey(name, ra.owner, 1)) > 0);
        QVERIFY(raw.pttl(timeoutKey(name, ra.owner, 2)) > 0);
        QVERIFY(raw.pttl(timeoutKey(name, rb.owner, 1)) > 0);

        // A writer is kept out while anyone reads.
        const AcquireResult w = acquire(c, rw(name, LockMode::Write, "1"));
        QVERIFY(!w.acquired);
        QVERIFY(w.ttlMs > 0);
        QCOMPARE(w.owner, c.ownerField("1") + ":write");

        // Someone who does not read cannot release a read hold.
        QCOMPARE(release(c, name, c.ownerField("1"), LockMode::Read).outcome, ReleaseResult::Outcome::NotHeld);

        QCOMPARE(release(a, name, ra.owner, LockMode::Read).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(raw.type(timeoutKey(name, ra.owner, 2)), "none");
        QCOMPARE(release(a, name, ra.owner, LockMode::Read).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(ears.next(), "none");
        QCOMPARE(release(b, name, rb.owner, LockMode::Read).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:0");
    }

    void writerExcludesReadersAndDowngrades()
    {
        LockClient w(m_options), r(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-write");
        Ears ears(m_server.port(), name);

        const AcquireResult first = acquire(w, rw(name, LockMode::Write, "7", 0, 10000));
        QVERIFY(first.acquired);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { "mode", "write" }, { first.owner, "1" } }));
        // Write reentry adds the lease to the remaining TTL.
        QVERIFY(acquire(w, rw(name, LockMode::Write, "7", 0, 10000)).acquired);
        QVERIFY(raw.pttl(name) > 10000);
        QVERIFY(!acquire(r, rw(name, LockMode::Read, "1")).acquired);
        QVERIFY(!acquire(r, rw(name, LockMode::Write, "1")).acquired);
        QCOMPARE(
            release(r, name, r.ownerField("1") + ":write", LockMode::Write).outcome, ReleaseResult::Outcome::NotHeld);

        // The writer may read too (downgrade); its last write release leaves the lock in read mode, silently.
        const AcquireResult readToo = acquire(w, rw(name, LockMode::Read, "7"));
        QVERIFY(readToo.acquired);
        QCOMPARE(release(w, name, first.owner, LockMode::Write).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(release(w, name, first.owner, LockMode::Write).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { "mode", "read" }, { readToo.owner, "1" } }));
        QCOMPARE(ears.next(), "none");
        QVERIFY(acquire(r, rw(name, LockMode::Read, "1")).acquired); // readers are welcome again
        QCOMPARE(release(r, name, r.ownerField("1"), LockMode::Read).outcome, ReleaseResult::Outcome::StillHeld);
        QCOMPARE(release(w, name, readToo.owner, LockMode::Read).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(ears.next(), "message:0");

        // A last write release with nothing else in the hash publishes "1": every waiter wakes.
        const AcquireResult again = acquire(w, rw(name, LockMode::Write, "7"));
        QCOMPARE(release(w, name, again.owner, LockMode::Write).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:1");
    }

    void waitersWakeOnTheRightMessages()
    {
        LockClient writer(m_options), readers(m_options), other(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-wait");
        const AcquireResult held = acquire(writer, rw(name, LockMode::Write, "1", 0, 60000));
        QVERIFY(held.acquired);
        // Two readers of one client wait on one subscription; the write release's "1" must wake both.
        QList<AcquireResult> got;
        for (const QByteArray &token : { QByteArray("11"), QByteArray("12") })
            readers.acquire(rw(name, LockMode::Read, token, 60000), [&](const AcquireResult &r) { got << r; });
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::rwChannel(name) }).at(1).toInteger(), 1);
        QCOMPARE(release(writer, name, held.owner, LockMode::Write).outcome, ReleaseResult::Outcome::Released);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 20000);
        QVERIFY(got.at(0).acquired && got.at(1).acquired);

        // A writer waits for the readers; the last read release's "0" wakes it, long before any lease runs out.
        std::optional<AcquireResult> w;
        other.acquire(rw(name, LockMode::Write, "5", 60000), [&](const AcquireResult &r) { w = r; });
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", LockNames::rwChannel(name) }).at(1).toInteger(), 1);
        QCOMPARE(release(readers, name, got.at(0).owner, LockMode::Read).outcome, ReleaseResult::Outcome::StillHeld);
        QVERIFY(!w.has_value());
        QCOMPARE(release(readers, name, got.at(1).owner, LockMode::Read).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY_WITH_TIMEOUT(w.has_value(), 20000);
        QVERIFY(w->acquired);
    }

    void deadReaderDoesNotKeepTheLock()
    {
        // A Java reader that crashed: its field is still in the hash, its timeout key has expired.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-dead");
        const QByteArray dead = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:99";
        raw.command({ "HSET", name, "mode", "read", dead, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        LockClient client(m_options);
        const AcquireResult live = acquire(client, rw(name, LockMode::Read, "1"));
        QVERIFY(live.acquired);
        Ears ears(m_server.port(), name);
        // The live reader's release finds only dead readers left: the lock goes, and waiters hear "0".
        QCOMPARE(release(client, name, live.owner, LockMode::Read).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:0");
    }

    void forceReleaseWakesByMode()
    {
        LockClient client(m_options), support(m_options);
        const QByteArray name = uniqueKey("rw-force");
        Ears ears(m_server.port(), name);
        QVERIFY(acquire(client, rw(name, LockMode::Read, "1")).acquired);
        auto force = [&] {
            return await<ForceReleaseResult>(
                [&](auto d) { support.forceRelease(name, ForceGuard {}, d, LockMode::Read); });
        };
        QVERIFY(force().deleted);
        QCOMPARE(ears.next(), "message:0");
        QVERIFY(acquire(client, rw(name, LockMode::Write, "1")).acquired);
        QVERIFY(force().deleted);
        QCOMPARE(ears.next(), "message:1");
        QVERIFY(!force().deleted);
        QCOMPARE(ears.next(), "none");
    }

    void cliHandlesReadWriteLocks()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-cli");
        const QStringList url { QStringLiteral("--url"), m_server.url() };
        // Every run through clirun.h: a crash, a hang or a sanitizer's report fails the test.
        const QTemporaryDir dir; // the CLI's audit log
        // Two readers at once, each in its own process.
        QProcess r1, r2;
        for (QProcess *p : { &r1, &r2 }) {
            startCli(*p,
                QStringList { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--kind"),
                    QStringLiteral("read"), QStringLiteral("--json") }
                    + url,
                dir);
            QTRY_VERIFY_WITH_TIMEOUT(p->canReadLine(), 10000);
            QVERIFY(p->readLine().contains("\"acquired\""));
        }
        QCOMPARE(raw.hgetall(name).value("mode"), "read");
        QCOMPARE(raw.hgetall(name).size(), 3);
        // A writer is refused with exit code 1 while they read.
        const CliRun w = runCli(QStringList { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--kind"),
                                    QStringLiteral("write") }
                + url,
            dir);
        CLI_EXIT(w, CliExit::NotDone);
        QVERIFY2(w.err.contains("read mode"), w.describe().constData());
        for (QProcess *p : { &r1, &r2 }) {
            p->closeWriteChannel();
            CLI_EXIT(finishCli(*p, 10000), CliExit::Done);
        }
        QCOMPARE(raw.type(name), "none");

        // release on behalf of a Java writer, and force-release of a write-mode lock, pick the read-write scripts.
        const QByteArray javaWriter = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:5:write";
        raw.command({ "HSET", name, "mode", "write", javaWriter, "2" });
        raw.command({ "PEXPIRE", name, "60000" });
        CLI_EXIT(runCli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                            QString::fromUtf8(javaWriter) }
                         + url,
                     dir),
            CliExit::Done);
        QCOMPARE(raw.hgetall(name).value(javaWriter), "1");
        Ears ears(m_server.port(), name);
        CLI_EXIT(
            runCli(
                QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") } + url,
                dir),
            CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(ears.next(), "message:1");
    }

    void guardedForceReleaseNeedsExactlyTheReadersSeen()
    {
        LockClient r1(m_options), r2(m_options), r3(m_options), support(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-guard");
        const AcquireResult a = acquire(r1, rw(name, LockMode::Read, "1"));
        const AcquireResult b = acquire(r2, rw(name, LockMode::Read, "1"));
        const QList<QByteArray> seen { a.owner, b.owner };
        // A third reader arrives after the look: the guard refuses, and names all three.
        const AcquireResult c = acquire(r3, rw(name, LockMode::Read, "1"));
        auto force = [&](const QList<QByteArray> &holders) {
            return await<ForceReleaseResult>(
                [&](auto d) { support.forceRelease(name, ForceGuard::exact(holders), d, LockMode::Read); });
        };
        ForceReleaseResult r = force(seen);
        QVERIFY(r.guardFailed);
        QCOMPARE(r.holdersNow.size(), 3);
        QVERIFY(r.holdersNow.contains(c.owner));
        QCOMPARE(raw.hgetall(name).size(), 4);
        r = force({ a.owner, b.owner, c.owner });
        QVERIFY(r.deleted);
        QCOMPARE(raw.type(name), "none");
    }

    void watchdogRenewsReadersTimeoutKeys()
    {
        // A lease that survives a renewal 6 s late (renewed every 3 s): a 3 s one, renewed every second, could run
        // out on a busy machine, and a check 500 ms after a renewal could miss its window.
        constexpr int kLeaseMs = 9000;
        LockClientOptions o;
        o.watchdogTimeoutMs = kLeaseMs;
        LockClient client(m_options, o);
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rw-watchdog");
        const AcquireResult r = acquire(client, rw(name, LockMode::Read, "1", 0, -1));
        QVERIFY(r.acquired && r.watchdog);
        const QByteArray key = timeoutKey(name, r.owner, 1);
        // A third of the reader's lease gone, made so rather than waited for: only a renewal lifts its timeout key
        // above that again, and without one it would run out before the hash.
        QCOMPARE(raw.command({ "PEXPIRE", key, QByteArray::number(kLeaseMs * 2 / 3) }).toInteger(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(renewed.size() >= 1, 4 * kLeaseMs);
        // The reader's own timeout key was renewed along with the hash.
        QVERIFY2(raw.pttl(key) > kLeaseMs * 2 / 3, qPrintable(QString::number(raw.pttl(key))));
        QTRY_VERIFY_WITH_TIMEOUT(renewed.size() >= 2, 4 * kLeaseMs);
        QVERIFY(raw.pttl(key) > 0);
        QVERIFY(raw.pttl(name) > 0);
    }
};

QTEST_GUILESS_MAIN(TestRwLock)
#include "tst_rwlock.moc"
