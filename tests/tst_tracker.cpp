// The history rules on reads built by hand: which events two successive reads of a lock make, how renewals turn
// into a watchdog guess, and which warnings a support engineer sees. (The key and channel names the live feed maps
// back to lock names: tst_locknamemap.)
#include "kinds/lockclassifier.h"
#include "models/locktexts.h"
#include "monitor/locktracker.h"
#include "translations.h"

#include <QTest>

using namespace LockScope;
using Type = LockEvent::Type;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kB = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";

LockInfo lock(QList<QPair<QByteArray, qint64>> holders, qint64 ttl, qint64 readAt)
{
    LockInfo info;
    info.name = "orders:42";
    info.kind = LockInfo::Kind::Reentrant;
    info.ttlMs = ttl;
    info.readAtMs = readAt;
    for (const auto &[owner, count] : holders) {
        LockHolder h;
        h.owner = owner;
        h.count = count;
        info.holders << h;
    }
    return info;
}

QList<Type> types(const QList<LockEvent> &events)
{
    QList<Type> t;
    for (const LockEvent &e : events)
        t << e.type;
    return t;
}

struct Run
{
    LockTracker tracker;
    LockRecord record {};
    bool changed = false;

    QList<LockEvent> read(const std::optional<LockInfo> &info, qint64 now, LockTracker::Signals seen = {})
    {
        return tracker.apply(record, info, seen, now, 1'800'000'000'000 + now, &changed);
    }
    // Keeps in `seen` what the read did not account for, as the monitor does.
    QList<LockEvent> readKeeping(const std::optional<LockInfo> &info, qint64 now, LockTracker::Signals &seen)
    {
        return tracker.apply(record, info, seen, now, 1'800'000'000'000 + now, &changed);
    }
};

// Keyspace events on the lock's own key, in order.
LockTracker::Signals keyspace(const QList<KeyEvent> &order)
{
    LockTracker::Signals seen;
    seen.keyspaceEvents = true;
    for (KeyEvent e : order)
        seen.note(e);
    seen.sentSeq = seen.lastSeq; // all of them had arrived when the read was sent
    return seen;
}

LockInfo fairLock(QList<QPair<QByteArray, qint64>> holders, qint64 ttl, qint64 readAt, QList<QByteArray> waiting)
{
    LockInfo info = lock(holders, ttl, readAt);
    if (!waiting.isEmpty()) {
        info.kind = LockInfo::Kind::Fair;
        info.confidence = LockInfo::Confidence::High;
    }
    for (const QByteArray &w : waiting)
        info.queue.append({ w, 1'800'000'300'000 });
    return info;
}
} // namespace

class TestTracker : public QObject
{
    Q_OBJECT
private slots:
    void firstSnapshotIsNotNews()
    {
        Run run;
        LockTracker::Signals initial;
        initial.initial = true;
        QVERIFY(run.read(lock({ { kA, 1 } }, 30000, 1000), 1000, initial).isEmpty());
        QVERIFY(run.changed);
        QVERIFY(run.record.present);
        QCOMPARE(run.record.remainingMs(11000), 20000); // from the deadline, not a counter
        QCOMPARE(run.record.watchdog, WatchdogGuess::Unknown);
    }

    void acquireReenterReleaseInOrder()
    {
        Run run;
        QCOMPARE(types(run.read(lock({ { kA, 1 } }, 30000, 1000), 1000)), QList<Type> { Type::Acquired });
        const QList<LockEvent> reenter = run.read(lock({ { kA, 2 } }, 30000, 2000), 2000);
        QCOMPARE(types(reenter), QList<Type> { Type::Reentered });
        QCOMPARE(reenter.first().count, 2);
        QCOMPARE(types(run.read(lock({ { kA, 1 } }, 29000, 3000), 3000)), QList<Type> { Type::Released });
        LockTracker::Signals message;
        message.releaseMessage = true;
        const QList<LockEvent> gone = run.read(std::nullopt, 4000, message);
        QCOMPARE(types(gone), QList<Type> { Type::Released });
        QCOMPARE(gone.first().owner, kA);
        QVERIFY(!run.record.present);
        QCOMPARE(run.record.timeline.size(), 4);
    }

    void vanishingIsJudgedByWhatWasSeen()
    {
        LockTracker::Signals message, expired, nothing;
        message.releaseMessage = true;
        expired.note(KeyEvent::Expired);
        {
            Run run; // keyspace events: an unlock decrements right before it deletes
            LockTracker::Signals unlocked = keyspace({ KeyEvent::HashWrite, KeyEvent::Deleted });
            unlocked.releaseMessage = true;
            run.read(lock({ { kA, 1 } }, 30000, 0), 0);
            QCOMPARE(types(run.read(std::nullopt, 1000, unlocked)), QList<Type> { Type::Released });
        }
        {
            Run run; // keyspace events: deleted with no decrement, yet a message: Redisson's forceUnlock
            LockTracker::Signals forced = keyspace({ KeyEvent::Deleted });
            forced.releaseMessage = true;
            run.read(lock({ { kA, 2 } }, 30000, 0), 0);
            const QList<LockEvent> e = run.read(std::nullopt, 1000, forced);
            QCOMPARE(types(e), QList<Type> { Type::ForceReleased });
            QVERIFY(e.first().detail.contains(QStringLiteral("unlock will fail")));
        }
        {
            Run run; // without keyspace events, nested unlocks between two reads look the same as one
            run.read(lock({ { kA, 2 } }, 30000, 0), 0);
            QCOMPARE(types(run.read(std::nullopt, 1000, message)), QList<Type> { Type::Released });
        }
        {
            Run run; // a plain DEL: no wake-up message, waiters left asleep
            run.read(lock({ { kA, 1 } }, 30000, 0), 0);
            const QList<LockEvent> e = run.read(std::nullopt, 1000, nothing);
            QCOMPARE(types(e), QList<Type> { Type::ForceReleased });
            QVERIFY(e.first().detail.contains(QStringLiteral("without a wake-up message")));
        }
        {
            Run run; // the keyspace "expired" event
            run.read(lock({ { kA, 1 } }, 30000, 0), 0);
            QCOMPARE(types(run.read(std::nullopt, 1000, expired)), QList<Type> { Type::Expired });
        }
        {
            Run run; // no event at all, but the deadline has passed
            run.read(lock({ { kA, 1 } }, 500, 0), 0);
            QCOMPARE(types(run.read(std::nullopt, 600, nothing)), QList<Type> { Type::Expired });
        }
    }

    void expiryThenNewOwnerWarnsOfADoubleHolder()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 500, 0), 0);
        run.read(std::nullopt, 600);
        QVERIFY(!run.record.endedWithRelease);
        const QList<LockEvent> e = run.read(lock({ { kB, 1 } }, 30000, 700), 700);
        QCOMPARE(types(e), (QList<Type> { Type::OwnerChanged, Type::Acquired }));
        QCOMPARE(e.first().previousOwner, kA);
        QCOMPARE(e.first().owner, kB);
        QCOMPARE(run.record.warnings().size(), 1);
        QVERIFY(run.record.warnings().first().contains(QStringLiteral("possible double holder")));

        // The next owner after a clean release brings no warning, and the old one is dropped.
        LockTracker::Signals message;
        message.releaseMessage = true;
        run.read(std::nullopt, 800, message);
        QCOMPARE(types(run.read(lock({ { kA, 1 } }, 30000, 900), 900)), QList<Type> { Type::Acquired });
        QVERIFY(run.record.warnings().isEmpty());
    }

    void ownerReplacedBetweenTwoReads()
    {
        Run run; // polling saw A, then B, and nothing in between
        run.read(lock({ { kA, 1 } }, 30000, 0), 0);
        QCOMPARE(types(run.read(lock({ { kB, 1 } }, 30000, 1000), 1000)),
            (QList<Type> { Type::OwnerChanged, Type::Acquired }));
        QCOMPARE(run.record.warnings().size(), 1);

        Run clean; // the same with the release message seen: a normal hand-off
        LockTracker::Signals message;
        message.releaseMessage = true;
        clean.read(lock({ { kA, 1 } }, 30000, 0), 0);
        QCOMPARE(types(clean.read(lock({ { kB, 1 } }, 30000, 1000), 1000, message)),
            (QList<Type> { Type::Released, Type::Acquired }));
        QVERIFY(clean.record.warnings().isEmpty());
    }

    // Issue 15, point 13: with keyspace events the order of the key's own events says how a hold ended, however
    // late the read that shows the next holder comes.
    void keyspaceOrderTellsHowAHoldEnded_data()
    {
        QTest::addColumn<QList<KeyEvent>>("order");
        QTest::addColumn<bool>("goneAtRead");
        QTest::addColumn<QList<Type>>("expected");
        QTest::addColumn<bool>("warned");
        using K = KeyEvent;
        const QList<K> unlock { K::HashWrite, K::Deleted }, acquire { K::HashWrite, K::OtherWrite };
        QTest::newRow("release then acquire")
            << unlock + acquire << false << QList<Type> { Type::Released, Type::Acquired } << false;
        QTest::newRow("renewed, force released, then acquired")
            << QList<K> { K::OtherWrite, K::Deleted } + acquire << false
            << QList<Type> { Type::ForceReleased, Type::Acquired } << false;
        QTest::newRow("force release first, then acquire")
            << QList<K> { K::Deleted } + acquire << false << QList<Type> { Type::ForceReleased, Type::Acquired }
            << false;
        QTest::newRow("expiry then acquire")
            << QList<K> { K::Expired } + acquire << false
            << QList<Type> { Type::Expired, Type::OwnerChanged, Type::Acquired } << true;
        // Two holds came and went: the first deletion ended the one the monitor knew.
        QTest::newRow("release, another hold, force release, acquire")
            << unlock + acquire + QList<K> { K::Deleted } + acquire << false
            << QList<Type> { Type::Released, Type::Acquired } << false;
        QTest::newRow("release, key gone") << unlock << true << QList<Type> { Type::Released } << false;
        QTest::newRow("force release, key gone")
            << QList<K> { K::OtherWrite, K::Deleted } << true << QList<Type> { Type::ForceReleased } << false;
        QTest::newRow("expiry, key gone") << QList<K> { K::Expired } << true << QList<Type> { Type::Expired } << false;
    }
    void keyspaceOrderTellsHowAHoldEnded()
    {
        QFETCH(QList<KeyEvent>, order);
        QFETCH(bool, goneAtRead);
        QFETCH(QList<Type>, expected);
        QFETCH(bool, warned);
        Run run;
        run.read(lock({ { kA, 1 } }, 30000, 0), 0);
        // No release message was seen (a fair release publishes on its head waiter's channel, which may come late),
        // and the lease is far from over.
        LockTracker::Signals seen = keyspace(order);
        QVERIFY(!run.tracker.awaitsEvidence(
            run.record, goneAtRead ? std::nullopt : std::optional(lock({ { kB, 1 } }, 30000, 1000)), seen, 1000));
        const QList<LockEvent> e = goneAtRead ? run.readKeeping(std::nullopt, 1000, seen)
                                              : run.readKeeping(lock({ { kB, 1 } }, 30000, 1000), 1000, seen);
        QCOMPARE(types(e), expected);
        QCOMPARE(e.first().owner, kA);
        QCOMPARE(run.record.warnings().join(QString()).contains(QStringLiteral("possible double holder")), warned);
        QVERIFY(seen.keyEvents.isEmpty()); // every event came before the read
    }

    void anUnlockThatLeavesLevelsIsNoEnd()
    {
        Run run;
        run.read(lock({ { kA, 2 } }, 30000, 0), 0);
        LockTracker::Signals seen = keyspace({ KeyEvent::HashWrite, KeyEvent::OtherWrite });
        const QList<LockEvent> e = run.readKeeping(lock({ { kA, 1 } }, 30000, 1000), 1000, seen);
        QCOMPARE(types(e), QList<Type> { Type::Released });
        QCOMPARE(e.first().count, 1);
        QVERIFY(run.record.present);
    }

    void theSameOwnerAgainIsANewHold()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 30000, 0), 0);
        LockTracker::Signals seen = keyspace({ KeyEvent::HashWrite, KeyEvent::Deleted, KeyEvent::HashWrite });
        QCOMPARE(types(run.readKeeping(lock({ { kA, 1 } }, 30000, 1000), 1000, seen)),
            (QList<Type> { Type::Released, Type::Acquired }));
    }

    // The read came back before the events that explain it (another connection): it waits for them, and is then
    // judged by their order.
    void aReadAheadOfItsEventsWaitsForThem()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 30000, 0), 0);
        LockTracker::Signals seen = keyspace({ KeyEvent::HashWrite }); // the unlock's DEL is still on its way
        const LockInfo b = lock({ { kB, 1 } }, 30000, 1000);
        QVERIFY(run.tracker.awaitsEvidence(run.record, b, seen, 1000));
        QVERIFY(run.tracker.awaitsEvidence(run.record, std::nullopt, seen, 1000));
        seen.note(KeyEvent::Deleted);
        seen.note(KeyEvent::HashWrite);
        QVERIFY(!run.tracker.awaitsEvidence(run.record, b, seen, 1000));
        QCOMPARE(types(run.readKeeping(b, 1000, seen)), (QList<Type> { Type::Released, Type::Acquired }));
        QVERIFY(run.record.warnings().isEmpty());

        // Events that never come (lost with a reconnect): once the feed has caught up, the old rules judge.
        Run lost;
        lost.read(lock({ { kA, 1 } }, 30000, 0), 0);
        LockTracker::Signals nothing = keyspace({});
        QVERIFY(lost.tracker.awaitsEvidence(lost.record, b, nothing, 1000));
        QCOMPARE(types(lost.readKeeping(b, 1000, nothing)), (QList<Type> { Type::OwnerChanged, Type::Acquired }));
    }

    // Events that arrived after the read was sent may have happened after the server ran it: a read that fits
    // before them leaves them for the next read.
    void eventsAfterTheReadWaitForTheNextOne()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 30000, 0), 0);
        LockTracker::Signals seen = keyspace({});
        seen.note(KeyEvent::HashWrite);
        seen.note(KeyEvent::Deleted); // both arrived while the read was on its way; it still shows A
        QVERIFY(run.readKeeping(lock({ { kA, 1 } }, 29900, 100), 100, seen).isEmpty());
        QCOMPARE(seen.keyEvents.size(), 2);
        seen.sentSeq = seen.lastSeq; // the next read is sent after them
        QCOMPARE(types(run.readKeeping(std::nullopt, 200, seen)), QList<Type> { Type::Released });
        QVERIFY(seen.keyEvents.isEmpty());

        // An unlock's DEL split from its hash write by a read: the order carries over.
        Run split;
        split.read(lock({ { kA, 1 } }, 30000, 0), 0);
        LockTracker::Signals first = keyspace({ KeyEvent::HashWrite });
        split.readKeeping(lock({ { kA, 1 } }, 29900, 100), 100, first);
        LockTracker::Signals second = keyspace({ KeyEvent::Deleted });
        QCOMPARE(types(split.readKeeping(std::nullopt, 200, second)), QList<Type> { Type::Released });
    }

    // Issue 15, point 12: a fair lock's queue and timeout set vanish whenever nobody waits; what was seen fair stays
    // fair, until a layout no fair lock has shows up.
    void aFairLockStaysFair()
    {
        Run run;
        run.read(fairLock({ { kA, 1 } }, 30000, 0, { kB }), 0);
        QCOMPARE(run.record.info.kind, LockInfo::Kind::Fair);
        run.read(fairLock({ { kB, 1 } }, 30000, 100, {}), 100); // B took it; nobody waits now
        QCOMPARE(run.record.info.kind, LockInfo::Kind::Fair);
        QCOMPARE(run.record.info.confidence, LockInfo::Confidence::High);
        QVERIFY(run.record.info.evidence.join(QString()).contains(QStringLiteral("fair queue before")));
        LockTracker::Signals message;
        message.releaseMessage = true;
        run.read(std::nullopt, 200, message);
        run.read(fairLock({ { kA, 1 } }, 30000, 300, {}), 300); // idle, and taken again
        QCOMPARE(run.record.info.kind, LockInfo::Kind::Fair);

        LockInfo fenced = lock({ { kA, 1 } }, 30000, 400);
        fenced.kind = LockInfo::Kind::Fenced;
        run.read(fenced, 400);
        QCOMPARE(run.record.info.kind, LockInfo::Kind::Fenced);
        run.read(fairLock({ { kA, 1 } }, 30000, 500, {}), 500);
        QCOMPARE(run.record.info.kind, LockInfo::Kind::Reentrant);
    }

    void renewalsMakeTheWatchdogLikely()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 3000, 0), 0);
        QCOMPARE(run.record.watchdog, WatchdogGuess::Unknown);
        // 1 s later the TTL is back at the lease: renewed.
        const QList<LockEvent> e = run.read(lock({ { kA, 1 } }, 3000, 1000), 1000);
        QCOMPARE(types(e), QList<Type> { Type::Renewed });
        QCOMPARE(run.record.watchdog, WatchdogGuess::Likely);
        QCOMPARE(run.record.renewals, 1);
        // Counting down as expected is no event and no visible change.
        QVERIFY(run.read(lock({ { kA, 1 } }, 2500, 1500), 1500).isEmpty());
        QVERIFY(!run.changed);
        // Renewals stop: below 2/3 of the lease (minus tolerance) the warning appears, and goes with a renewal.
        QVERIFY(run.tracker.observeTtl(run.record, 1500, 2500));
        QVERIFY(run.record.warnings().join(QString()).contains(QStringLiteral("renewals failing")));
        run.read(lock({ { kA, 1 } }, 3000, 2600), 2600);
        QVERIFY(run.record.renewalWarning.isEmpty());
    }

    // A renewal half a period or more past the holder's own rhythm is a gap (a pause it survived), said by how much;
    // one on time after it is not.
    void aLateRenewalIsAGap()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 3000, 0), 0);
        for (const qint64 t : { 1000, 2000, 3000 }) {
            const QList<LockEvent> e = run.read(lock({ { kA, 1 } }, 3000, t), t);
            QCOMPARE(types(e), QList<Type> { Type::Renewed });
            QCOMPARE(e.first().lateMs, -1);
        }
        // 1.4 periods: late, but not a gap.
        QList<LockEvent> e = run.read(lock({ { kA, 1 } }, 3000, 4400), 4400);
        QCOMPARE(types(e), QList<Type> { Type::Renewed });
        QCOMPARE(e.first().lateMs, -1);
        e = run.read(lock({ { kA, 1 } }, 3000, 6000), 6000);
        QCOMPARE(types(e), QList<Type> { Type::Renewed });
        QCOMPARE(e.first().lateMs, 600);
        QVERIFY2(e.first().detail.contains(QStringLiteral("later than its usual")), qPrintable(e.first().detail));
        e = run.read(lock({ { kA, 1 } }, 3000, 7000), 7000);
        QCOMPARE(e.first().lateMs, -1);
    }

    void aFixedLeaseIsNoWatchdog()
    {
        Run run;
        run.read(lock({ { kA, 1 } }, 3000, 0), 0);
        run.read(lock({ { kA, 1 } }, 2500, 500), 500);
        QCOMPARE(run.record.watchdog, WatchdogGuess::Unknown); // too early to tell
        QVERIFY(run.tracker.observeTtl(run.record, 1800, 1200));
        QCOMPARE(run.record.watchdog, WatchdogGuess::No); // a third of the lease passed with no jump
        QVERIFY(run.record.renewalWarning.isEmpty()); // nobody promised renewals
    }

    void readersComeAndGo()
    {
        Run run;
        LockInfo one = lock({ { kA, 1 } }, 30000, 0);
        one.kind = LockInfo::Kind::ReadWrite;
        one.mode = "read";
        run.read(one, 0);
        LockInfo two = lock({ { kA, 1 }, { kB, 1 } }, 30000, 100);
        two.kind = LockInfo::Kind::ReadWrite;
        two.mode = "read";
        QCOMPARE(types(run.read(two, 100)), QList<Type> { Type::Acquired });
        LockInfo back = lock({ { kB, 1 } }, 30000, 200);
        back.kind = LockInfo::Kind::ReadWrite;
        back.mode = "read";
        QCOMPARE(types(run.read(back, 200)), QList<Type> { Type::Released });
        QVERIFY(run.record.warnings().isEmpty());
    }

    void fairQueueChanges()
    {
        Run run;
        LockInfo a = lock({ { kA, 1 } }, 30000, 0);
        a.kind = LockInfo::Kind::Fair;
        run.read(a, 0);
        LockInfo queued = a;
        queued.readAtMs = 100;
        queued.ttlMs = 29900;
        queued.queue = { { kB, 1'800'000'005'000 } };
        const QList<LockEvent> e = run.read(queued, 100);
        QCOMPARE(types(e), QList<Type> { Type::QueueChanged });
        QVERIFY(run.changed);
    }

    void timelineIsBounded()
    {
        Run run { LockTracker(5) };
        for (int i = 0; i < 20; ++i) {
            run.read(lock({ { kA, 1 } }, 30000, i * 10), i * 10);
            LockTracker::Signals message;
            message.releaseMessage = true;
            run.read(std::nullopt, i * 10 + 5, message);
        }
        QCOMPARE(run.record.timeline.size(), 5);
        QCOMPARE(run.record.timeline.last().type, Type::Released);
    }

    // Last: it switches the process to Chinese. Every text the monitor shows is found under the context lupdate
    // filed it in (a helper named tr() outside a class once hid the classifier's translations).
    void chineseShips()
    {
        QVERIFY(I18n::install(QStringLiteral("zh_CN")));
        KeySnapshot k;
        k.name = "orders:42";
        k.type = "hash";
        k.fields = { { kA, "1" } };
        k.pttlMs = 25000;
        const LockInfo info = classify(k);
        QVERIFY2(info.evidence.join(QString()).contains(QStringLiteral("有 TTL")), qPrintable(info.evidence.join(';')));
        Run run;
        run.read(lock({ { kA, 1 } }, 500, 0), 0);
        QCOMPARE(run.read(std::nullopt, 600).first().detail, QStringLiteral("租期已到"));
        run.read(lock({ { kB, 1 } }, 30000, 700), 700);
        QVERIFY(run.record.warnings().join(QString()).contains(QStringLiteral("可能出现双重持有")));
        QCOMPARE(LockTexts::kindText(LockInfo::Kind::Reentrant), QStringLiteral("可重入"));
    }
};

QTEST_GUILESS_MAIN(TestTracker)
#include "tst_tracker.moc"
