// The monitor's parts on their own, without a server: the record store keeps vanished locks' timelines only up to its
// limit, oldest first, and never one whose change is still to be announced; the refresh queue reads a key named
// twice once, in batches, one batch at a time; the pass scheduler waits for the nodes, and runs one more pass when
// asked during one; the pass tally names the present locks a pass did not meet; and a listener hears every namespace a
// writer of the fleet may publish a release on.
#include "monitor/lockrecordstore.h"
#include "monitor/passscheduler.h"
#include "monitor/passtally.h"
#include "monitor/refreshqueue.h"
#include "redis/publishmoderesolver.h"

#include <QSignalSpy>
#include <QTest>

using namespace LockScope;

class TestMonitorParts : public QObject
{
    Q_OBJECT

    static void setPresent(LockRecordStore &store, const QByteArray &name, bool present)
    {
        LockRecord &r = store.obtain(name);
        const bool was = r.present;
        r.present = present;
        store.notePresence(name, was, present);
    }

private slots:
    void storeCountsAndForgetsTheOldestGone()
    {
        LockRecordStore store(3, 2);
        for (const QByteArray name : { "a", "b", "c", "d" })
            setPresent(store, name, true);
        QCOMPARE(store.presentCount(), 4);
        QCOMPARE(store.presentNames().size(), 4);
        setPresent(store, "a", false);
        setPresent(store, "b", false);
        setPresent(store, "c", false);
        QCOMPARE(store.presentCount(), 1);
        // Three gone, two kept: the oldest goes, unless its change is still to be announced.
        store.forgetGone({ "a" });
        QVERIFY(store.find("a"));
        QVERIFY(store.find("b"));
        store.forgetGone({});
        QVERIFY(store.find("b"));
        QVERIFY(store.find("c"));
        QVERIFY(store.isPresent("d"));
        setPresent(store, "d", false);
        store.forgetGone({});
        QVERIFY(!store.find("b"));
        QVERIFY(store.find("c") && store.find("d"));
        // Back before it was forgotten: present again, and counted.
        setPresent(store, "c", true);
        QCOMPARE(store.presentCount(), 1);
    }

    void storeKeepsTimelinesToTheirLength()
    {
        LockRecordStore store(3, 10);
        LockEvent e;
        e.name = "a";
        QVERIFY(!store.appendToTimeline(e)); // unknown lock: nothing to append to
        setPresent(store, "a", true);
        for (int i = 0; i < 5; ++i) {
            e.timeMs = i;
            QVERIFY(store.appendToTimeline(e));
        }
        QCOMPARE(store.find("a")->timeline.size(), 3);
        QCOMPARE(store.find("a")->timeline.first().timeMs, 2);
        QCOMPARE(store.find("a")->info.name, QByteArray("a"));
    }

    void refreshQueueReadsEachKeyOnceInBatches()
    {
        bool idle = true;
        RefreshQueue queue([&idle] { return idle; });
        QSignalSpy batches(&queue, &RefreshQueue::batchReady);
        for (int i = 0; i < 700; ++i)
            queue.mark(QByteArray::number(i));
        queue.mark("0"); // named again before its read: read once
        QTRY_COMPARE(batches.size(), 1);
        const QList<QByteArray> first = batches.at(0).at(0).value<QList<QByteArray>>();
        QCOMPARE(first.size(), 500);
        QCOMPARE(first.first(), QByteArray("0"));
        // One batch at a time: nothing more until its answer.
        queue.mark("late");
        QCoreApplication::processEvents();
        QCOMPARE(batches.size(), 1);
        QCOMPARE(queue.takeAnswered(), first);
        queue.continueNow();
        QTRY_COMPARE(batches.size(), 2);
        const QList<QByteArray> second = batches.at(1).at(0).value<QList<QByteArray>>();
        QCOMPARE(second.size(), 201);
        QCOMPARE(second.last(), QByteArray("late"));
        // Read, it may be named again.
        queue.takeAnswered();
        idle = false; // the reader is busy: the batch waits
        queue.mark("0");
        QCoreApplication::processEvents();
        QCOMPARE(batches.size(), 2);
        idle = true;
        queue.continueNow();
        QTRY_COMPARE(batches.size(), 3);
        QCOMPARE(batches.at(2).at(0).value<QList<QByteArray>>(), QList<QByteArray> { "0" });
    }

    void passesWaitForNodesAndRunAgainWhenAsked()
    {
        bool nodesKnown = false;
        PassScheduler passes(60000, [&nodesKnown] { return nodesKnown; });
        QSignalSpy starting(&passes, &PassScheduler::passStarting);
        passes.startPass();
        QCOMPARE(starting.size(), 0); // which nodes to scan is not known yet
        nodesKnown = true;
        passes.nodesKnown();
        QCOMPARE(starting.size(), 1);
        QVERIFY(passes.isRunning());
        passes.startPass(); // one at a time
        passes.passAgain(); // asked during the pass: one more after it
        QCOMPARE(starting.size(), 1);
        QVERIFY(passes.finish(false));
        QVERIFY(!passes.isRunning());
        passes.startPass();
        QCOMPARE(starting.size(), 2);
        QVERIFY(!passes.finish(false)); // nothing asked for
        passes.startPass();
        QVERIFY(passes.finish(true)); // the slot map moved during it
        QCOMPARE(passes.pauseMs(), 60000); // a quick pass: the configured interval
        // Feeds live while the first pass waits for them: it starts at once.
        PassScheduler first(60000, [] { return true; });
        QSignalSpy firstStarting(&first, &PassScheduler::passStarting);
        first.armFirstPass();
        first.feedsLive(true, false);
        QCOMPARE(firstStarting.size(), 1);
    }

    void passTallyNamesTheLocksAPassMissed()
    {
        LockRecordStore store(3, 10);
        for (const QByteArray name : { "a", "b", "c" })
            setPresent(store, name, true);
        PassTally tally;
        tally.begin(7);
        QCOMPARE(tally.epoch(), quint64(7));
        tally.met(store.obtain("a"));
        tally.met(store.obtain("b"));
        tally.met(store.obtain("b")); // met twice, counted once
        QCOMPARE(tally.unmet(store), QList<QByteArray> { "c" });
        // A lock the pass met went afterwards: no longer counted, so the count does not hide the one it missed.
        setPresent(store, "a", false);
        tally.presenceChanged(*store.find("a"), false);
        QCOMPARE(tally.unmet(store), QList<QByteArray> { "c" });
        tally.met(store.obtain("c"));
        QVERIFY(tally.unmet(store).isEmpty());
        // The next pass starts from nothing.
        tally.begin(8);
        QCOMPARE(tally.unmet(store).size(), 2);
        tally.touched("x");
        tally.touched("x");
        QCOMPARE(tally.takeTouched(), QSet<QByteArray> { "x" });
        QVERIFY(tally.takeTouched().isEmpty());
    }

    // The rule the monitor, the TTL watch and the CLI's scans share: plain channels always; sharded ones too where a
    // writer may publish there (any cluster, whose writers resolve auto to sharded, or a fleet said to be sharded).
    void listenersCoverEveryNamespaceAWriterMayPublishOn_data()
    {
        QTest::addColumn<PublishMode>("asked");
        QTest::addColumn<bool>("cluster");
        QTest::addColumn<bool>("shard");
        QTest::newRow("auto, one server") << PublishMode::Auto << false << false;
        QTest::newRow("plain, one server") << PublishMode::Plain << false << false;
        QTest::newRow("sharded, one server") << PublishMode::Sharded << false << true;
        QTest::newRow("both, one server") << PublishMode::Both << false << true;
        QTest::newRow("auto, cluster") << PublishMode::Auto << true << true;
        QTest::newRow("plain, cluster") << PublishMode::Plain << true << true;
    }
    void listenersCoverEveryNamespaceAWriterMayPublishOn()
    {
        QFETCH(PublishMode, asked);
        QFETCH(bool, cluster);
        QFETCH(bool, shard);
        const QList<RedisSubscriptions::Kind> kinds = PublishModeResolver::listenerKinds(asked, cluster);
        QVERIFY(kinds.contains(RedisSubscriptions::Kind::Channel));
        QCOMPARE(kinds.contains(RedisSubscriptions::Kind::Shard), shard);
    }
};

QTEST_GUILESS_MAIN(TestMonitorParts)
#include "tst_monitorparts.moc"
