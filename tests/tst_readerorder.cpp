// A read-write lock's readers as the monitor meets them: reads and keyspace events travel on two connections, so a
// read can come back before the events that led to it. Fed to the history rules in exactly the orders the soak met
// (issue 32, point 15: one reader acquisition shown as acquired, released, acquired within a millisecond), and in the
// orders that look alike but are not, with no server and no timing: each reader's acquisitions and ends are counted
// as the soak counts them.
#include "monitor/locktracker.h"

#include <QTest>

using namespace LockScope;
using Type = LockEvent::Type;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kX = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";
using K = KeyEvent;

// The keyspace events of the rwlock scripts on the lock's own key (core/kinds/readwrite/rwlockscripts.cpp); the
// reader's timeout keys are other keys, whose events only ask for a read.
const QList<K> kFirstReaderAcquires { K::HashWrite, K::OtherWrite }; // HSET mode read X 1, PEXPIRE
const QList<K> kReaderJoins { K::HashWrite, K::OtherWrite }; // HINCRBY X 1, PEXPIRE
const QList<K> kLastReaderLeaves { K::HashWrite, K::HashWrite, K::Deleted }; // HINCRBY X -1, HDEL X, DEL
const QList<K> kReaderLeaves { K::HashWrite, K::HashWrite, K::OtherWrite }; // HINCRBY -1, HDEL, PEXPIRE to the longest

LockInfo readers(const QList<QByteArray> &owners, qint64 readAt)
{
    LockInfo info;
    info.name = "demo:report";
    info.kind = LockInfo::Kind::ReadWrite;
    info.mode = "read";
    info.ttlMs = 30000;
    info.readAtMs = readAt;
    for (const QByteArray &owner : owners) {
        LockHolder h;
        h.owner = owner;
        h.count = 1;
        info.holders << h;
    }
    return info;
}

// The monitor's side (LockMonitor::ingest and holdUntilSynced) around one lock: events noted as they arrive, a read
// judged when it comes back unless the history rules say what explains it may still be on its way, in which case it
// is judged once the feed has caught up (everything the server did before the read has arrived by then).
struct Monitor
{
    LockTracker tracker;
    LockRecord record {};
    LockTracker::Signals seen;
    QList<LockEvent> events;
    qint64 now = 0;

    Monitor() { seen.keyspaceEvents = true; }

    void arrive(const QList<K> &keyEvents)
    {
        for (K e : keyEvents)
            seen.note(e);
    }
    // A read is sent: what has arrived by now happened before the server runs it.
    void send() { seen.sentSeq = seen.lastSeq; }
    // Its answer is back; inFlight: the events the server ran before it that have not arrived yet.
    void answer(const std::optional<LockInfo> &read, const QList<K> &inFlight = {})
    {
        ++now;
        const bool held = tracker.awaitsEvidence(record, read, seen, now);
        if (held)
            arrive(inFlight); // held until a PING through the feed is answered: they are in by then
        bool changed = false;
        events << tracker.apply(record, read, seen, now, 1'800'000'000'000 + now, &changed);
        if (!held)
            arrive(inFlight); // judged at once: they come after, and ask for the next read
    }
    // Acquisitions and ends of owner's holds, as the soak's tally counts them.
    int count(const QByteArray &owner, bool acquired) const
    {
        int n = 0;
        for (const LockEvent &e : events)
            if (e.owner == owner
                && (acquired ? e.type == Type::Acquired
                             : (e.type == Type::Released || e.type == Type::Expired || e.type == Type::ForceReleased)
                            && e.count == 0))
                ++n;
        return n;
    }
    QString story() const
    {
        QStringList lines;
        for (const LockEvent &e : events)
            lines << QString::fromLatin1(LockEvent::typeName(e.type) + ' ' + e.owner.left(8));
        return lines.join(QStringLiteral(", "));
    }
};
} // namespace

class TestReaderOrder : public QObject
{
    Q_OBJECT
private slots:
    // The soak's story: reader A holds alone; A's unlock deletes the key and X takes a new read hold at once. The read
    // those events asked for comes back before the events themselves: it shows X, and nothing yet says how A left.
    // Then the events arrive, and the read they ask for shows X again. One acquisition of X; one end of A.
    void aReadAheadOfTheDeletionItFollows()
    {
        Monitor m;
        m.send();
        m.answer(readers({ kA }, 0)); // the monitor knows A
        m.events.clear();

        m.send();
        m.answer(readers({ kX }, 10), kLastReaderLeaves + kFirstReaderAcquires);
        m.send();
        m.answer(readers({ kX }, 11));
        QVERIFY2(m.count(kX, true) == 1, qPrintable(m.story()));
        QCOMPARE(m.count(kX, false), 0);
        QCOMPARE(m.count(kA, false), 1);
        QCOMPARE(m.count(kA, true), 0);
        QVERIFY(m.seen.keyEvents.isEmpty());
        QVERIFY2(m.record.warnings().isEmpty(), qPrintable(m.record.warnings().join(QLatin1Char('\n'))));
    }

    // The same, with part of the events in when the read comes back (they arrived after it was sent).
    void aReadAheadOfPartOfItsEvents()
    {
        Monitor m;
        m.send();
        m.answer(readers({ kA }, 0));
        m.events.clear();

        m.send();
        m.arrive({ K::HashWrite, K::HashWrite });
        m.answer(readers({ kX }, 10), QList<K> { K::Deleted } + kFirstReaderAcquires);
        m.send();
        m.answer(readers({ kX }, 11));
        QVERIFY2(m.count(kX, true) == 1 && m.count(kA, false) == 1, qPrintable(m.story()));
        QCOMPARE(m.count(kX, false), 0);
    }

    // What looks alike without a deletion: X joined while A held, then A left; one acquisition of X, one end of A,
    // and the read is not held back for a deletion that never comes.
    void readersTakeTurnsWithoutADeletion()
    {
        Monitor m;
        m.send();
        m.answer(readers({ kA }, 0));
        m.events.clear();

        m.send();
        m.answer(readers({ kX }, 10), kReaderJoins + kReaderLeaves);
        m.send();
        m.answer(readers({ kX }, 11));
        QVERIFY2(m.count(kX, true) == 1 && m.count(kA, false) == 1, qPrintable(m.story()));
        QCOMPARE(m.count(kX, false), 0);
        QCOMPARE(m.count(kA, true), 0);
    }

    // A reader joins and the read shows both; later both leave (the key deleted). A is never shown acquired again.
    void aJoinThenBothLeave()
    {
        Monitor m;
        m.send();
        m.answer(readers({ kA }, 0));
        m.events.clear();

        m.send();
        m.answer(readers({ kA, kX }, 10), kReaderJoins);
        m.arrive(kReaderLeaves + kLastReaderLeaves);
        m.send();
        m.answer(std::nullopt);
        QVERIFY2(m.count(kX, true) == 1 && m.count(kA, true) == 0, qPrintable(m.story()));
        QCOMPARE(m.count(kX, false), 1);
        QCOMPARE(m.count(kA, false), 1);
        QVERIFY(!m.record.present);
    }

    // The join's own events came first, the read after them: judged at once (nothing to wait for).
    void aJoinWhoseEventsCameFirstIsNotHeldBack()
    {
        Monitor m;
        m.send();
        m.answer(readers({ kA }, 0));
        m.events.clear();
        m.arrive(kReaderJoins);
        m.send();
        QVERIFY(!m.tracker.awaitsEvidence(m.record, readers({ kA, kX }, 10), m.seen, 10));
        m.answer(readers({ kA, kX }, 10));
        QVERIFY2(m.count(kX, true) == 1, qPrintable(m.story()));
        QVERIFY(m.seen.keyEvents.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReaderOrder)
#include "tst_readerorder.moc"
