// The monitor's read judge without a server: which events ask for a read, when a read waits for the evidence that
// explains it (the feeds' events, or a wake-up message still on its way) and what it means once judged, a console's
// own force release told as such, and which TTL polls ask for a full read. Time is passed in: nothing waits.
#include "monitor/readjudge.h"

#include <QTest>

using namespace LockScope;
using Type = LockEvent::Type;
using Touch = LockEventFeed::Touch;
using Outcome = ReadJudge::Outcome;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kName = "locks:orders";
constexpr qint64 kEpoch = 1'800'000'000'000;

LockInfo lock(const QByteArray &owner, qint64 ttl = 30000)
{
    LockInfo info;
    info.name = kName;
    info.kind = LockInfo::Kind::Reentrant;
    info.confidence = LockInfo::Confidence::High;
    info.ttlMs = ttl;
    LockHolder h;
    h.owner = owner;
    h.count = 1;
    info.holders << h;
    return info;
}

// A lock the judge has seen held by A since time 0, its lease far from over.
LockRecord heldByA()
{
    LockRecord record;
    record.info = lock(kA);
    record.present = true;
    record.deadlineMs = 30000;
    record.leaseMs = 30000;
    return record;
}

ReadJudge::Feeds keyspaceEvents()
{
    ReadJudge::Feeds feeds;
    feeds.keyspaceEvents = true;
    return feeds;
}

ReadJudge::Feeds wakeUpMessagesOnly()
{
    return {};
}

ReadJudge::Read gone(bool synced = false)
{
    ReadJudge::Read read;
    read.refreshed = true;
    read.synced = synced;
    return read;
}

QList<Type> types(const QList<LockEvent> &events)
{
    QList<Type> t;
    for (const LockEvent &e : events)
        t << e.type;
    return t;
}
} // namespace

class TestReadJudge : public QObject
{
    Q_OBJECT
private slots:
    void eventsAskForReadsOfWhatMayBeALock()
    {
        ReadJudge judge("locks:*", 100);
        QVERIFY(!judge.noteTouch("cache:1", nullptr, Touch::Changed, "hset", false)); // outside the pattern
        QVERIFY(judge.noteTouch("locks:1", nullptr, Touch::Changed, "hset", false)); // a hash write may create one
        QVERIFY(!judge.noteTouch("locks:1", nullptr, Touch::Changed, "set", false)); // a lock is no plain string write
        QVERIFY(judge.noteTouch("locks:1", nullptr, Touch::Changed, "expire", false)); // its TTL set afterwards
        QVERIFY(!judge.noteTouch("locks:1", nullptr, Touch::Deleted, "del", false)); // never a lock we knew
        judge.noteNotLocks({ "locks:1" });
        QVERIFY(!judge.noteTouch("locks:1", nullptr, Touch::Changed, "hincrby", false)); // user data: read once
        const LockRecord known = heldByA();
        QVERIFY(judge.noteTouch(kName, &known, Touch::Deleted, "del", false));
        QVERIFY(judge.noteTouch(kName, &known, Touch::ReleaseMessage, {}, false));
    }

    // With keyspace events a read that shows the lock gone before its deletion arrived is held until the feeds
    // caught up, then judged by the order of the key's events.
    void aReadAheadOfItsEventsIsHeldForTheFeeds()
    {
        ReadJudge judge("*", 100);
        LockRecord record = heldByA();
        judge.noteTouch(kName, &record, Touch::Changed, "hincrby", false);
        judge.readSent(kName);
        const ReadJudge::Verdict held = judge.judge(kName, record, gone(), keyspaceEvents(), 1000, kEpoch);
        QCOMPARE(held.outcome, Outcome::HoldForFeeds);
        QVERIFY(held.events.isEmpty());
        QVERIFY(record.present); // nothing judged yet
        QVERIFY(judge.isWaiting());
        QVERIFY(!judge.takeHeld(kName, held.ticket + 1)); // not this hold's ticket

        judge.noteTouch(kName, &record, Touch::Deleted, "del", false); // the unlock's DEL, on the feed's connection
        const std::optional<ReadJudge::Read> read = judge.takeHeld(kName, held.ticket);
        QVERIFY(read);
        QVERIFY(!judge.isWaiting());
        ReadJudge::Read synced = *read;
        synced.synced = true;
        const ReadJudge::Verdict judged = judge.judge(kName, record, synced, keyspaceEvents(), 1010, kEpoch);
        QCOMPARE(judged.outcome, Outcome::Judged);
        QCOMPARE(types(judged.events), QList<Type> { Type::Released }); // a write, then DEL: an unlock
        QCOMPARE(judged.events.first().owner, kA);
        QVERIFY(judged.changed);
        QVERIFY(!record.present);
    }

    void aNewerReadSupersedesAHeldOne()
    {
        ReadJudge judge("*", 100);
        LockRecord record = heldByA();
        const ReadJudge::Verdict held = judge.judge(kName, record, gone(), keyspaceEvents(), 1000, kEpoch);
        QCOMPARE(held.outcome, Outcome::HoldForFeeds);
        judge.readSent(kName);
        QVERIFY(!judge.takeHeld(kName, held.ticket));
    }

    // Events that arrived after a read was sent may have happened after the server ran it: they wait for the next
    // read, while those that arrived before it count.
    void eventsBeforeTheReadCountAndLaterOnesWait()
    {
        ReadJudge judge("*", 100);
        const auto unlockAndRelock = [&judge](LockRecord &record) {
            judge.noteTouch(kName, &record, Touch::Changed, "hincrby", false);
            judge.noteTouch(kName, &record, Touch::Deleted, "del", false);
            judge.noteTouch(kName, &record, Touch::Changed, "hincrby", false);
        };
        ReadJudge::Read showsA;
        showsA.info = lock(kA, 29000);
        showsA.refreshed = true;

        LockRecord before = heldByA();
        unlockAndRelock(before);
        judge.readSent(kName); // A released and took it again before the read was sent: a new hold
        ReadJudge::Verdict v = judge.judge(kName, before, showsA, keyspaceEvents(), 1000, kEpoch);
        QCOMPARE(types(v.events), (QList<Type> { Type::Released, Type::Acquired }));

        LockRecord after = heldByA();
        judge.readSent(kName);
        unlockAndRelock(after); // while the read was on its way: it may show A before them
        v = judge.judge(kName, after, showsA, keyspaceEvents(), 1000, kEpoch);
        QVERIFY(v.events.isEmpty());
        judge.readSent(kName); // the next read is sent after them
        v = judge.judge(kName, after, showsA, keyspaceEvents(), 1100, kEpoch);
        QCOMPARE(types(v.events), (QList<Type> { Type::Released, Type::Acquired }));

        LockRecord scanned = heldByA(); // a pass's read: when it was sent is not known
        unlockAndRelock(scanned);
        judge.readSent(kName);
        ReadJudge::Read pass = showsA;
        pass.refreshed = false;
        v = judge.judge(kName, scanned, pass, keyspaceEvents(), 1000, kEpoch);
        QVERIFY(v.events.isEmpty());
    }

    // Without keyspace events a vanished lock with no explanation waits briefly for its wake-up message, then is
    // judged with what there is.
    void aVanishedLockWaitsForItsWakeUpMessage()
    {
        ReadJudge judge("*", 100);
        LockRecord record = heldByA();
        const ReadJudge::Verdict first = judge.judge(kName, record, gone(), wakeUpMessagesOnly(), 1000, kEpoch);
        QCOMPARE(first.outcome, Outcome::WaitForWakeUp);
        QVERIFY(record.present);
        QCOMPARE(judge.judge(kName, record, gone(), wakeUpMessagesOnly(), 1100, kEpoch).outcome, Outcome::Waiting);
        qint64 next = 0;
        QVERIFY(judge.graceOver(1000 + ReadJudge::kWakeUpGraceMs - 1, &next).isEmpty());
        QCOMPARE(next, 1000 + ReadJudge::kWakeUpGraceMs);
        QCOMPARE(judge.graceOver(next, &next), QList<QByteArray> { kName });
        QCOMPARE(next, -1);
        const ReadJudge::Verdict last = judge.judge(kName, record, gone(), wakeUpMessagesOnly(), 1300, kEpoch);
        QCOMPARE(last.outcome, Outcome::Judged);
        QCOMPARE(types(last.events), QList<Type> { Type::ForceReleased });
        QVERIFY(last.events.first().detail.contains(QStringLiteral("without a wake-up message")));
        QVERIFY(!judge.isWaiting());

        // With the message already heard there is nothing to wait for.
        LockRecord released = heldByA();
        judge.noteTouch(kName, &released, Touch::ReleaseMessage, {}, false);
        const ReadJudge::Verdict now = judge.judge(kName, released, gone(), wakeUpMessagesOnly(), 2000, kEpoch);
        QCOMPARE(now.outcome, Outcome::Judged);
        QCOMPARE(types(now.events), QList<Type> { Type::Released });
    }

    void aConsolesOwnForceReleaseIsToldAsSuch()
    {
        ReadJudge judge("*", 100);
        LockRecord record = heldByA();
        judge.attributeNextEnd(kName, QStringLiteral("force-released by this console"), 60000);
        judge.noteTouch(kName, &record, Touch::ReleaseMessage, {}, false);
        const ReadJudge::Verdict v = judge.judge(kName, record, gone(), wakeUpMessagesOnly(), 1000, kEpoch);
        QCOMPARE(types(v.events), QList<Type> { Type::ForceReleased });
        QCOMPARE(v.events.first().detail, QStringLiteral("force-released by this console"));
        QCOMPARE(record.timeline.last().type, Type::ForceReleased); // the timeline tells the same

        // Used once: the next end is judged from outside again.
        record = heldByA();
        judge.noteTouch(kName, &record, Touch::ReleaseMessage, {}, false);
        QCOMPARE(types(judge.judge(kName, record, gone(), wakeUpMessagesOnly(), 2000, kEpoch).events),
            QList<Type> { Type::Released });
    }

    void renewalsVouchForALowConfidenceLock()
    {
        ReadJudge judge("*", 100);
        LockRecord record = heldByA();
        record.renewals = 2;
        LockInfo low = lock(kA, 29000);
        low.confidence = LockInfo::Confidence::Low;
        ReadJudge::Read read;
        read.info = low;
        read.refreshed = true;
        const ReadJudge::Verdict v = judge.judge(kName, record, read, wakeUpMessagesOnly(), 1000, kEpoch);
        QCOMPARE(v.outcome, Outcome::Judged);
        QCOMPARE(record.info.confidence, LockInfo::Confidence::High);

        // The renewal this very read shows vouches too.
        LockRecord first = heldByA();
        first.info.confidence = LockInfo::Confidence::Low;
        first.deadlineMs = 20000;
        read.info->ttlMs = 30000; // 1 s after the last read: back at the lease
        const ReadJudge::Verdict renewed = judge.judge(kName, first, read, wakeUpMessagesOnly(), 1000, kEpoch);
        QCOMPARE(types(renewed.events), QList<Type> { Type::Renewed });
        QCOMPARE(first.info.confidence, LockInfo::Confidence::High);
        QVERIFY(renewed.changed);
    }

    void aFairQueueWithoutItsLock()
    {
        ReadJudge judge("*", 100);
        const LockRecord held = heldByA();
        QCOMPARE(judge.orphanedQueue(kName, &held), ReadJudge::Orphan::EndHold);
        QCOMPARE(judge.orphanedQueue(kName, nullptr), ReadJudge::Orphan::Judge);
        LockRecord idle = heldByA();
        idle.info.holders.clear();
        QCOMPARE(judge.orphanedQueue(kName, &idle), ReadJudge::Orphan::Judge);
        judge.waitForWakeUp(kName, 2000); // waiting for its head to take the lock
        QCOMPARE(judge.orphanedQueue(kName, &held), ReadJudge::Orphan::Defer);
    }

    void pollsThatMissTheDeadlineAreReadAgain()
    {
        ReadJudge judge("*", 100);
        LockRecordStore store(100, 100);
        for (const QByteArray name : { "steady", "renewed", "waited", "gone" }) {
            LockRecord &r = store.obtain(name);
            r = heldByA();
            r.info.name = name;
            r.present = QByteArray(name) != "gone";
            store.notePresence(name, false, r.present);
        }
        TtlReadings readings;
        readings.sentAtMs = 1000;
        readings.ttls = { { "steady", 29000 }, { "renewed", 35000 }, { "waited", 29000 }, { "gone", 1 } };
        readings.waiters = { { "waited", 2 } };
        const ReadJudge::Polls polls = judge.judgePolls(store, readings, 1000);
        QCOMPARE(polls.reread, QList<QByteArray> { "renewed" }); // a TTL above its deadline: a full read tells why
        QCOMPARE(polls.changed, QList<QByteArray> { "waited" });
        QCOMPARE(store.find("waited")->info.waiters, 2);
    }
};

QTEST_GUILESS_MAIN(TestReadJudge)
#include "tst_readjudge.moc"
