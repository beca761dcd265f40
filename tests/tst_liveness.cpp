// The liveness rules on reads and listings built by hand (no server): renewals turned into numbers by the tracker,
// the verdict and its evidence for each combination of signals, and the owner directory's view of connections that
// come, go and are reused. The same rules against real Redisson processes: tst_redissonliveness.
#include "clients/ownerdirectory.h"
#include "liveness/livenessjudge.h"
#include "monitor/locktracker.h"

#include <QTest>

using namespace LockScope;

namespace {
const QByteArray kClient = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";
const QByteArray kA = kClient + ":731";
const QByteArray kB = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";
constexpr qint64 kEpoch = 1'800'000'000'000;

LockInfo lock(const QByteArray &owner, qint64 ttl, qint64 readAt)
{
    LockInfo info;
    info.name = "orders:42";
    info.kind = LockInfo::Kind::Reentrant;
    info.library = "redisson";
    info.ttlMs = ttl;
    info.readAtMs = readAt;
    if (!owner.isEmpty()) {
        LockHolder h;
        h.owner = owner;
        h.client = owner.left(owner.lastIndexOf(':'));
        h.thread = owner.mid(owner.lastIndexOf(':') + 1);
        h.count = 1;
        info.holders << h;
    }
    return info;
}

struct Run
{
    LockTracker tracker;
    LockRecord record {};
    bool changed = false;

    void read(const std::optional<LockInfo> &info, qint64 now, bool initial = false)
    {
        LockTracker::Signals seen;
        seen.initial = initial;
        tracker.apply(record, info, seen, now, kEpoch + now, &changed);
    }
};

// A watchdog hold taken at 0 with a 30 s lease, renewed at 10 s and 20 s (each seen by a read a little later).
Run renewingHold()
{
    Run r;
    r.read(std::nullopt, 0);
    r.read(lock(kA, 30000, 5), 5);
    r.read(lock(kA, 29000, 11000), 11000); // renewed at 10000
    r.read(lock(kA, 28500, 21500), 21500); // renewed at 20000
    return r;
}

LivenessInput inputFor(const Run &r, qint64 now)
{
    LivenessInput in;
    in.lock = r.record.info;
    in.holder = r.record.info.holders.value(0);
    in.record = &r.record;
    in.nowMs = now;
    in.epochMs = kEpoch + now;
    return in;
}

OwnerPresence presence(OwnerPresence::State state)
{
    OwnerPresence p;
    p.state = state;
    OwnerConnection c;
    c.addr = "10.0.3.17:53422";
    c.name = "orders-service-7";
    c.seenMs = kEpoch;
    p.connections << c;
    p.listedMs = kEpoch + 30000;
    if (state == OwnerPresence::State::Gone)
        p.goneSinceMs = kEpoch + 25000;
    return p;
}

ClientEntry client(qint64 id, const QByteArray &addr, qint64 ageS, const QByteArray &name = {})
{
    ClientEntry c;
    c.id = id;
    c.addr = addr;
    c.ageS = ageS;
    c.name = name;
    return c;
}

TraceFindings traced(const QByteArray &identity, const QByteArray &addr, qint64 atMs)
{
    TraceFindings t;
    t.startedMs = atMs - 1000;
    t.endedMs = atMs;
    t.runId = "run-1";
    TraceFindings::Sighting s;
    s.kind = TraceFindings::Sighting::Identity::Client;
    s.identity = identity;
    s.addr = addr;
    s.firstMs = s.lastMs = atMs;
    s.commands = 3;
    t.sightings << s;
    return t;
}
} // namespace

class TestLiveness : public QObject
{
    Q_OBJECT

private slots:
    void renewalsBecomeNumbers()
    {
        Run r = renewingHold();
        QCOMPARE(r.record.renewals, 2);
        // Each renewal's moment is its deadline less the lease, whatever the read's delay: 10000 and 20000.
        QCOMPARE(r.record.lastRenewalAtMs, 20000);
        QCOMPARE(r.record.renewalPeriodMs(), 10000);
        RenewalFigures on = renewalFigures(r.record, 25000);
        QCOMPARE(on.lastRenewedMs, 5000);
        QCOMPARE(on.periodMs, 10000);
        QCOMPARE(on.missed, 0.0);
        QVERIFY(on.renewing());
        // Half a period late, then one and a half: graded, not a yes or no.
        QCOMPARE(renewalFigures(r.record, 35000).missed, 0.5);
        const RenewalFigures late = renewalFigures(r.record, 45000);
        QCOMPARE(late.missed, 1.5);
        QVERIFY(late.stopped());
        QVERIFY(!late.renewing());
    }

    void aHoldFoundMidwayHasNoPeriodAfterOneRenewal()
    {
        Run r;
        r.read(lock(kA, 12000, 0), 0, true); // already held when watching began
        r.read(lock(kA, 29500, 14000), 14000); // renewed: the largest TTL seen yet, so the lease, set just now
        const RenewalFigures f = renewalFigures(r.record, 15000);
        QCOMPARE(f.lastRenewedMs, 1000);
        QCOMPARE(f.periodMs, -1); // its first renewal's interval began before anyone watched
        QCOMPARE(f.missed, -1.0);
        r.read(lock(kA, 29000, 24500), 24500); // renewed at 24000, half a second before the read
        QCOMPARE(renewalFigures(r.record, 25000).periodMs, 10000);
    }

    void transitionsCountChangesOfHands()
    {
        Run r;
        r.read(lock(kA, 30000, 0), 0, true);
        QCOMPARE(r.record.transitions, 0);
        r.read(std::nullopt, 1000); // released
        r.read(lock(kA, 30000, 2000), 2000); // the same owner again: not a change of hands
        QCOMPARE(r.record.transitions, 0);
        r.read(std::nullopt, 3000);
        r.read(lock(kB, 30000, 4000), 4000);
        QCOMPARE(r.record.transitions, 1);
        r.read(lock(kA, 30000, 5000), 5000); // taken over between two reads
        QCOMPARE(r.record.transitions, 2);
        QCOMPARE(renewalFigures(r.record, 5000).transitions, 2);
    }

    void renewingIsAlive()
    {
        const Run r = renewingHold();
        const LivenessVerdict v = judgeLiveness(inputFor(r, 25000));
        QCOMPARE(v.state, LivenessVerdict::State::Alive);
        QVERIFY2(v.summary.startsWith(QStringLiteral("alive (renewing)")), qPrintable(v.summary));
        QVERIFY2(v.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("every 10.0 s")),
            qPrintable(v.evidence.join(QLatin1Char('\n'))));
        QCOMPARE(LivenessVerdict::stateId(v.state), QByteArray("alive"));
    }

    void twoSignalsMakeLikelyDead()
    {
        const Run r = renewingHold();
        LivenessInput in = inputFor(r, 45000);
        in.presence = presence(OwnerPresence::State::Gone);
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::LikelyDead);
        QCOMPARE(LivenessVerdict::stateId(v.state), QByteArray("likely-dead"));
        const QString evidence = v.evidence.join(QLatin1Char('\n'));
        QVERIFY2(evidence.contains(QStringLiteral("renewals stopped")), qPrintable(evidence));
        QVERIFY2(evidence.contains(QStringLiteral("orders-service-7 (10.0.3.17:53422) closed")), qPrintable(evidence));
        QVERIFY2(v.summary.contains(QStringLiteral("renewals stopped"))
                && v.summary.contains(QStringLiteral("its connection closed")),
            qPrintable(v.summary));
    }

    void oneSignalAloneIsUnknown_data()
    {
        QTest::addColumn<int>("connection");
        QTest::addColumn<QString>("said");
        // A frozen process keeps its connection; a holder nobody traced has none known.
        QTest::newRow("connection open") << int(OwnerPresence::State::Connected) << "still open";
        QTest::newRow("connection not known") << int(OwnerPresence::State::Unknown) << "not known";
    }
    void oneSignalAloneIsUnknown()
    {
        QFETCH(int, connection);
        QFETCH(QString, said);
        const Run r = renewingHold();
        LivenessInput in = inputFor(r, 45000);
        in.presence = connection == int(OwnerPresence::State::Unknown) ? OwnerPresence {}
                                                                       : presence(OwnerPresence::State(connection));
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::Unknown);
        QVERIFY2(v.summary.contains(QStringLiteral("one signal only (renewals stopped)")), qPrintable(v.summary));
        QVERIFY2(v.evidence.join(QLatin1Char('\n')).contains(said), qPrintable(v.evidence.join(QLatin1Char('\n'))));
    }

    void aClosedConnectionAloneIsUnknown()
    {
        Run r;
        r.read(lock(kA, 60000, 0), 0, true);
        LivenessInput in = inputFor(r, 1000);
        in.presence = presence(OwnerPresence::State::Gone);
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::Unknown);
        QVERIFY2(v.summary.contains(QStringLiteral("its connection closed")), qPrintable(v.summary));
    }

    void aFixedLeaseWithNothingElseIsUnknown()
    {
        Run r;
        r.read(std::nullopt, 0);
        r.read(lock(kA, 60000, 0), 0);
        r.read(lock(kA, 35000, 25000), 25000); // a third of the lease and more without a renewal
        QCOMPARE(r.record.watchdog, WatchdogGuess::No);
        const LivenessVerdict v = judgeLiveness(inputFor(r, 25000));
        QCOMPARE(v.state, LivenessVerdict::State::Unknown);
        QVERIFY2(v.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("fixed lease")),
            qPrintable(v.evidence.join(QLatin1Char('\n'))));
        QCOMPARE(v.figures.missed, -1.0);
    }

    void oneReadSaysRenewalsWereNotWatched()
    {
        LivenessInput in;
        in.lock = lock(kA, 20000, 0);
        in.holder = in.lock.holders.first();
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::Unknown);
        QVERIFY2(v.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("--observe")),
            qPrintable(v.evidence.join(QLatin1Char('\n'))));
    }

    void aGoneProcessAndConnectionAreTwoSignals()
    {
        LivenessInput in;
        in.lock = lock(kA, -1, 0);
        in.holder = in.lock.holders.first();
        in.holder.host = "build-7";
        in.holder.pid = 4242;
        in.process = LivenessInput::Process::Gone;
        in.presence = presence(OwnerPresence::State::Gone);
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::LikelyDead);
        QVERIFY2(v.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("process 4242")),
            qPrintable(v.evidence.join(QLatin1Char('\n'))));
    }

    void aHoldFarPastItsUsualTimeSaysSo()
    {
        Run r = renewingHold();
        // Renewed on time for 400 s.
        for (qint64 t = 30000; t <= 400000; t += 10000)
            r.read(lock(kA, 29000, t + 1000), t + 1000);
        LivenessInput in = inputFor(r, 405000);
        in.holdP95Ms = 10000;
        in.holdSamples = 20;
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::Alive);
        QVERIFY2(v.summary.contains(QStringLiteral("held 40× its usual time")), qPrintable(v.summary));
        // Too few holds to know what is usual: nothing said.
        in.holdSamples = 2;
        QVERIFY(!judgeLiveness(in).summary.contains(QStringLiteral("usual")));
    }

    void anOrphanRenewalIsNamed()
    {
        const Run r = renewingHold();
        LivenessInput in = inputFor(r, 25000);
        in.unlockSeenMs = kEpoch + 15000;
        const LivenessVerdict v = judgeLiveness(in);
        QCOMPARE(v.state, LivenessVerdict::State::Alive);
        QVERIFY2(v.summary.contains(QStringLiteral("orphan renewal")), qPrintable(v.summary));
        QVERIFY(v.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("redisson #7272")));
    }

    void directoryFollowsConnections()
    {
        OwnerDirectory d;
        LockHolder h = lock(kA, 30000, 0).holders.first();
        QCOMPARE(d.presence(h).state, OwnerPresence::State::Unknown);

        TraceFindings t = traced(kClient, "10.0.3.17:53422", kEpoch);
        t.clients = { client(7, "10.0.3.17:53422", 100, "orders-service-7"), client(8, "10.0.3.18:1000", 5) };
        d.addTrace(t);
        OwnerPresence p = d.presence(h); // by its client UUID: every thread of a client shares its connections
        QCOMPARE(p.state, OwnerPresence::State::Connected);
        QCOMPARE(p.connections.first().clientId, 7);
        QCOMPARE(OwnerDirectory::describe(p), QStringLiteral("orders-service-7 (10.0.3.17:53422)"));

        // A partial listing (a node did not answer) never makes a connection gone.
        d.updateClients({}, kEpoch + 5000, false);
        QCOMPARE(d.presence(h).state, OwnerPresence::State::Connected);
        // The same port, another connection: the traced one is gone.
        d.updateClients({ client(9, "10.0.3.17:53422", 1) }, kEpoch + 10000, true);
        p = d.presence(h);
        QCOMPARE(p.state, OwnerPresence::State::Gone);
        QCOMPARE(p.goneSinceMs, kEpoch + 10000);
        // A restarted server: ids and ports mean nothing any more.
        d.updateClients({ client(1, "10.0.3.17:53422", 1) }, kEpoch + 20000, true, "run-2");
        QCOMPARE(d.presence(h).state, OwnerPresence::State::Unknown);
    }

    void aConnectionFirstListedAfterItsSightingIsAnother()
    {
        OwnerDirectory d;
        const LockHolder h = lock(kA, 30000, 0).holders.first();
        d.addTrace(traced(kClient, "10.0.3.17:53422", kEpoch)); // its listing did not come
        // Listed two minutes later, opened a second ago: a newcomer on the traced port.
        d.updateClients({ client(12, "10.0.3.17:53422", 1) }, kEpoch + 120000, true);
        QCOMPARE(d.presence(h).state, OwnerPresence::State::Gone);
    }

    void aConnectionNamedAfterTheClientSpeaksForIt()
    {
        OwnerDirectory d;
        const LockHolder h = lock(kA, 30000, 0).holders.first();
        d.updateClients({ client(3, "10.0.0.9:4000", 50, "billing-" + kClient) }, kEpoch, true);
        const OwnerPresence p = d.presence(h);
        QCOMPARE(p.state, OwnerPresence::State::Connected);
        QCOMPARE(p.connections.first().source, OwnerConnection::Source::ClientName);
        d.updateClients({}, kEpoch + 1000, true);
        QCOMPARE(d.presence(h).state, OwnerPresence::State::Gone);
    }
};

QTEST_GUILESS_MAIN(TestLiveness)
#include "tst_liveness.moc"
