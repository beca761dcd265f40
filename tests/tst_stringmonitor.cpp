// The monitor's string kind against a real server, once with keyspace notifications on and once with them off:
// plain SET NX PX locks are found and classified only inside the string lock patterns; acquisition, renewal,
// release and expiry are seen live; a token overwritten without a release warns of a double holder; the CLI's
// list and show report kind "string" and honour --string-locks.
#include "clirun.h"
#include "kinds/lockclassifier.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;
using Type = LockEvent::Type;

class TestStringMonitor : public QObject
{
    Q_OBJECT
    RedisServer m_quiet;
    RedisServer m_notifying { RedisServerOptions {
        QStringList { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };

    RedisServer &server(bool keyspace) { return keyspace ? m_notifying : m_quiet; }

    // Both outputs of the CLI; a crash or a hang fails the test (clirun.h) and gives exit code -1.
    QByteArray cli(const QStringList &args, int *exitCode = nullptr)
    {
        const CliRun r = runCli(args + QStringList { QStringLiteral("--url"), m_quiet.url() }, m_dir);
        if (exitCode)
            *exitCode = r.exitCode;
        return r.out + r.err;
    }
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_quiet.start(&error), qPrintable(error));
        QVERIFY2(m_notifying.start(&error), qPrintable(error));
    }

    void modes_data()
    {
        QTest::addColumn<bool>("keyspace");
        QTest::newRow("keyspace events") << true;
        QTest::newRow("polling") << false;
    }

    void foundOnlyInsidePatterns_data() { modes_data(); }
    void foundOnlyInsidePatterns()
    {
        QFETCH(bool, keyspace);
        const QByteArray p = uniqueKey("found") + "-";
        RawRedis raw(server(keyspace).port());
        raw.command({ "SET", "lock:" + p + "a", "tok-a", "NX", "PX", "60000" });
        raw.command({ "SET", "mutex:" + p + "b", "tok-b", "NX", "PX", "60000" });
        raw.command({ "SET", p + "c:lock", "tok-c", "NX", "PX", "60000" });
        raw.command({ "SET", "plain:" + p + "d", "tok-d", "NX", "PX", "60000" }); // outside every pattern
        raw.command({ "SET", "lock:" + p + "nottl", "tok-e" }); // no lease: a value, not a lock
        raw.command({ "SET", "lock:" + p + "big", QByteArray(kMaxStringToken + 1, 'x'), "PX", "60000" });
        raw.command({ "HSET", "lock:" + p + "hash", "field", "value" }); // user data in a hash
        raw.command({ "PEXPIRE", "lock:" + p + "hash", "60000" });
        // Counters (Redisson's semaphore permits, a count-down latch) are no locks, whatever their lease.
        raw.command({ "SET", "lock:" + p + "pool", "5", "PX", "60000" });
        raw.command({ "SET", "mutex:" + p + "latch", "0", "PX", "60000" });

        MonitorWatch w(ConnectionOptions::fromUrl(server(keyspace).url()), fastMonitorOptions("*" + p + "*"));
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 3);
        const LockRecord *a = w.monitor.record("lock:" + p + "a");
        QVERIFY(a && a->present);
        QCOMPARE(a->info.kind, LockInfo::Kind::String);
        QCOMPARE(a->info.holders.size(), 1);
        QCOMPARE(a->info.holders.first().owner, QByteArray("tok-a"));
        QVERIFY(a->deadlineMs > 0); // counts down from its lease
        QVERIFY(w.monitor.record("mutex:" + p + "b"));
        QVERIFY(w.monitor.record(p + "c:lock"));
        QVERIFY(!w.monitor.record("plain:" + p + "d"));
        QVERIFY(!w.monitor.record("lock:" + p + "pool"));
        QVERIFY(!w.monitor.record("mutex:" + p + "latch"));

        // A string lock taken after the snapshot appears without a restart; one outside the patterns never does.
        raw.command({ "SET", "plain:" + p + "late", "tok", "NX", "PX", "60000" });
        raw.command({ "SET", "lock:" + p + "late", "tok-late", "NX", "PX", "60000" });
        QVERIFY(w.waitFor(Type::Acquired, "lock:" + p + "late"));
        QCOMPARE(w.events.last().owner, QByteArray("tok-late"));
        QCOMPARE(w.monitor.lockCount(), 4);
        QVERIFY(!w.monitor.record("plain:" + p + "late"));
        // A counter that changes (a permit taken) is still no lock.
        raw.command({ "DECR", "lock:" + p + "pool" });
        raw.command({ "SET", "lock:" + p + "later", "tok-later", "NX", "PX", "60000" });
        QVERIFY(w.waitFor(Type::Acquired, "lock:" + p + "later"));
        QVERIFY(!w.monitor.record("lock:" + p + "pool"));
    }

    void configuredPatternsReplaceTheDefaults()
    {
        const QByteArray p = uniqueKey("patterns") + "-";
        RawRedis raw(m_quiet.port());
        raw.command({ "SET", "lock:" + p + "a", "tok-a", "NX", "PX", "60000" });
        raw.command({ "SET", "job:" + p + "b", "tok-b", "NX", "PX", "60000" });
        LockMonitor::Options o = fastMonitorOptions("*" + p + "*");
        o.stringPatterns = StringLockPatterns({ "job:*" });
        MonitorWatch custom(ConnectionOptions::fromUrl(m_quiet.url()), o);
        QVERIFY(custom.start());
        QCOMPARE(custom.monitor.lockNames(), QList<QByteArray> { "job:" + p + "b" });
        o.stringPatterns = StringLockPatterns();
        MonitorWatch none(ConnectionOptions::fromUrl(m_quiet.url()), o);
        QVERIFY(none.start());
        QCOMPARE(none.monitor.lockCount(), 0);
    }

    void lifecycleSeenLive_data() { modes_data(); }
    void lifecycleSeenLive()
    {
        QFETCH(bool, keyspace);
        const QByteArray name = "lock:" + uniqueKey("life");
        RawRedis raw(server(keyspace).port());
        MonitorWatch w(ConnectionOptions::fromUrl(server(keyspace).url()), fastMonitorOptions(name));
        QVERIFY(w.start());

        // Leases far above any latency: a hold ends only when the test ends it.
        QCOMPARE(raw.command({ "SET", name, "tok-1", "NX", "PX", "60000" }).bytes(), "OK");
        QVERIFY(w.waitFor(Type::Acquired, name));
        // A renewal: the lease starts again.
        QCOMPARE(raw.command({ "PEXPIRE", name, "600000" }).toInteger(), qint64(1));
        QVERIFY(w.waitFor(Type::Renewed, name));
        QCOMPARE(raw.command({ "DEL", name }).toInteger(), qint64(1));
        QVERIFY(w.waitFor(Type::Released, name));
        QTRY_VERIFY(!w.monitor.record(name)->present);

        // A lease that runs out is an expiry, and the next holder follows a hold that ended without a release.
        // The lease runs out only once the monitor has seen the hold and the deadline it ends at: without keyspace
        // events the monitor can only tell an expiry from a release by the key going at that deadline (within its
        // tolerance, a twentieth of the lease), so the lease is shortened to well inside that, then ended.
        const int from = int(w.events.size());
        QCOMPARE(raw.command({ "SET", name, "tok-2", "NX", "PX", "600000" }).bytes(), "OK");
        QVERIFY(w.waitFor(Type::Acquired, name, from));
        QCOMPARE(raw.command({ "PEXPIRE", name, "20000" }).toInteger(), qint64(1));
        QTRY_VERIFY_WITH_TIMEOUT(w.monitor.record(name)->deadlineMs - monotonicMs() <= 20000, 30000);
        QCOMPARE(raw.command({ "PEXPIRE", name, "1" }).toInteger(), qint64(1));
        QVERIFY(w.waitFor(Type::Expired, name, from));
        QCOMPARE(raw.command({ "SET", name, "tok-3", "NX", "PX", "30000" }).bytes(), "OK");
        QVERIFY(w.waitFor(Type::OwnerChanged, name, from));
        const LockRecord *r = w.monitor.record(name);
        QTRY_COMPARE(r->info.holders.value(0).owner, QByteArray("tok-3"));
        QVERIFY(!r->warnings().isEmpty());
        QVERIFY(w.find(Type::ForceReleased, name) < 0); // a string lock's release is a delete
    }

    // ShedLock's unlock of a job that ended before lockAtLeastFor keeps the key for the rest of it (SET value XX PX):
    // the key's expiry after that is the hold's clean end, a release, not a lease that ran out (issue 47: the demo's
    // nightly job counted an expiry every run). A ShedLock hold whose TTL nobody cut short still expires.
    void shedLockCoolDownIsARelease()
    {
        const QByteArray name = "job-lock:default:" + uniqueKey("nightly");
        const QByteArray token = "ADDED:2026-11-29T01:25:00.000Z@scheduler-1";
        RawRedis raw(m_notifying.port());
        MonitorWatch w(ConnectionOptions::fromUrl(m_notifying.url()), fastMonitorOptions(name));
        QVERIFY(w.start());
        QCOMPARE(raw.command({ "SET", name, token, "NX", "PX", "600000" }).bytes(), "OK");
        QVERIFY(w.waitFor(Type::Acquired, name));
        QTRY_COMPARE(w.monitor.record(name)->info.library, QByteArray("shedlock"));
        // The job is done: the rest of lockAtLeastFor, seen by the monitor before it runs out.
        QCOMPARE(raw.command({ "SET", name, token, "XX", "PX", "20000" }).bytes(), "OK");
        QTRY_VERIFY_WITH_TIMEOUT(w.monitor.record(name)->ttlCutShort, 30000);
        QCOMPARE(raw.command({ "PEXPIRE", name, "1" }).toInteger(), qint64(1));
        QVERIFY(w.waitFor(Type::Released, name));
        QVERIFY(w.find(Type::Expired, name) < 0);

        // Held until its lockAtMostFor runs out (no unlock cut it short): an expiry. A lease meant to run out, long
        // enough for the monitor to read the hold first.
        const int from = int(w.events.size());
        QCOMPARE(raw.command({ "SET", name, token, "NX", "PX", "5000" }).bytes(), "OK");
        QVERIFY(w.waitFor(Type::Acquired, name, from));
        QVERIFY(w.waitFor(Type::Expired, name, from));
        QVERIFY(w.find(Type::Released, name, from) < 0);
    }

    // With keyspace events, a token overwritten under a live hold (no delete, no expiry) is an owner change without a
    // release: a possible double holder.
    void overwriteWithoutReleaseWarns()
    {
        const QByteArray name = "mutex:" + uniqueKey("overwrite");
        RawRedis raw(m_notifying.port());
        MonitorWatch w(ConnectionOptions::fromUrl(m_notifying.url()), fastMonitorOptions(name));
        QVERIFY(w.start());
        raw.command({ "SET", name, "first", "NX", "PX", "30000" });
        QVERIFY(w.waitFor(Type::Acquired, name));
        raw.command({ "SET", name, "second", "PX", "30000" });
        QVERIFY(w.waitFor(Type::OwnerChanged, name));
        const LockEvent &e = w.events.at(w.find(Type::OwnerChanged, name));
        QCOMPARE(e.owner, QByteArray("second"));
        QCOMPARE(e.previousOwner, QByteArray("first"));
        QVERIFY(w.find(Type::Released, name) < 0);
        QVERIFY(!w.monitor.record(name)->warnings().isEmpty());
    }

    // Our own client's watchdog renews at lease/3: the monitor sees the renewals and guesses a watchdog.
    void watchdogRenewalsAndReleaseSeen()
    {
        const QByteArray name = "lock:" + uniqueKey("watchdog");
        MonitorWatch w(ConnectionOptions::fromUrl(m_notifying.url()), fastMonitorOptions(name));
        QVERIFY(w.start());
        // Renewed every 3 s: a renewal would have to be 6 s late for the hold to be lost on a busy machine.
        LockClientOptions options;
        options.watchdogTimeoutMs = 9000;
        LockClient client(ConnectionOptions::fromUrl(m_notifying.url()), options);
        AcquireRequest request;
        request.name = name;
        request.kind = LockMode::String;
        const AcquireResult a = await<AcquireResult>([&](auto done) { client.acquire(request, done); });
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QVERIFY(w.waitFor(Type::Acquired, name));
        QCOMPARE(w.events.last().owner, a.owner);
        QVERIFY(w.waitFor(Type::Renewed, name, 0, 30000));
        QTRY_COMPARE_WITH_TIMEOUT(w.monitor.record(name)->watchdog, WatchdogGuess::Likely, 30000);
        const ReleaseResult r
            = await<ReleaseResult>([&](auto done) { client.release(name, a.owner, done, LockMode::String); });
        QVERIFY(!r.error.isError() && r.outcome == ReleaseResult::Outcome::Released);
        QVERIFY(w.waitFor(Type::Released, name));
    }

    void cliListAndShow()
    {
        const QByteArray p = uniqueKey("cli") + "-";
        RawRedis raw(m_quiet.port());
        raw.command({ "SET", "lock:" + p + "a", "tok-a", "NX", "PX", "60000" });
        raw.command({ "SET", "job:" + p + "b", "tok-b", "NX", "PX", "60000" });
        const QString pattern = QStringLiteral("*%1*").arg(QString::fromUtf8(p));

        int code = -1;
        QJsonArray all = QJsonDocument::fromJson(
            cli({ QStringLiteral("list"), QStringLiteral("--pattern"), pattern, QStringLiteral("--json") }, &code))
                             .array();
        QCOMPARE(code, 0);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.at(0)[QLatin1String("kind")].toString(), QStringLiteral("string"));
        QCOMPARE(all.at(0)[QLatin1String("holders")][0][QLatin1String("owner")].toString(), QStringLiteral("tok-a"));

        all = QJsonDocument::fromJson(
            cli({ QStringLiteral("list"), QStringLiteral("--pattern"), pattern, QStringLiteral("--string-locks"),
                QStringLiteral("job:*"), QStringLiteral("--json") }))
                  .array();
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.at(0)[QLatin1String("name")].toString(), QString::fromUtf8("job:" + p + "b"));
        all = QJsonDocument::fromJson(cli({ QStringLiteral("list"), QStringLiteral("--pattern"), pattern,
                                          QStringLiteral("--no-string-locks"), QStringLiteral("--json") }))
                  .array();
        QCOMPARE(all.size(), 0);

        const QJsonObject shown = QJsonDocument::fromJson(
            cli({ QStringLiteral("show"), QString::fromUtf8("lock:" + p + "a"), QStringLiteral("--json") }, &code))
                                      .object();
        QCOMPARE(code, 0);
        QCOMPARE(shown[QLatin1String("kind")].toString(), QStringLiteral("string"));
        QVERIFY(shown[QLatin1String("ttl_ms")].toInteger() > 0);
        // Outside the patterns: said so, and nothing to show.
        const QByteArray outside = cli({ QStringLiteral("show"), QString::fromUtf8("job:" + p + "b") }, &code);
        QCOMPARE(code, 1);
        QVERIFY2(outside.contains("--string-locks"), outside.constData());
    }
};

QTEST_GUILESS_MAIN(TestStringMonitor)
#include "tst_stringmonitor.moc"
