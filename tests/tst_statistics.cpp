// The statistics engine on its own: events and reads in, figures out; no Redis, times given.
#include "stats/lockstatistics.h"
#include "stats/statsjson.h"
#include "statsevents.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QtTest>

#include <algorithm>

using namespace LockScope;

using namespace LockScope::Test;

class TestStatistics : public QObject
{
    Q_OBJECT
private slots:
    void histogramIsExactBelow64ms();
    void histogramQuantilesWithinTwoPercent();
    void histogramMemoryIsBounded();
    void holdsPairAcquireWithRelease();
    void nestedReleaseDoesNotEndTheHold();
    void holdsBegunBeforeWatchingAreNotSamples();
    void pollingMarksFiguresInferred();
    void handoffsAndExpiries();
    void ownerChangeEndsTheOldHoldWithoutASample();
    void lateRenewalsAreGaps();
    void fixedLeasesOutgrownAreCounted();
    void watchdogHoldsAreNoFixedLeases();
    void fairQueueWaitsAreMeasured();
    void waiterTimeIsIntegrated();
    void subscriptionsAreWaits();
    void rankingPutsWaitersFirst();
    void trackedLocksStayBounded();
    void totalsSurviveEviction();
};

void TestStatistics::histogramIsExactBelow64ms()
{
    HoldHistogram h;
    for (int v : { 5, 1, 3, 2, 4 })
        h.add(v);
    QCOMPARE(h.quantile(0.5), 3);
    QCOMPARE(h.quantile(0.95), 5);
    QCOMPARE(h.quantile(0.0), 1);
    QCOMPARE(h.max(), 5);
    QCOMPARE(h.count(), 5u);
    QCOMPARE(HoldHistogram().quantile(0.5), -1);
}

void TestStatistics::histogramQuantilesWithinTwoPercent()
{
    // Against the exact quantiles of the same samples, over six decades.
    QRandomGenerator rng(42);
    std::vector<qint64> values;
    HoldHistogram h;
    for (int i = 0; i < 20000; ++i) {
        const qint64 v = qint64(std::exp(rng.generateDouble() * std::log(3.6e6))); // 1 ms .. 1 h, log-uniform
        values.push_back(v);
        h.add(v);
    }
    std::sort(values.begin(), values.end());
    for (double q : { 0.1, 0.5, 0.9, 0.95, 0.99 }) {
        const qint64 exact = values[size_t(std::ceil(q * double(values.size()))) - 1];
        const qint64 got = h.quantile(q);
        QVERIFY2(std::abs(double(got - exact)) <= 0.02 * double(exact) + 1,
            qPrintable(QStringLiteral("q %1: %2 vs exact %3").arg(q).arg(got).arg(exact)));
    }
    QCOMPARE(h.max(), values.back());
    // Bucket bounds tile the line: each bucket starts where the previous ends.
    for (int b = 1; b < 600; ++b)
        QCOMPARE(HoldHistogram::bucketLow(b), HoldHistogram::bucketHigh(b - 1));
    for (qint64 v : { 0LL, 63LL, 64LL, 65LL, 1000LL, 123456789LL })
        QVERIFY(HoldHistogram::bucketLow(HoldHistogram::bucketOf(v)) <= v
            && v < HoldHistogram::bucketHigh(HoldHistogram::bucketOf(v)));
}

void TestStatistics::histogramMemoryIsBounded()
{
    HoldHistogram h;
    for (qint64 v = 0; v < 400LL * 24 * 3600 * 1000; v = v * 11 / 10 + 1)
        h.add(v);
    for (int i = 0; i < 100000; ++i)
        h.add(i);
    QVERIFY2(h.bucketsUsed() < 1200, qPrintable(QString::number(h.bucketsUsed())));
}

void TestStatistics::holdsPairAcquireWithRelease()
{
    LockStatistics s({}, 1000);
    const LockInfo held = lockInfo("orders:42", 1, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "orders:42", ownerA, 1000), &held, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Released, "orders:42", ownerA, 1250), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "orders:42", ownerB, 2000), &held, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Released, "orders:42", ownerB, 2100), nullptr, FigureSource::Measured);
    const LockStats *l = s.lock("orders:42");
    QVERIFY(l);
    QCOMPARE(l->acquisitions, 2u);
    QCOMPARE(l->holds.count(), 2u);
    QCOMPARE(l->holds.max(), 250);
    QCOMPARE(l->holds.min(), 100);
    QCOMPARE(l->kind, QByteArray("reentrant"));
    QCOMPARE(l->library, QByteArray("redisson"));
    QCOMPARE(l->holdsSource(), FigureSource::Measured);
    QCOMPARE(l->heldMs, 350.0);
    QCOMPARE(s.client("6e3d30b7-83b1-433a-9335-5e8b9916d3ac")->acquisitions, 1u);
    QCOMPARE(s.client("6e3d30b7-83b1-433a-9335-5e8b9916d3ac")->holds.max(), 250);
}

void TestStatistics::nestedReleaseDoesNotEndTheHold()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "n", ownerA, 0), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Reentered, "n", ownerA, 10, 2), nullptr, FigureSource::Measured);
    LockEvent inner = ev(LockEvent::Type::Released, "n", ownerA, 20);
    inner.count = 1;
    s.addEvent(inner, nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("n")->holds.count(), 0u);
    s.addEvent(ev(LockEvent::Type::Released, "n", ownerA, 90), nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("n")->holds.count(), 1u);
    QCOMPARE(s.lock("n")->holds.max(), 90);
    QCOMPARE(s.lock("n")->releases, 1u);
}

void TestStatistics::holdsBegunBeforeWatchingAreNotSamples()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Released, "old", ownerA, 500), nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("old")->holds.count(), 0u);
    QCOMPARE(s.lock("old")->holdsFromBefore, 1u);
}

void TestStatistics::pollingMarksFiguresInferred()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "p", ownerA, 0), nullptr, FigureSource::Inferred);
    s.addEvent(ev(LockEvent::Type::Released, "p", ownerA, 5000), nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("p")->acquisitionsSource(), FigureSource::Inferred);
    QCOMPARE(s.lock("p")->holdsSource(), FigureSource::Inferred);
    s.addEvent(ev(LockEvent::Type::Acquired, "q", ownerA, 0), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Expired, "q", ownerA, 30000), nullptr, FigureSource::Inferred);
    QCOMPARE(s.lock("q")->acquisitionsSource(), FigureSource::Measured);
    QCOMPARE(s.lock("q")->expiriesSource(), FigureSource::Inferred);
    QCOMPARE(s.lock("q")->holdsSource(), FigureSource::Inferred);
}

void TestStatistics::handoffsAndExpiries()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "h", ownerA, 0), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Released, "h", ownerA, 100), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "h", ownerB, 103), nullptr, FigureSource::Measured); // a hand-off
    s.addEvent(ev(LockEvent::Type::Expired, "h", ownerB, 30103), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "h", ownerA, 45000), nullptr, FigureSource::Measured); // too late
    const LockStats *l = s.lock("h");
    QCOMPARE(l->handoffs, 1u);
    QCOMPARE(l->handoffGaps.max(), 3);
    QCOMPARE(l->expiries, 1u);
    QCOMPARE(l->holds.max(), 30000);
    QCOMPARE(s.client("0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6")->expiries, 1u);
    // The same owner taking it again is no hand-off.
    s.addEvent(ev(LockEvent::Type::Released, "h", ownerA, 45010), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "h", ownerA, 45011), nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("h")->handoffs, 1u);
}

void TestStatistics::ownerChangeEndsTheOldHoldWithoutASample()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "o", ownerA, 0), nullptr, FigureSource::Measured);
    LockEvent change = ev(LockEvent::Type::OwnerChanged, "o", ownerB, 40000);
    change.previousOwner = ownerA;
    s.addEvent(change, nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "o", ownerB, 40000), nullptr, FigureSource::Measured);
    const LockStats *l = s.lock("o");
    QCOMPARE(l->ownerChanges, 1u);
    QCOMPARE(l->holds.count(), 0u);
    QCOMPARE(l->openHolds.size(), 1);
    QVERIFY(l->openHolds.contains(ownerB));
    QCOMPARE(s.client("0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6")->takeovers, 1u);
    QCOMPARE(s.client("6e3d30b7-83b1-433a-9335-5e8b9916d3ac")->holdsOpen, 0);
}

// A renewal the tracker found late is a gap, per lock and in the kind's totals (lockscope_renewal_gaps_total); one on
// time is not.
void TestStatistics::lateRenewalsAreGaps()
{
    LockStatistics s({}, 0);
    s.addEvent(ev(LockEvent::Type::Acquired, "g", ownerA, 0), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Renewed, "g", ownerA, 10000), nullptr, FigureSource::Measured);
    LockEvent late = ev(LockEvent::Type::Renewed, "g", ownerA, 26000);
    late.lateMs = 6000;
    s.addEvent(late, nullptr, FigureSource::Measured);
    QCOMPARE(s.lock("g")->renewals, 2u);
    QCOMPARE(s.lock("g")->renewalGaps, 1u);
    QCOMPARE(s.totals().begin()->second.renewalGaps, 1u);
}

// The lease advisor's live figures (lockscope_lock_fixed_lease_holds*): of the holds with a fixed lease, those that
// outlived two thirds of it; a hold its watchdog renewed is none of them, whatever its length.
void TestStatistics::fixedLeasesOutgrownAreCounted()
{
    LockStatistics s({}, 0);
    const auto hold = [&](const QByteArray &owner, qint64 at, qint64 lease, qint64 length, bool renewed) {
        LockEvent acquired = ev(LockEvent::Type::Acquired, "f", owner, at);
        acquired.ttlMs = lease;
        s.addEvent(acquired, nullptr, FigureSource::Measured);
        if (renewed)
            s.addEvent(ev(LockEvent::Type::Renewed, "f", owner, at + length / 2), nullptr, FigureSource::Measured);
        s.addEvent(ev(LockEvent::Type::Released, "f", owner, at + length), nullptr, FigureSource::Measured);
    };
    hold(ownerA, 0, 3000, 1000, false);
    hold(ownerA, 10000, 3000, 2500, false); // past two thirds of its lease
    hold(ownerB, 20000, 3000, 9000, true); // renewed: a watchdog's, not a fixed lease
    QCOMPARE(s.lock("f")->fixedLeaseHolds, 2u);
    QCOMPARE(s.lock("f")->fixedLeaseHoldsPastTwoThirds, 1u);
    QCOMPARE(s.lock("f")->leaseMs, qint64(3000));
}

// A renewal extends the key's lease for every hold on it, though the event names one holder: the second reader of a
// read-write lock held 25 s of a 30 s lease and was never short of it. Once a lock is seen renewed, its holds that end
// before their first renewal are watchdog holds too.
void TestStatistics::watchdogHoldsAreNoFixedLeases()
{
    LockStatistics s({}, 0);
    const auto acquire = [&](const QByteArray &owner, qint64 at) {
        LockEvent acquired = ev(LockEvent::Type::Acquired, "rw", owner, at);
        acquired.ttlMs = 30000;
        s.addEvent(acquired, nullptr, FigureSource::Measured);
    };
    const auto release = [&](const QByteArray &owner, qint64 at) {
        s.addEvent(ev(LockEvent::Type::Released, "rw", owner, at), nullptr, FigureSource::Measured);
    };
    acquire(ownerA, 0);
    acquire(ownerB, 1000);
    s.addEvent(ev(LockEvent::Type::Renewed, "rw", ownerA, 10000), nullptr, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Renewed, "rw", ownerA, 20000), nullptr, FigureSource::Measured);
    release(ownerB, 26000);
    release(ownerA, 27000);
    acquire(ownerB, 30000); // ends before a renewal
    release(ownerB, 31000);
    QCOMPARE(s.lock("rw")->fixedLeaseHolds, 0u);
    QCOMPARE(s.lock("rw")->fixedLeaseHoldsPastTwoThirds, 0u);
    QCOMPARE(s.lock("rw")->holds.count(), 3u);
}

void TestStatistics::fairQueueWaitsAreMeasured()
{
    LockStatistics s({}, 0);
    LockInfo info = lockInfo("fair", 1, 0);
    info.kind = LockInfo::Kind::Fair;
    info.queue = { { ownerB, -1 } };
    s.observe("fair", &info, 1000); // tracked: someone waits
    QCOMPARE(s.lock("fair")->waitersNow, 1);
    info.queue.clear();
    s.observe("fair", &info, 1400); // the read that shows it leave the queue
    s.addEvent(ev(LockEvent::Type::Acquired, "fair", ownerB, 1400), &info, FigureSource::Measured);
    FigureSource source = FigureSource::Inferred;
    QCOMPARE(s.lock("fair")->waits.count(), 1u);
    QCOMPARE(s.lock("fair")->waitMeanMs(&source), 400.0);
    QCOMPARE(source, FigureSource::Measured);
}

// Issue 47: a workload whose waits the test knows. Subscriptions to a lock's channel come and go between reads; each
// is a wait from the read that first counted it to the one that counted it gone, the oldest first. The figures come
// out exact, in the statistics, their JSON (stats) and the detail pane's words, with how they were timed.
void TestStatistics::subscriptionsAreWaits()
{
    LockStatistics s({}, 0);
    const auto at = [&s](int waiters, qint64 ms) {
        const LockInfo info = lockInfo("q", 1, waiters);
        s.observe("q", &info, ms);
    };
    at(2, 1000); // two waiters from 1 s
    at(3, 2000); // a third from 2 s
    at(1, 5000); // two leave at 5 s: the oldest two, 4 s each
    QCOMPARE(s.lock("q")->longestWaitMs(6000), 4000); // the third, waiting since 2 s
    at(0, 9500); // the third leaves: 7.5 s
    at(1, 10000); // a fourth
    const LockStats *l = s.lock("q");
    QCOMPARE(l->waits.count(), 3u);
    QCOMPARE(l->waits.quantile(0.5),
        HoldHistogram::bucketLow(HoldHistogram::bucketOf(4000))
            + (HoldHistogram::bucketHigh(HoldHistogram::bucketOf(4000))
                  - HoldHistogram::bucketLow(HoldHistogram::bucketOf(4000)))
                / 2);
    QCOMPARE(l->waits.max(), 7500);
    QCOMPARE(l->waitMethod(), WaitMethod::Subscriptions);
    QCOMPARE(l->longestWaitMs(12000), 2000);
    FigureSource source = FigureSource::Measured;
    QCOMPARE(l->waitMeanMs(&source), (4000.0 + 4000.0 + 7500.0) / 3);
    QCOMPARE(source, FigureSource::Inferred);

    const QJsonObject json = lockStatsJson(s, *l, 12000);
    const QJsonObject wait = json.value(QStringLiteral("wait_ms")).toObject();
    QCOMPARE(wait.value(QStringLiteral("samples")).toInt(), 3);
    QCOMPARE(wait.value(QStringLiteral("max")).toInt(), 7500);
    QVERIFY(!wait.value(QStringLiteral("p95")).isNull());
    QVERIFY(!wait.value(QStringLiteral("p50")).isNull());
    QCOMPARE(wait.value(QStringLiteral("longest_now")).toInt(), 2000);
    QCOMPARE(wait.value(QStringLiteral("method")).toString(), QStringLiteral("subscriptions"));
    QCOMPARE(json.value(QStringLiteral("sources")).toObject().value(QStringLiteral("wait_ms")).toString(),
        QStringLiteral("inferred"));

    // A count that could not be read is no wait ended.
    const LockInfo unknown = lockInfo("q", 1, -1);
    s.observe("q", &unknown, 13000);
    QCOMPARE(s.lock("q")->waits.count(), 3u);
    QCOMPARE(s.lock("q")->longestWaitMs(14000), 4000);
    // Read as gone: nobody waits on it any more, and no wait is said to go on; its end unseen, no sample.
    s.observe("q", nullptr, 15000);
    QCOMPARE(s.lock("q")->longestWaitMs(60000), -1);
    QCOMPARE(s.lock("q")->waits.count(), 3u);
}

void TestStatistics::waiterTimeIsIntegrated()
{
    LockStatistics s({}, 0);
    const LockInfo three = lockInfo("w", 1, 3), none = lockInfo("w", 1, 0);
    s.observe("w", &three, 0);
    s.observe("w", &three, 1000);
    s.observe("w", &none, 2000);
    s.observe("w", &none, 5000);
    const LockStats *l = s.lock("w");
    QCOMPARE(l->waiterMs, 6000.0);
    QCOMPARE(l->waitersMax, 3);
    QCOMPARE(l->waitersNow, 0);
    QCOMPARE(l->heldMs, 5000.0);
    // The three subscriptions counted at 0 and gone at 2000 are three waits of 2 s (issue 47), inferred.
    FigureSource source = FigureSource::Measured;
    QCOMPARE(l->waitMeanMs(&source), 2000.0);
    QCOMPARE(source, FigureSource::Inferred);
    QCOMPARE(l->waitMethod(), WaitMethod::Subscriptions);

    // Waiters counted but none seen to end: waiter-time over acquisitions, and no estimate before an acquisition.
    const LockInfo two = lockInfo("v", 1, 2);
    s.observe("v", &two, 0);
    s.observe("v", &two, 3000);
    QCOMPARE(s.lock("v")->waitMeanMs(), -1.0);
    s.addEvent(ev(LockEvent::Type::Acquired, "v", ownerA, 3000), &two, FigureSource::Measured);
    s.addEvent(ev(LockEvent::Type::Acquired, "v", ownerB, 3000), &two, FigureSource::Measured);
    QCOMPARE(s.lock("v")->waitMeanMs(&source), 3000.0);
    QCOMPARE(source, FigureSource::Inferred);
    QCOMPARE(s.lock("v")->waitMethod(), WaitMethod::WaiterTime);
    QCOMPARE(s.lock("v")->longestWaitMs(4000), 4000);
    // A lock nobody waits on and nothing happened to is not tracked.
    const LockInfo quiet = lockInfo("quiet", 1, 0);
    s.observe("quiet", &quiet, 100);
    QVERIFY(!s.lock("quiet"));
}

void TestStatistics::rankingPutsWaitersFirst()
{
    LockStatistics s({}, 0);
    // "busy": many acquisitions, nobody waits; "jam": few, with waiters; "idle": one.
    for (int i = 0; i < 50; ++i) {
        s.addEvent(ev(LockEvent::Type::Acquired, "busy", ownerA, i * 100), nullptr, FigureSource::Measured);
        s.addEvent(ev(LockEvent::Type::Released, "busy", ownerA, i * 100 + 10), nullptr, FigureSource::Measured);
    }
    const LockInfo jammed = lockInfo("jam", 1, 4);
    s.addEvent(ev(LockEvent::Type::Acquired, "jam", ownerB, 0), &jammed, FigureSource::Measured);
    s.observe("jam", &jammed, 10);
    s.addEvent(ev(LockEvent::Type::Acquired, "idle", ownerA, 0), nullptr, FigureSource::Measured);
    const QList<const LockStats *> top = s.ranked(6000, 2);
    QCOMPARE(top.size(), 2);
    QCOMPARE(top.at(0)->name, QByteArray("jam"));
    QCOMPARE(top.at(1)->name, QByteArray("busy"));
    const RecentFigures busy = s.recent(*s.lock("busy"), 6000);
    // 50 acquisitions within the first 6 s of watching: about 500 a minute, not 50 over the half-life.
    QVERIFY2(busy.acquisitionsPerMinute > 400 && busy.acquisitionsPerMinute < 600,
        qPrintable(QString::number(busy.acquisitionsPerMinute)));
    QCOMPARE(s.ranked(6000, -1).size(), 3);
}

void TestStatistics::trackedLocksStayBounded()
{
    LockStatistics::Options options;
    options.maxLocks = 100;
    options.maxClients = 50;
    LockStatistics s(options, 0);
    // A lock held throughout is spared; the quiet ones go first.
    s.addEvent(ev(LockEvent::Type::Acquired, "held", ownerA, 0), nullptr, FigureSource::Measured);
    for (int i = 0; i < 5000; ++i) {
        const QByteArray name = "k" + QByteArray::number(i);
        const QByteArray owner = QByteArray::number(i);
        s.addEvent(ev(LockEvent::Type::Acquired, name, owner, 1 + i), nullptr, FigureSource::Measured);
        s.addEvent(ev(LockEvent::Type::Released, name, owner, 2 + i), nullptr, FigureSource::Measured);
    }
    QVERIFY(s.locks().size() <= 100 + 16);
    QVERIFY(s.clients().size() <= 50 + 16);
    QVERIFY(s.lock("held"));
    QVERIFY(s.lock("k4999"));
    QVERIFY(!s.lock("k0"));
    QVERIFY(s.evictedLocks() >= 4880);

    // Reads of many locks with a waiter each fill the table up to its size and no further: they push nothing out.
    options.maxObservedLocks = 100;
    LockStatistics r(options, 0);
    r.addEvent(ev(LockEvent::Type::Acquired, "active", ownerA, 0), nullptr, FigureSource::Measured);
    for (int i = 0; i < 5000; ++i) {
        const LockInfo waited = lockInfo("w" + QByteArray::number(i), 1, 1);
        r.observe(waited.name, &waited, 10 + i);
    }
    QCOMPARE(r.locks().size(), 100);
    QCOMPARE(r.evictedLocks(), 0u);
    QVERIFY(r.lock("active"));
}

void TestStatistics::totalsSurviveEviction()
{
    LockStatistics::Options options;
    options.maxLocks = 10;
    LockStatistics s(options, 0);
    const LockInfo info = lockInfo("x", 1, 0);
    for (int i = 0; i < 1000; ++i)
        s.addEvent(
            ev(LockEvent::Type::Acquired, "k" + QByteArray::number(i), ownerA, i), &info, FigureSource::Measured);
    QCOMPARE(s.totals().size(), size_t(1));
    QCOMPARE(s.totals().begin()->first, std::make_pair(QByteArray("reentrant"), QByteArray("redisson")));
    QCOMPARE(s.totals().begin()->second.acquisitions, 1000u);
}

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
