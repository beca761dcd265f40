// serve-metrics' per-kind gauges (locks, held, waiters per kind and library) come from a tally the monitor keeps as
// its records change, not from a walk of every record at each scrape. Here the tally is held equal to such a walk (the
// code it replaced, kept below as the oracle) at every turn of the event loop and after every batch the monitor
// announces, through a scripted run of real changes on a real server: locks of several kinds and libraries acquired,
// re-entered, waited on (queued and subscribed), released, expired, force-released, a key changing type, vanished
// records forgotten, the monitor's connections killed, and the server restarted empty. Once with keyspace events, once
// with wake-up messages and re-scans.
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "stats/openmetrics.h"
#include "testutil.h"

#include <QTest>
#include <QTimer>

#include <map>

using namespace LockScope;
using namespace LockScope::Test;
using Type = LockEvent::Type;

namespace {

// The walk serve-metrics did at each scrape before the tally: the oracle.
QList<KindGauge> walkedGauges(const LockMonitor &monitor)
{
    std::map<std::pair<QByteArray, QByteArray>, KindGauge> byKind;
    for (const QByteArray &name : monitor.lockNames()) {
        const LockRecord *r = monitor.record(name);
        if (!r || !r->present)
            continue;
        const QByteArray kind = LockInfo::kindName(r->info.kind);
        KindGauge &g = byKind[{ kind, r->info.library }];
        g.kind = kind;
        g.library = r->info.library;
        ++g.locks;
        if (!r->info.holders.isEmpty())
            ++g.held;
        g.waiters += qMax<qint64>(qMax(r->info.waiters, 0), r->info.queue.size());
    }
    QList<KindGauge> all;
    for (const auto &[key, g] : byKind)
        all << g;
    return all;
}

QString describe(const QList<KindGauge> &gauges)
{
    QStringList parts;
    for (const KindGauge &g : gauges)
        parts << QStringLiteral("%1/%2: %3 locks, %4 held, %5 waiters")
                     .arg(QString::fromUtf8(g.kind), QString::fromUtf8(g.library))
                     .arg(g.locks)
                     .arg(g.held)
                     .arg(g.waiters);
    return parts.join(QStringLiteral("; "));
}

KindGauge gaugeOf(const QList<KindGauge> &gauges, const QByteArray &kind, const QByteArray &library)
{
    for (const KindGauge &g : gauges)
        if (g.kind == kind && g.library == library)
            return g;
    return {};
}

// Compares the tally with the walk after every batch the monitor announces and at every turn of the event loop (a
// scrape is such a turn), and keeps the first difference.
class GaugeCheck : public QObject
{
public:
    explicit GaugeCheck(const LockMonitor &monitor)
        : m_monitor(monitor)
    {
        connect(&monitor, &LockMonitor::locksChanged, this, [this] { check(QStringLiteral("locksChanged")); });
        connect(&monitor, &LockMonitor::eventsOccurred, this, [this] { check(QStringLiteral("eventsOccurred")); });
        m_timer.setInterval(0);
        connect(&m_timer, &QTimer::timeout, this, [this] { check(QStringLiteral("event loop")); });
        m_timer.start();
    }

    void check(const QString &where)
    {
        ++checks;
        const QString walked = describe(walkedGauges(m_monitor));
        const QString kept = describe(kindGauges(m_monitor));
        if (walked != kept && mismatch.isEmpty())
            mismatch
                = QStringLiteral("at %1 (check %2): walk {%3}, tally {%4}").arg(where).arg(checks).arg(walked, kept);
    }
    QList<KindGauge> walked() const { return walkedGauges(m_monitor); }

    qint64 checks = 0;
    QString mismatch;

private:
    const LockMonitor &m_monitor;
    QTimer m_timer;
};

AcquireRequest request(const QByteArray &name, LockMode kind = LockMode::Reentrant, QByteArray token = "1")
{
    AcquireRequest r;
    r.name = name;
    r.leaseMs = 60000; // no watchdog: what changes is what the script does
    r.kind = kind;
    r.token = std::move(token);
    return r;
}

} // namespace

class TestKindGauges : public QObject
{
    Q_OBJECT
    RedisServer m_quiet;
    RedisServer m_notifying { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };

    RedisServer &server(bool keyspace) { return keyspace ? m_notifying : m_quiet; }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_quiet.start(&error), qPrintable(error));
        QVERIFY2(m_notifying.start(&error), qPrintable(error));
    }

    void tallyEqualsTheWalk_data()
    {
        QTest::addColumn<bool>("keyspace");
        QTest::newRow("keyspace events") << true;
        QTest::newRow("pub/sub + polling") << false;
    }

    void tallyEqualsTheWalk()
    {
        QFETCH(bool, keyspace);
        RedisServer &redis = server(keyspace);
        const ConnectionOptions options = ConnectionOptions::fromUrl(redis.url());
        auto raw = std::make_unique<RawRedis>(redis.port());
        const QByteArray p = uniqueKey("kg");
        const QByteArray plain = p + ":plain", reentrant = p + ":re", readWrite = p + ":rw", fenced = p + ":fe",
                         fair = p + ":fa", str = "lock:" + p + ":str", mutex = "mutex:" + p + ":mx";
        LockClient a(options), b(options), c(options);

        // Found by the first pass: a Redisson lock and two string locks of other libraries.
        const AcquireResult plainHold = acquire(a, request(plain));
        QVERIFY(plainHold.acquired);
        QCOMPARE(raw->command({ "SET", str, LockNames::newClientId(), "NX", "PX", "60000" }).bytes(), "OK");
        QCOMPARE(raw->command({ "SET", mutex, "f00dfeed-token", "NX", "PX", "60000" }).bytes(), "OK");

        LockMonitor::Options monitorOptions = fastMonitorOptions("*");
        monitorOptions.goneRetention = 1; // vanished records are forgotten along the way
        MonitorWatch w(options, monitorOptions);
        GaugeCheck check(w.monitor);
        QVERIFY(w.start());
        QTRY_COMPARE(w.monitor.lockCount(), 3);
        QCOMPARE(gaugeOf(check.walked(), "reentrant", "redisson").held, 1);
        QCOMPARE(describe(kindGauges(w.monitor)), describe(check.walked()));

        // Acquired and re-entered; a read-write lock with two readers; a fenced lock.
        QVERIFY(acquire(a, request(reentrant)).acquired);
        const AcquireResult reentered = acquire(a, request(reentrant));
        QVERIFY(reentered.acquired);
        QTRY_VERIFY(w.monitor.record(reentrant) && w.monitor.record(reentrant)->info.holders.value(0).count == 2);
        QVERIFY(acquire(a, request(readWrite, LockMode::Read)).acquired);
        QVERIFY(acquire(b, request(readWrite, LockMode::Read)).acquired);
        const AcquireResult fencedHold = acquire(a, request(fenced, LockMode::Fenced));
        QVERIFY(fencedHold.acquired);
        QTRY_VERIFY(w.monitor.record(readWrite) && w.monitor.record(readWrite)->info.holders.size() == 2);
        QTRY_VERIFY(w.monitor.isSnapshotComplete() && w.monitor.record(fenced) && w.monitor.record(fenced)->present);
        QCOMPARE(gaugeOf(check.walked(), "reentrant", "redisson").held, 2);

        // A fair lock with two threads queued behind its holder, then handed down the queue.
        const AcquireResult fairHold = acquire(a, request(fair, LockMode::Fair));
        QVERIFY(fairHold.acquired);
        std::optional<AcquireResult> bFair, cFair;
        AcquireRequest waiting = request(fair, LockMode::Fair, "2");
        waiting.waitMs = 60000;
        b.acquire(waiting, [&](const AcquireResult &r) { bFair = r; });
        waiting.token = "3";
        c.acquire(waiting, [&](const AcquireResult &r) { cFair = r; });
        QTRY_COMPARE(gaugeOf(check.walked(), "fair", "redisson").waiters, 2);
        QCOMPARE(release(a, fair, fairHold.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY(bFair.has_value() || cFair.has_value());
        const AcquireResult first = bFair ? *bFair : *cFair;
        QVERIFY(first.acquired);
        QTRY_COMPARE(gaugeOf(check.walked(), "fair", "redisson").waiters, 1);
        QCOMPARE(release(bFair ? b : c, fair, first.owner, LockMode::Fair).outcome, ReleaseResult::Outcome::Released);
        QTRY_VERIFY(bFair.has_value() && cFair.has_value());
        const AcquireResult second = first.owner == bFair->owner ? *cFair : *bFair;
        QVERIFY(second.acquired);
        QTRY_COMPARE(gaugeOf(check.walked(), "fair", "redisson").waiters, 0);
        QCOMPARE(release(first.owner == bFair->owner ? c : b, fair, second.owner, LockMode::Fair).outcome,
            ReleaseResult::Outcome::Released);
        QTRY_VERIFY(!w.monitor.record(fair) || !w.monitor.record(fair)->present);

        // A thread waiting on the reentrant lock's channel: counted by the TTL polls (and the re-scans' reads).
        {
            RawRedis waiter(redis.port());
            waiter.command({ "SUBSCRIBE", LockNames::lockChannel(reentrant) });
            QTRY_COMPARE(gaugeOf(check.walked(), "reentrant", "redisson").waiters, 1);
        }
        QTRY_COMPARE(gaugeOf(check.walked(), "reentrant", "redisson").waiters, 0);

        // Released level by level; expired by a PEXPIRE after the fact; force-released.
        QCOMPARE(release(a, reentrant, reentered.owner).outcome, ReleaseResult::Outcome::StillHeld);
        QTRY_VERIFY(w.monitor.record(reentrant)->info.holders.value(0).count == 1);
        QCOMPARE(release(a, reentrant, reentered.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw->command({ "PEXPIRE", plain, "1" }).toInteger(), 1);
        QTRY_VERIFY(!w.monitor.record(plain)->present);
        if (keyspace) // without keyspace events a lease cut short looks like a delete
            QVERIFY(w.find(Type::Expired, plain) >= 0);
        QVERIFY(await<ForceReleaseResult>([&](auto done) {
            b.forceRelease(fenced, QByteArray(), done, LockMode::Fenced);
        }).deleted);
        QTRY_VERIFY(!w.monitor.record(fenced) || !w.monitor.record(fenced)->present);
        QTRY_VERIFY(!w.monitor.record(reentrant) || !w.monitor.record(reentrant)->present);
        // Vanished records beyond the retention are forgotten (the fenced lock's took the plain one's place).
        QTRY_VERIFY(!w.monitor.record(plain));

        // Keys that change type: a string lock becomes a Redisson lock hash (another kind and library), then a value
        // without a lease (no lock at all); a string lock becomes a list.
        const char *toHash = "redis.call('del', KEYS[1]); redis.call('hset', KEYS[1], ARGV[1], 1); "
                             "redis.call('pexpire', KEYS[1], 60000); return 1";
        QCOMPARE(raw->command({ "EVAL", toHash, "1", str, a.ownerField("7") }).toInteger(), 1);
        QTRY_VERIFY(w.monitor.record(str) && w.monitor.record(str)->info.kind == LockInfo::Kind::Reentrant);
        QCOMPARE(raw->command({ "SET", str, "some value" }).bytes(), "OK");
        QTRY_VERIFY(!w.monitor.record(str) || !w.monitor.record(str)->present);
        QCOMPARE(raw->command({ "DEL", mutex }).toInteger(), 1);
        QCOMPARE(raw->command({ "RPUSH", mutex, "x" }).toInteger(), 1);
        QTRY_VERIFY(!w.monitor.record(mutex) || !w.monitor.record(mutex)->present);
        QTRY_COMPARE(w.monitor.lockCount(), 1); // the readers' lock

        // The monitor's connections killed under it, and changes while it reconnects.
        const QByteArray late = p + ":late", after = p + ":after";
        QVERIFY(acquire(a, request(late)).acquired);
        QTRY_VERIFY(w.monitor.record(late) && w.monitor.record(late)->present);
        raw->command({ "CLIENT", "KILL", "TYPE", "pubsub" });
        raw->command({ "CLIENT", "KILL", "TYPE", "normal" });
        LockClient d(options); // a connection of its own: the others' were just killed too
        QVERIFY(acquire(d, request(after, LockMode::Write)).acquired);
        QTRY_COMPARE(w.monitor.lockCount(), 3);
        QTRY_COMPARE(gaugeOf(check.walked(), "readwrite", "redisson").locks, 2);

        // The server restarted empty: every lock goes.
        redis.stop();
        QString error;
        QVERIFY2(redis.start(&error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(w.monitor.lockCount(), 0, 20000);
        QCOMPARE(kindGauges(w.monitor).size(), 0);

        check.check(QStringLiteral("the end"));
        QVERIFY2(check.mismatch.isEmpty(), qPrintable(check.mismatch));
        QVERIFY(check.checks > 100);
    }
};

QTEST_GUILESS_MAIN(TestKindGauges)
#include "tst_kindgauges.moc"
