// A recording replayed (the console's File › Open recording…): the engine's table at any moment is the recording's
// own answer, whether it got there by moving forward event by event, by jumping, or by going back; moments asked for
// faster than they are rebuilt end on the last one asked; the table model keeps a lock's row (and so a person's
// selection) while the moment moves, and sorts and filters itself, checked by Qt's model tester. Rows written as a
// recorder writes them.
#include "recording/recordingstore.h"
#include "recording/timelinestate.h"
#include "replay/replayengine.h"
#include "replay/replaytablemodel.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace LockScope;

namespace {
const QByteArray kServer = "redis://127.0.0.1:1/0";
constexpr qint64 kStart = 1764300000000;
constexpr qint64 kSpanMs = 40 * 60 * 1000;

// What the recording says of the moment, rebuilt from its snapshot without the engine: the expectation.
QMap<QByteArray, QList<QByteArray>> holdersAt(const RecordingStore &store, qint64 timeMs)
{
    QString error;
    RecordedSnapshot snapshot;
    snapshot.server = kServer;
    for (const RecordedSnapshot &s : store.snapshotsAt(timeMs, &error))
        if (s.server == kServer)
            snapshot = s;
    const TimelineState state = TimelineState::at(store, snapshot, timeMs, &error);
    QMap<QByteArray, QList<QByteArray>> out;
    for (auto it = state.locks().cbegin(); it != state.locks().cend(); ++it) {
        QList<QByteArray> owners;
        for (auto h = it->holders.cbegin(); h != it->holders.cend(); ++h)
            if (!h.key().isEmpty())
                owners << h.key();
        out.insert(it.key(), owners);
    }
    return out;
}

QMap<QByteArray, QList<QByteArray>> holdersOf(const ReplayFrame &frame)
{
    QMap<QByteArray, QList<QByteArray>> out;
    for (const ReplayRow &row : frame.rows)
        out.insert(row.name, row.owners);
    return out;
}
} // namespace

class TestReplay : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_path;

    // Forty minutes of twenty locks and four holders: holds, re-entries, renewals, releases and expiries, with a
    // snapshot every five minutes, as a recorder keeps them.
    void writeRecording()
    {
        m_path = m_dir.filePath(QStringLiteral("replay.sqlite"));
        RecordingStore store;
        QString error;
        QVERIFY2(store.open(m_path, true, &error), qPrintable(error));
        QRandomGenerator random(20261129);
        TimelineState state;
        state.reset(RecordedSnapshot { kServer, kStart, {} });
        QList<RecordedEvent> batch;
        qint64 nextSnapshot = kStart;
        for (qint64 t = kStart; t < kStart + kSpanMs; t += 500 + random.bounded(1500)) {
            if (t >= nextSnapshot) {
                QVERIFY2(store.append(batch, &error), qPrintable(error));
                for (const RecordedEvent &e : batch)
                    state.apply(e);
                batch.clear();
                RecordedSnapshot snapshot { kServer, t, {} };
                for (auto it = state.locks().cbegin(); it != state.locks().cend(); ++it)
                    for (auto h = it->holders.cbegin(); h != it->holders.cend(); ++h)
                        snapshot.holdings
                            << RecordedHolding { it.key(), h.key(), h->count, h->ttlMs, it->kind, it->library };
                QVERIFY2(store.appendSnapshot(snapshot, &error), qPrintable(error));
                nextSnapshot = t + 5 * 60 * 1000;
            }
            TimelineState now = state;
            for (const RecordedEvent &e : batch)
                now.apply(e);
            const QByteArray name = "replay:" + QByteArray::number(random.bounded(20));
            const QByteArray owner
                = "6e3d30b7-83b1-433a-9335-5e8b9916d3a" + QByteArray::number(random.bounded(4)) + ":1";
            const auto lock = now.locks().constFind(name);
            RecordedEvent e { t, kServer, "acquired", name, owner, {}, 1, 30000, -1, "reentrant", "redisson", {} };
            if (lock == now.locks().cend()) {
                batch << e;
                continue;
            }
            const QByteArray holder = lock->holders.firstKey();
            const qint64 count = lock->holders.first().count;
            e.owner = holder;
            switch (random.bounded(4)) {
            case 0:
                e.type = "renewed";
                e.count = count;
                break;
            case 1:
                e.type = "reentered";
                e.count = count + 1;
                break;
            case 2:
                e.type = "released";
                e.count = count - 1;
                e.ttlMs = -2;
                break;
            default:
                e.type = "expired";
                e.count = 0;
                e.ttlMs = -2;
                break;
            }
            batch << e;
        }
        QVERIFY2(store.append(batch, &error), qPrintable(error));
    }

private slots:
    void initTestCase() { writeRecording(); }

    // Forward step by step (the incremental path), a jump past the next snapshots, backwards, and back to the start:
    // the engine's holders at each moment are the recording's.
    void everyMomentIsTheRecordingsOwn()
    {
        RecordingStore store;
        QString error;
        QVERIFY2(store.open(m_path, false, &error), qPrintable(error));
        ReplayEngine engine;
        QSignalSpy opened(&engine, &ReplayEngine::opened);
        engine.open(m_path);
        QTRY_COMPARE(opened.size(), 1);
        const ReplayInfo info = opened.first().first().value<ReplayInfo>();
        QVERIFY2(info.error.isEmpty(), qPrintable(info.error));
        QCOMPARE(info.servers, QList<QByteArray> { kServer });
        QCOMPARE(info.firstMs, store.firstTimeMs());
        QCOMPARE(info.lastMs, store.lastTimeMs());

        QList<qint64> moments;
        for (qint64 t = kStart + 1000; t < kStart + 4 * 60 * 1000; t += 7000)
            moments << t;
        moments << kStart + 25 * 60 * 1000 << kStart + 26 * 60 * 1000 + 333 << kStart + 12 * 60 * 1000
                << kStart + 12 * 60 * 1000 + 1 << kStart << info.lastMs << kStart + 39 * 60 * 1000;
        int nonEmpty = 0;
        for (const qint64 t : moments) {
            QSignalSpy frames(&engine, &ReplayEngine::frameReady);
            engine.seek(t);
            QTRY_VERIFY(!engine.busy());
            QVERIFY(!frames.isEmpty());
            const ReplayFrame frame = frames.last().first().value<ReplayFrame>();
            QVERIFY2(frame.error.isEmpty(), qPrintable(frame.error));
            QCOMPARE(frame.timeMs, t);
            QCOMPARE(holdersOf(frame), holdersAt(store, t));
            QVERIFY(frame.seen);
            QVERIFY(frame.recent.size() <= ReplayEngine::kRecentEvents);
            for (const RecordedEvent &e : frame.recent)
                QVERIFY(e.timeMs <= t);
            nonEmpty += frame.rows.isEmpty() ? 0 : 1;
        }
        QVERIFY(nonEmpty > moments.size() / 2); // the workload held locks most of the time
    }

    // Played across a snapshot, the table is replayed from it (as a jump to the moment is), and holds seen begin
    // before it keep their start; a jump straight there knows only that they began before the snapshot.
    void aSnapshotPassedKeepsWhatWasSeen()
    {
        RecordingStore store;
        QString error;
        QVERIFY2(store.open(m_path, false, &error), qPrintable(error));
        const qint64 snapshot = store.snapshotTimeAt(kServer, kStart + 20 * 60 * 1000);
        QVERIFY(snapshot > kStart + 10 * 60 * 1000);
        const auto frameAt = [](ReplayEngine &engine, qint64 t) {
            QSignalSpy frames(&engine, &ReplayEngine::frameReady);
            engine.seek(t);
            [&] { QTRY_VERIFY(!engine.busy()); }();
            return frames.isEmpty() ? ReplayFrame {} : frames.last().first().value<ReplayFrame>();
        };
        const auto open = [this](ReplayEngine &engine) {
            QSignalSpy opened(&engine, &ReplayEngine::opened);
            engine.open(m_path);
            QTRY_COMPARE(opened.size(), 1);
        };
        ReplayEngine played, jumped;
        open(played);
        open(jumped);
        frameAt(played, snapshot - 4 * 60 * 1000); // from the snapshot before
        const ReplayFrame across = frameAt(played, snapshot + 60 * 1000);
        const ReplayFrame direct = frameAt(jumped, snapshot + 60 * 1000);
        QCOMPARE(across.snapshotMs, snapshot);
        QCOMPARE(direct.snapshotMs, snapshot);
        QCOMPARE(holdersOf(across), holdersOf(direct));
        QCOMPARE(holdersOf(across), holdersAt(store, snapshot + 60 * 1000));
        int carried = 0;
        for (qsizetype i = 0; i < across.rows.size(); ++i) {
            const qint64 seen = across.rows.at(i).heldMs, known = direct.rows.at(i).heldMs;
            QVERIFY(known < 0 || seen == known);
            carried += known < 0 && seen >= 0 ? 1 : 0;
        }
        QVERIFY(carried > 0);
    }

    // A slider dragged faster than frames are rebuilt: whatever was answered on the way, the last frame is the last
    // moment asked for.
    void aDragEndsOnItsLastMoment()
    {
        ReplayEngine engine;
        QSignalSpy opened(&engine, &ReplayEngine::opened);
        engine.open(m_path);
        QTRY_COMPARE(opened.size(), 1);
        QSignalSpy frames(&engine, &ReplayEngine::frameReady);
        for (int i = 0; i < 200; ++i)
            engine.seek(kStart + qint64(i) * 10000);
        QTRY_VERIFY(!engine.busy());
        QVERIFY(frames.size() <= 200);
        QCOMPARE(frames.last().first().value<ReplayFrame>().timeMs, kStart + 199 * 10000);
    }

    // One lock's events, its next event after a moment, and a file that is no recording.
    void historyNextEventAndRefusal()
    {
        ReplayEngine engine;
        QSignalSpy opened(&engine, &ReplayEngine::opened);
        engine.open(m_path);
        QTRY_COMPARE(opened.size(), 1);
        QSignalSpy history(&engine, &ReplayEngine::historyReady);
        engine.requestHistory("replay:3", kStart + kSpanMs);
        QTRY_COMPARE(history.size(), 1);
        const ReplayHistory page = history.first().first().value<ReplayHistory>();
        QCOMPARE(page.fromMs, std::numeric_limits<qint64>::min()); // every event of it: none was cut
        const QList<RecordedEvent> events = page.events;
        QVERIFY(events.size() > 5);
        for (qsizetype i = 1; i < events.size(); ++i)
            QVERIFY(events.at(i - 1).timeMs <= events.at(i).timeMs);
        QSignalSpy next(&engine, &ReplayEngine::nextEventFound);
        engine.findNextEvent("replay:3", events.at(2).timeMs);
        QTRY_COMPARE(next.size(), 1);
        QCOMPARE(next.first().at(1).toLongLong(), events.at(3).timeMs);
        engine.findNextEvent("replay:3", events.last().timeMs);
        QTRY_COMPARE(next.size(), 2);
        QCOMPARE(next.last().at(1).toLongLong(), qint64(-1));

        const QString junk = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a recording\n");
        f.close();
        ReplayEngine refused;
        QSignalSpy refusal(&refused, &ReplayEngine::opened);
        refused.open(junk);
        QTRY_COMPARE(refusal.size(), 1);
        QVERIFY2(refusal.first().first().value<ReplayInfo>().error.contains(QStringLiteral("not a LockScope")),
            qPrintable(refusal.first().first().value<ReplayInfo>().error));
        QCOMPARE(f.size(), qint64(16)); // left as it was
    }

    // The table model over moments that add, keep and drop locks: valid for Qt's tester, and a kept lock's row (the
    // selection) still shows that lock.
    void theTableKeepsItsRows()
    {
        ReplayTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto frame = [](qint64 t, const QList<QByteArray> &names) {
            ReplayFrame f;
            f.timeMs = t;
            for (const QByteArray &n : names)
                f.rows << ReplayRow { n, "reentrant", "redisson", { "owner:" + n }, 1, 30000 - (t % 1000), t };
            return f;
        };
        model.setFrame(frame(1000, { "b", "d", "f" }));
        const QPersistentModelIndex d = model.index(model.rowOf("d"), ReplayTableModel::Name);
        model.setFrame(frame(2000, { "a", "b", "c", "d", "e", "g" }));
        QCOMPARE(d.data(ReplayTableModel::NameRole).toByteArray(), QByteArray("d"));
        model.setFrame(frame(3000, { "d" }));
        QCOMPARE(d.data(ReplayTableModel::NameRole).toByteArray(), QByteArray("d"));
        QCOMPARE(model.rowCount(), 1);
        model.setFrame(frame(4000, { "a", "z" }));
        QVERIFY(!d.isValid());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, ReplayTableModel::Name).data().toString(), QStringLiteral("z"));
        QCOMPARE(model.index(1, ReplayTableModel::HeldFor).data(ReplayTableModel::SortRole).toLongLong(), 4000);
        // A jump: every other lock of a hundred comes and goes at once, the table reset rather than moved row by row.
        QList<QByteArray> even, odd;
        for (int i = 0; i < 100; ++i)
            (i % 2 ? odd : even) << QByteArray("lock:") + QByteArray::number(1000 + i);
        model.setFrame(frame(5000, even));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setFrame(frame(6000, odd));
        QCOMPARE(reset.size(), 1);
        QCOMPARE(model.rowCount(), 50);
        for (int r = 0; r < 50; ++r)
            QCOMPARE(model.index(r, ReplayTableModel::Name).data(ReplayTableModel::NameRole).toByteArray(), odd.at(r));
        model.setFrame(frame(7000, {}));
        QCOMPARE(model.rowCount(), 0);

        // Sorted by the TTL left, longest first, and filtered by name: the model's own, frame after frame.
        ReplayFrame f;
        f.timeMs = 8000;
        for (const auto &[name, ttl] : QList<std::pair<QByteArray, qint64>> {
                 { "orders:1", 5000 }, { "orders:2", 30000 }, { "orders:3", -1 }, { "users:1", 20000 } }) // by name
            f.rows << ReplayRow { name, "reentrant", "redisson", { "o" }, 1, ttl, 100 };
        model.setFrame(f);
        model.sort(ReplayTableModel::Ttl, Qt::DescendingOrder);
        const auto names = [&model] {
            QList<QByteArray> out;
            for (int r = 0; r < model.rowCount(); ++r)
                out << model.index(r, 0).data(ReplayTableModel::NameRole).toByteArray();
            return out;
        };
        QCOMPARE(names(), (QList<QByteArray> { "orders:2", "users:1", "orders:1", "orders:3" }));
        model.setFilter(QStringLiteral("orders:*"));
        QCOMPARE(names(), (QList<QByteArray> { "orders:2", "orders:1", "orders:3" }));
        QCOMPARE(model.rowOf("orders:1"), 1);
        QCOMPARE(model.rowOf("users:1"), -1);
        f.rows[0].ttlMs = 40000; // orders:1 renewed
        model.setFrame(f);
        QCOMPARE(names(), (QList<QByteArray> { "orders:1", "orders:2", "orders:3" }));
        model.sort(ReplayTableModel::Name, Qt::AscendingOrder);
        model.setFilter({});
        QCOMPARE(names(), (QList<QByteArray> { "orders:1", "orders:2", "orders:3", "users:1" }));
    }
};

QTEST_MAIN(TestReplay)
#include "tst_replay.moc"
