// The classic single-key lock (SET key token NX PX, compare-and-delete release), as redlock and redis-semaphore's
// mutex take it, against a real server: raw clients and ours exclude each other, a release never deletes a lock
// whose token changed, a guarded force release refuses after a change, and the watchdog renews and reports a loss.
#include "clirun.h"
#include "kinds/forceguard.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// The string kind through the one lock client every kind uses. leaseMs <= 0: the watchdog's lease.
AcquireResult acquireString(LockClient &client, const QByteArray &name, qint64 leaseMs, const QByteArray &token = {})
{
    AcquireRequest request;
    request.name = name;
    request.token = token;
    request.leaseMs = leaseMs;
    request.kind = LockMode::String;
    return await<AcquireResult>([&](auto done) { client.acquire(request, done); });
}

ReleaseResult releaseString(LockClient &client, const QByteArray &name, const QByteArray &token)
{
    return await<ReleaseResult>([&](auto done) { client.release(name, token, done, LockMode::String); });
}

bool released(const ReleaseResult &r)
{
    return !r.error.isError() && r.outcome == ReleaseResult::Outcome::Released;
}

ForceReleaseResult forceReleaseString(LockClient &client, const QByteArray &name, const QByteArray &token)
{
    return await<ForceReleaseResult>(
        [&](auto done) { client.forceRelease(name, ForceGuard::exact({ token }), done, LockMode::String); });
}

bool isHeld(const LockClient &client, const QByteArray &name)
{
    const QList<HoldEvent> holds = client.holds();
    return std::any_of(holds.cbegin(), holds.cend(), [&](const HoldEvent &h) { return h.name == name; });
}
} // namespace

class TestStringLocks : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    ConnectionOptions m_options;
    QTemporaryDir m_dir;

    void startCli(QProcess &p, const QStringList &args) const
    {
        Test::startCli(p, args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }

    static QJsonObject json(const QByteArray &line) { return QJsonDocument::fromJson(line).object(); }

    // SET commands the server has run (INFO commandstats): every try of a string lock is one.
    static qint64 setCalls(RawRedis &raw)
    {
        const QByteArray info = raw.command({ "INFO", "commandstats" }).bytes();
        const qsizetype at = info.indexOf("cmdstat_set:calls=");
        if (at < 0)
            return 0;
        const qsizetype from = at + qsizetype(qstrlen("cmdstat_set:calls="));
        return info.mid(from, info.indexOf(',', from) - from).toLongLong();
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_options = ConnectionOptions::fromUrl(m_server.url());
    }

    void acquireSetsAFreshTokenWithItsLease()
    {
        LockClient client(m_options);
        LockClient other(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("set");
        const AcquireResult a = acquireString(client, name, 10000);
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(raw.get(name), a.owner);
        QVERIFY(raw.pttl(name) > 0 && raw.pttl(name) <= 10000);
        // Every holder draws its own token (its client id and thread, as every kind's owner).
        QVERIFY(released(releaseString(client, name, a.owner)));
        const AcquireResult b = acquireString(other, name, 10000);
        QVERIFY(b.acquired);
        QVERIFY(b.owner != a.owner);
        QVERIFY(released(releaseString(other, name, b.owner)));
        QCOMPARE(raw.type(name), "none");
    }

    void ourLockAndARawSetNxExcludeEachOther()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "mutex:" + uniqueKey("interop");
        const AcquireResult ours = acquireString(client, name, 30000);
        QVERIFY(ours.acquired);
        QVERIFY(raw.command({ "SET", name, "their-token", "NX", "PX", "5000" }).isNil());
        QVERIFY(released(releaseString(client, name, ours.owner)));
        QCOMPARE(raw.command({ "SET", name, "their-token", "NX", "PX", "60000" }).bytes(), "OK");
        // Theirs now: we do not get it, and are told who holds it and for how long.
        const AcquireResult refused = acquireString(client, name, 30000);
        QVERIFY(!refused.acquired);
        QVERIFY(!refused.error.isError());
        QCOMPARE(refused.holderNow, "their-token");
        QVERIFY(refused.ttlMs > 50000);
        QCOMPARE(raw.get(name), "their-token");
    }

    void releaseNeverDeletesALockWhoseTokenChanged()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("changed");
        const AcquireResult a = acquireString(client, name, 30000);
        QVERIFY(a.acquired);
        // Our lease ran out and someone else took it (simulated by overwriting).
        raw.command({ "SET", name, "someone-else", "PX", "60000" });
        const ReleaseResult r = releaseString(client, name, a.owner);
        QVERIFY(!released(r));
        QVERIFY(!r.error.isError());
        QCOMPARE(r.holderNow, "someone-else");
        QCOMPARE(raw.get(name), "someone-else");
        QVERIFY(!isHeld(client, name));
        // Releasing what is no longer there changes nothing either.
        raw.command({ "DEL", name });
        const ReleaseResult gone = releaseString(client, name, a.owner);
        QVERIFY(!released(gone));
        QVERIFY(gone.holderNow.isEmpty());
    }

    void guardedForceReleaseRefusesAfterTheTokenChanged()
    {
        LockClient support(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("force");
        raw.command({ "SET", name, "seen-token", "NX", "PX", "60000" });
        // The holder changed after the person looked: nothing is deleted, and the new token is named.
        raw.command({ "SET", name, "new-token", "PX", "60000" });
        const ForceReleaseResult refused = forceReleaseString(support, name, "seen-token");
        QVERIFY(!refused.deleted);
        QCOMPARE(refused.holdersNow, QList<QByteArray> { "new-token" });
        QCOMPARE(raw.get(name), "new-token");
        const ForceReleaseResult deleted = forceReleaseString(support, name, "new-token");
        QVERIFY(deleted.deleted);
        QCOMPARE(raw.type(name), "none");
    }

    void watchdogRenewsThenALostHoldIsReported()
    {
        LockClientOptions options;
        // Renewed every 2 s: a renewal would have to be 4 s late for the hold to end before the test ends it.
        options.watchdogTimeoutMs = 6000;
        LockClient client(m_options, options);
        RawRedis raw(m_server.port());
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QSignalSpy lost(&client, &LockClient::holdLost);
        const QByteArray name = "lock:" + uniqueKey("watchdog");
        const AcquireResult a = acquireString(client, name, 0);
        QVERIFY(a.acquired);
        QVERIFY(a.watchdog);
        // Renewed at a third of the lease: the key outlives its first lease several times over.
        QTRY_VERIFY_WITH_TIMEOUT(renewed.size() >= 4, 30000);
        QCOMPARE(raw.get(name), a.owner);
        QVERIFY(raw.pttl(name) > 0);
        QVERIFY(lost.isEmpty());
        // Watchdog off: the lease runs out, and the hold's end is reported.
        QVERIFY(client.setWatchdogEnabled(name, a.owner, false));
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 30000);
        QCOMPARE(lost.first().at(0).value<HoldEvent>().owner, a.owner);
        QCOMPARE(raw.type(name), "none");
        QVERIFY(!isHeld(client, name));
    }

    void readOnlyAndWrongTypesChangeNothing()
    {
        ConnectionOptions readOnly = m_options;
        readOnly.readOnly = true;
        LockClient monitor(readOnly);
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("ro");
        const AcquireResult a = acquireString(monitor, name, 10000);
        QCOMPARE(a.error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.type(name), "none");
        raw.command({ "SET", name, "t", "PX", "60000" });
        QCOMPARE(forceReleaseString(monitor, name, "t").error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.get(name), "t");

        // A Redisson hash under the name: a clear error, and the hash is left alone.
        LockClient writer(m_options);
        const QByteArray hash = "lock:" + uniqueKey("hash");
        raw.command({ "HSET", hash, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        const ReleaseResult r = releaseString(writer, hash, "t");
        QVERIFY(!released(r));
        QVERIFY2(r.error.message().contains(QLatin1String("not a string lock")), qPrintable(r.error.toString()));
        QCOMPARE(raw.type(hash), "hash");
        const AcquireResult taken = acquireString(writer, hash, 10000);
        QVERIFY(!taken.acquired);
        QCOMPARE(raw.type(hash), "hash");
    }

    // Issue 15 point 9: an integer under a string lock pattern is a counter (semaphore permits, a count-down
    // latch); no release or force release deletes it, whatever token is named.
    void countersAreNeverDeleted()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("pool");
        raw.command({ "SET", name, "5", "PX", "60000" });
        const ForceReleaseResult f = forceReleaseString(client, name, "5");
        QVERIFY(!f.deleted);
        QVERIFY2(f.error.message().contains(QLatin1String("not a lock")), qPrintable(f.error.toString()));
        QCOMPARE(raw.get(name), "5");
        const ReleaseResult r = releaseString(client, name, "5");
        QVERIFY(!released(r));
        QVERIFY(r.error.isError());
        QCOMPARE(raw.get(name), "5");
        QVERIFY(raw.command({ "PTTL", name }).toInteger() > 0); // its lease untouched too

        QProcess cli;
        startCli(cli, { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_REFUSED(finishCli(cli), CliExit::NotDone, "not a lock");
        QCOMPARE(raw.get(name), "5");
    }

    void cliLockBlocksARawSetNxUntilReleased()
    {
        RawRedis raw(m_server.port());
        const QString name = QStringLiteral("lock:") + uniqueName("cli");
        const QByteArray key = name.toUtf8();
        QProcess p;
        startCli(p,
            { QStringLiteral("lock"), name, QStringLiteral("--kind"), QStringLiteral("string"),
                QStringLiteral("--lease"), QStringLiteral("60000"), QStringLiteral("--json") });
        QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 10000);
        const QJsonObject acquired = json(p.readLine());
        QCOMPARE(acquired.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        const QByteArray token = acquired.value(QStringLiteral("owner")).toString().toUtf8();
        QCOMPARE(raw.get(key), token);
        QVERIFY(raw.command({ "SET", key, "raw-client", "NX", "PX", "5000" }).isNil());
        p.closeWriteChannel();
        const CliRun ended = finishCli(p);
        CLI_EXIT(ended, CliExit::Done);
        QCOMPARE(json(ended.out.trimmed().split('\n').last()).value(QStringLiteral("event")).toString(),
            QStringLiteral("released"));
        QCOMPARE(raw.command({ "SET", key, "raw-client", "NX", "PX", "5000" }).bytes(), "OK");
    }

    // Nobody listens for a string lock's release (its waiters retry on their own): the CLI must not claim it woke
    // anyone. (Under lock:* python-redis-lock's signal list is pushed, and named: tst_libraries.)
    void cliReleaseOfAStringLockClaimsNoWakeUp()
    {
        RawRedis raw(m_server.port());
        const QString name = QStringLiteral("mutex:") + uniqueName("cli-release");
        const QByteArray key = name.toUtf8();
        raw.command({ "SET", key, "held-token", "PX", "60000" });
        QProcess p;
        startCli(p, { QStringLiteral("release"), name, QStringLiteral("--owner"), QStringLiteral("held-token") });
        const CliRun r = finishCli(p);
        CLI_EXIT(r, CliExit::Done);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("no waiters to wake")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("waiters woken")), qPrintable(out));
        QCOMPARE(raw.type(key), "none");
    }

    void cliLockWaitsForARawHolder()
    {
        RawRedis raw(m_server.port());
        const QString name = QStringLiteral("mutex:") + uniqueName("cli-wait");
        const QByteArray key = name.toUtf8();
        raw.command({ "SET", key, "raw-holder", "NX", "PX", "60000" });
        const QStringList args { QStringLiteral("lock"), name, QStringLiteral("--kind"), QStringLiteral("string"),
            QStringLiteral("--hold"), QStringLiteral("0"), QStringLiteral("--json") };
        // Without --wait: one try, refused, and the holder's token is named.
        QProcess once;
        startCli(once, args);
        CLI_REFUSED(finishCli(once), CliExit::NotDone, "raw-holder"); // the holder's token is named
        // With --wait: it tries again until the raw holder lets go.
        // Its tries are seen on the server: the raw holder is let go only after at least two refused SET NX.
        const qint64 before = setCalls(raw);
        QProcess waiting;
        startCli(waiting, args + QStringList { QStringLiteral("--wait"), QStringLiteral("20000") });
        QTRY_VERIFY_WITH_TIMEOUT(setCalls(raw) >= before + 2, 10000);
        QCOMPARE(waiting.state(), QProcess::Running);
        raw.command({ "DEL", key });
        const CliRun waited = finishCli(waiting);
        CLI_EXIT(waited, CliExit::Done);
        const QList<QByteArray> lines = waited.out.trimmed().split('\n');
        QCOMPARE(json(lines.first()).value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));
        QCOMPARE(json(lines.last()).value(QStringLiteral("event")).toString(), QStringLiteral("released"));
        QCOMPARE(raw.type(key), "none");
    }

    void cliForceReleaseIsGuardedByTheTokenAndAudited()
    {
        RawRedis raw(m_server.port());
        const QString name = QStringLiteral("lock:") + uniqueName("cli-force");
        const QByteArray key = name.toUtf8();
        raw.command({ "SET", key, "stuck-token", "PX", "60000" });
        const QStringList base { QStringLiteral("force-release"), name, QStringLiteral("--yes") };
        QProcess wrong;
        startCli(wrong, base + QStringList { QStringLiteral("--expect-owner"), QStringLiteral("another-token") });
        CLI_REFUSED(finishCli(wrong), CliExit::NotDone, "another-token");
        QCOMPARE(raw.get(key), "stuck-token");
        QProcess right;
        startCli(right,
            base
                + QStringList {
                    QStringLiteral("--expect-owner"), QStringLiteral("stuck-token"), QStringLiteral("--json") });
        const CliRun done = finishCli(right);
        CLI_EXIT(done, CliExit::Done);
        const QJsonObject event = json(done.out.trimmed());
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("force-released"));
        QCOMPARE(event.value(QStringLiteral("owner")).toString(), QStringLiteral("stuck-token"));
        QCOMPARE(raw.type(key), "none");
        QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QList<QByteArray> records = audit.readAll().trimmed().split('\n');
        const QJsonObject refused = json(records.at(records.size() - 2));
        const QJsonObject deleted = json(records.last());
        QCOMPARE(refused.value(QStringLiteral("result")).toString(), QStringLiteral("unchanged"));
        // The one vocabulary the console writes too: a guard that failed, not "unchanged".
        QCOMPARE(refused.value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));
        QCOMPARE(refused.value(QStringLiteral("holders_now")).toArray(), QJsonArray { QStringLiteral("stuck-token") });
        QCOMPARE(deleted.value(QStringLiteral("kind")).toString(), QStringLiteral("string"));
        QCOMPARE(deleted.value(QStringLiteral("result")).toString(), QStringLiteral("deleted"));
        QCOMPARE(deleted.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
    }
};

QTEST_GUILESS_MAIN(TestStringLocks)
#include "tst_stringlocks.moc"
