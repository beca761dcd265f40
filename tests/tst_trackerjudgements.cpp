// LockTracker's judgements one at a time, called directly with records and signals built by hand: how a hold ended
// (HoldEndJudge), a new hold after the key was gone (NewHoldJudge), every holder replaced between two reads
// (TakeoverJudge), holders and levels coming and going (HolderChangeJudge). What each asserts is what a person
// reading the timeline sees: the event types, whose they are, and the warnings. No server, no clock.
#include "monitor/holdendjudge.h"
#include "monitor/holderchangejudge.h"
#include "monitor/newholdjudge.h"
#include "monitor/takeoverjudge.h"

#include <QTest>

using namespace LockScope;
using Type = LockEvent::Type;
using End = HoldEndJudge::End;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kB = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";

LockInfo lock(QList<QPair<QByteArray, qint64>> holders, LockInfo::Kind kind = LockInfo::Kind::Reentrant)
{
    LockInfo info;
    info.name = "orders:42";
    info.kind = kind;
    info.ttlMs = 30000;
    for (const auto &[owner, count] : holders) {
        LockHolder h;
        h.owner = owner;
        h.count = count;
        info.holders << h;
    }
    return info;
}

LockInfo readers(QList<QByteArray> owners)
{
    QList<QPair<QByteArray, qint64>> holders;
    for (const QByteArray &owner : owners)
        holders.append({ owner, 1 });
    LockInfo info = lock(holders, LockInfo::Kind::ReadWrite);
    info.mode = "read";
    return info;
}

LockRecord held(const LockInfo &info)
{
    LockRecord record;
    record.info = info;
    record.present = true;
    return record;
}

// Keyspace events on the lock's own key, all of them arrived before the read was sent.
LockTracker::Signals keyspace(const QList<KeyEvent> &order)
{
    LockTracker::Signals seen;
    seen.keyspaceEvents = true;
    for (KeyEvent e : order)
        seen.note(e);
    seen.sentSeq = seen.lastSeq;
    return seen;
}

// Signals with no order: what a server without keyspace events lets the monitor see.
HoldEndJudge::Reading unordered(bool releaseMessage = false)
{
    HoldEndJudge::Reading reading;
    reading.all.releaseMessage = releaseMessage;
    return reading;
}

QList<Type> types(const QList<LockEvent> &events)
{
    QList<Type> t;
    for (const LockEvent &e : events)
        t << e.type;
    return t;
}

QList<QByteArray> owners(const QList<LockEvent> &events)
{
    QList<QByteArray> o;
    for (const LockEvent &e : events)
        o << e.owner;
    return o;
}
} // namespace

class TestTrackerJudgements : public QObject
{
    Q_OBJECT
private slots:
    // HoldEndJudge: the key's events in order say how the hold ended; the read takes the events before it.
    void holdEndFollowsTheKeysEvents_data()
    {
        QTest::addColumn<QList<KeyEvent>>("order");
        QTest::addColumn<int>("ended");
        QTest::addColumn<int>("type");
        using K = KeyEvent;
        QTest::newRow("unlock: write, then delete")
            << QList<K> { K::HashWrite, K::Deleted, K::HashWrite } << int(End::Released) << int(Type::Released);
        QTest::newRow("force release: delete after a renewal") << QList<K> { K::OtherWrite, K::Deleted, K::HashWrite }
                                                               << int(End::ForceReleased) << int(Type::ForceReleased);
        QTest::newRow("expiry") << QList<K> { K::Expired, K::HashWrite } << int(End::Expired) << int(Type::Expired);
    }
    void holdEndFollowsTheKeysEvents()
    {
        QFETCH(QList<KeyEvent>, order);
        QFETCH(int, ended);
        QFETCH(int, type);
        LockRecord record = held(lock({ { kA, 2 } }));
        LockTracker::Signals seen = keyspace(order);
        const HoldEndJudge::Reading reading = HoldEndJudge::placeRead(record, lock({ { kB, 1 } }), seen);
        QVERIFY(reading.ordered);
        QVERIFY(reading.at.found);
        QCOMPARE(int(reading.ended), ended);
        QVERIFY(seen.keyEvents.isEmpty()); // every event came before the read
        const LockEvent end = HoldEndJudge::endOf(reading, kA, 2, -2);
        QCOMPARE(int(end.type), type);
        QCOMPARE(end.owner, kA);
        QCOMPARE(end.count, 0);
    }

    void eventsAfterTheReadAreLeftForTheNext()
    {
        LockRecord record = held(lock({ { kA, 1 } }));
        LockTracker::Signals seen = keyspace({});
        seen.note(KeyEvent::HashWrite);
        seen.note(KeyEvent::Deleted); // both arrived while a read that still shows A was on its way
        seen.releaseMessage = true;
        const HoldEndJudge::Reading reading = HoldEndJudge::placeRead(record, lock({ { kA, 1 } }), seen);
        QVERIFY(reading.at.found);
        QCOMPARE(reading.at.position, 0);
        QCOMPARE(reading.ended, End::Unseen);
        QCOMPARE(seen.keyEvents.size(), 2);
        QVERIFY(seen.releaseMessage); // the message goes with its deletion
    }

    void goneWithoutAnOrder_data()
    {
        QTest::addColumn<bool>("message");
        QTest::addColumn<bool>("deadlinePassed");
        QTest::addColumn<bool>("stringLock");
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("cleanly");
        QTest::addColumn<QString>("detail");
        QTest::newRow("wake-up message") << true << false << false << int(Type::Released) << true << QString();
        QTest::newRow("deadline passed, nothing heard")
            << false << true << false << int(Type::Expired) << false << QStringLiteral("the lease ran out");
        QTest::newRow("nothing heard: waiters asleep") << false << false << false << int(Type::ForceReleased) << true
                                                       << QStringLiteral("without a wake-up message");
        QTest::newRow("a string lock has no message")
            << false << false << true << int(Type::Released) << true << QString();
    }
    void goneWithoutAnOrder()
    {
        QFETCH(bool, message);
        QFETCH(bool, deadlinePassed);
        QFETCH(bool, stringLock);
        QFETCH(int, type);
        QFETCH(bool, cleanly);
        QFETCH(QString, detail);
        const LockRecord record
            = held(lock({ { kA, 1 } }, stringLock ? LockInfo::Kind::String : LockInfo::Kind::Reentrant));
        const HoldEndJudge::Gone gone = HoldEndJudge::gone(record, unordered(message), deadlinePassed);
        QCOMPARE(gone.judgement.events.size(), 1);
        QCOMPARE(int(gone.judgement.events.first().type), type);
        QCOMPARE(gone.judgement.events.first().owner, kA);
        QVERIFY(gone.judgement.events.first().detail.contains(detail));
        QCOMPARE(gone.cleanly, cleanly);
        QVERIFY(gone.judgement.warnings.isEmpty());
    }

    void goneByTheOrderEndsEveryReader()
    {
        LockRecord record = held(readers({ kA, kB }));
        LockTracker::Signals seen = keyspace({ KeyEvent::Expired });
        const HoldEndJudge::Reading reading = HoldEndJudge::placeRead(record, std::nullopt, seen);
        const HoldEndJudge::Gone gone = HoldEndJudge::gone(record, reading, false);
        QCOMPARE(types(gone.judgement.events), (QList<Type> { Type::Expired, Type::Expired }));
        QCOMPARE(owners(gone.judgement.events), (QList<QByteArray> { kA, kB }));
        QVERIFY(!gone.cleanly);
    }

    // NewHoldJudge: after an expiry, a new owner took over from one that may still believe it holds the lock.
    void newHoldAfterExpiryWarns()
    {
        LockRecord record;
        record.endedOwners = { kA };
        record.endedWithRelease = false;
        const Judgement j = NewHoldJudge::judge(record, lock({ { kB, 1 } }));
        QCOMPARE(types(j.events), (QList<Type> { Type::OwnerChanged, Type::Acquired }));
        QCOMPARE(j.events.first().owner, kB);
        QCOMPARE(j.events.first().previousOwner, kA);
        QCOMPARE(j.events.last().owner, kB);
        QCOMPARE(j.warnings.size(), 1);
        QVERIFY(j.warnings.first().contains(QStringLiteral("possible double holder")));
    }

    void newHoldAfterAReleaseIsAnAcquire()
    {
        LockRecord released;
        released.endedOwners = { kA };
        released.endedWithRelease = true;
        const Judgement j = NewHoldJudge::judge(released, lock({ { kB, 1 } }));
        QCOMPARE(types(j.events), QList<Type> { Type::Acquired });
        QVERIFY(j.warnings.isEmpty());

        LockRecord expired; // the same owner back after its own expiry took over from nobody
        expired.endedOwners = { kA };
        expired.endedWithRelease = false;
        const Judgement again = NewHoldJudge::judge(expired, lock({ { kA, 1 } }));
        QCOMPARE(types(again.events), QList<Type> { Type::Acquired });
        QVERIFY(again.warnings.isEmpty());
    }

    // TakeoverJudge: which changes it takes, and what it makes of them.
    void takeoverIsEveryHolderReplaced()
    {
        QVERIFY(TakeoverJudge::applies(lock({ { kA, 1 } }), lock({ { kB, 1 } }), unordered()));
        QVERIFY(!TakeoverJudge::applies(lock({ { kA, 1 } }), lock({ { kA, 1 }, { kB, 1 } }), unordered()));
        QVERIFY(!TakeoverJudge::applies(lock({ { kA, 1 } }), lock({ { kA, 2 } }), unordered()));
        // Readers that all changed with the key's events in order and no deletion among them took turns.
        HoldEndJudge::Reading turns;
        turns.ordered = true;
        turns.at.found = true;
        QVERIFY(!TakeoverJudge::applies(readers({ kA }), readers({ kB }), turns));
        QVERIFY(TakeoverJudge::applies(readers({ kA }), readers({ kB }), unordered()));
        // A deletion seen in between: a new hold, even for the same owner.
        HoldEndJudge::Reading deleted = turns;
        deleted.ended = End::Released;
        QVERIFY(TakeoverJudge::applies(lock({ { kA, 1 } }), lock({ { kA, 1 } }), deleted));
    }

    void takeoverWithoutAReleaseWarns()
    {
        const Judgement j = TakeoverJudge::judge(lock({ { kA, 1 } }), lock({ { kB, 1 } }), unordered(), false);
        QCOMPARE(types(j.events), (QList<Type> { Type::OwnerChanged, Type::Acquired }));
        QCOMPARE(j.events.first().previousOwner, kA);
        QCOMPARE(j.events.first().owner, kB);
        QCOMPARE(j.warnings.size(), 1);
        QVERIFY(j.warnings.first().contains(QStringLiteral("possible double holder")));

        // A lock that was there with nobody holding it (an idle fair lock's hash): a hold, nobody taken over from.
        const Judgement fromNobody = TakeoverJudge::judge(lock({}), lock({ { kB, 1 } }), unordered(), false);
        QCOMPARE(types(fromNobody.events), (QList<Type> { Type::Acquired }));
        QVERIFY(fromNobody.warnings.isEmpty());

        const Judgement expired = TakeoverJudge::judge(lock({ { kA, 1 } }), lock({ { kB, 1 } }), unordered(), true);
        QCOMPARE(types(expired.events), (QList<Type> { Type::Expired, Type::OwnerChanged, Type::Acquired }));
        QCOMPARE(expired.events.first().owner, kA);
        QCOMPARE(expired.warnings.size(), 1);
    }

    void takeoverAfterAReleaseIsAHandOff()
    {
        const Judgement j = TakeoverJudge::judge(lock({ { kA, 1 } }), lock({ { kB, 1 } }), unordered(true), false);
        QCOMPARE(types(j.events), (QList<Type> { Type::Released, Type::Acquired }));
        QCOMPARE(owners(j.events), (QList<QByteArray> { kA, kB }));
        QVERIFY(j.warnings.isEmpty());

        // A string lock says nothing when released: a token that changed before the lease ran out was released.
        const Judgement token = TakeoverJudge::judge(lock({ { kA, 1 } }, LockInfo::Kind::String),
            lock({ { kB, 1 } }, LockInfo::Kind::String), unordered(), false);
        QCOMPARE(types(token.events), (QList<Type> { Type::Released, Type::Acquired }));
        QVERIFY(token.warnings.isEmpty());

        // The order said the key was force released: the same owner took it again, nobody took over.
        HoldEndJudge::Reading forced;
        forced.ended = End::ForceReleased;
        const Judgement again = TakeoverJudge::judge(lock({ { kA, 1 } }), lock({ { kA, 1 } }), forced, false);
        QCOMPARE(types(again.events), (QList<Type> { Type::ForceReleased, Type::Acquired }));
        QVERIFY(again.warnings.isEmpty());
    }

    // HolderChangeJudge: levels and readers one by one.
    void levelsComeAndGo()
    {
        const HolderChangeJudge::Verdict up = HolderChangeJudge::judge(lock({ { kA, 1 } }), lock({ { kA, 2 } }));
        QCOMPARE(types(up.judgement.events), QList<Type> { Type::Reentered });
        QCOMPARE(up.judgement.events.first().count, 2);
        QVERIFY(up.countsChanged);
        QVERIFY(!up.holdersChanged);

        const HolderChangeJudge::Verdict down = HolderChangeJudge::judge(lock({ { kA, 3 } }), lock({ { kA, 1 } }));
        QCOMPARE(types(down.judgement.events), QList<Type> { Type::Released });
        QCOMPARE(down.judgement.events.first().count, 1);
        QVERIFY(down.judgement.events.first().detail.contains(QStringLiteral("still held")));
        QVERIFY(down.countsChanged);

        const HolderChangeJudge::Verdict same = HolderChangeJudge::judge(lock({ { kA, 2 } }), lock({ { kA, 2 } }));
        QVERIFY(same.judgement.events.isEmpty());
        QVERIFY(!same.countsChanged && !same.holdersChanged);
    }

    void readersComeAndGoOneByOne()
    {
        const HolderChangeJudge::Verdict joined = HolderChangeJudge::judge(readers({ kA }), readers({ kA, kB }));
        QCOMPARE(types(joined.judgement.events), QList<Type> { Type::Acquired });
        QCOMPARE(joined.judgement.events.first().owner, kB);
        QVERIFY(joined.holdersChanged);
        QVERIFY(!joined.countsChanged);

        const HolderChangeJudge::Verdict left = HolderChangeJudge::judge(readers({ kA, kB }), readers({ kB }));
        QCOMPARE(types(left.judgement.events), QList<Type> { Type::Released });
        QCOMPARE(left.judgement.events.first().owner, kA);
        QCOMPARE(left.judgement.events.first().count, 0);
        QVERIFY(left.holdersChanged);

        // Readers that took turns: the old ones released, the new ones acquired, nobody took over.
        const HolderChangeJudge::Verdict turns = HolderChangeJudge::judge(readers({ kA }), readers({ kB }));
        QCOMPARE(types(turns.judgement.events), (QList<Type> { Type::Released, Type::Acquired }));
        QCOMPARE(owners(turns.judgement.events), (QList<QByteArray> { kA, kB }));
        QVERIFY(turns.judgement.warnings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrackerJudgements)
#include "tst_trackerjudgements.moc"
