// The console's Blockers view model on reports built by hand (no server): the wait-for tree as rows under rows,
// checked by QAbstractItemModelTester; an update that keeps the tree's shape changes texts only (what the person
// expanded stays expanded), one that changes it resets. The report itself against real Redisson: tst_blockers.
#include "models/blockersmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;

namespace {
LockInfo fair(const QByteArray &name, const QByteArray &holder, const QList<QByteArray> &queue)
{
    LockInfo l;
    l.name = name;
    l.kind = LockInfo::Kind::Fair;
    l.ttlMs = 600000;
    LockHolder h;
    h.owner = holder;
    h.count = 1;
    l.holders << h;
    for (const QByteArray &q : queue)
        l.queue.append({ q, 1'900'000'000'000 });
    return l;
}

const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
const QByteArray kB = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:2";
const QByteArray kC = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:3";

BlockerReport chain(const QString &summary)
{
    BlockerInput in;
    in.locks = { fair("first", kA, { kB }), fair("second", kB, { kC }), fair("x", kC, { kA }) };
    in.locks.removeLast();
    in.epochMs = 1'800'000'000'000;
    in.verdict = [summary](const LockInfo &, const LockHolder &) {
        LivenessVerdict v;
        v.summary = summary;
        return v;
    };
    return findBlockers(in);
}

BlockerReport ring()
{
    BlockerInput in;
    in.locks = { fair("left", kA, { kB }), fair("right", kB, { kA }) };
    in.epochMs = 1'800'000'000'000;
    return findBlockers(in);
}
} // namespace

class TestBlockersModel : public QObject
{
    Q_OBJECT

private slots:
    void aChainIsATreeOfRows()
    {
        BlockersModel model(nullptr, nullptr);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(chain(QStringLiteral("unknown")));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, BlockersModel::Who);
        QCOMPARE(root.data(BlockersModel::OwnerRole).toByteArray(), kA);
        QCOMPARE(model.index(0, BlockersModel::Waiting).data().toString(), QStringLiteral("2"));
        QCOMPARE(model.rowCount(root), 1);
        const QModelIndex b = model.index(0, 0, root);
        QCOMPARE(b.data(BlockersModel::OwnerRole).toByteArray(), kB);
        QCOMPARE(model.rowCount(b), 1);
        QCOMPARE(model.index(0, 0, b).data(BlockersModel::OwnerRole).toByteArray(), kC);
        QCOMPARE(model.parent(model.index(0, 0, b)), b);
    }

    void aDeadlockIsARowWithItsEdges()
    {
        BlockersModel model(nullptr, nullptr);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(ring());
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex cycle = model.index(0, 0);
        QVERIFY(cycle.data().toString().startsWith(QStringLiteral("deadlock")));
        QCOMPARE(model.rowCount(cycle), 2);
    }

    void theSameShapeChangesTextsOnly()
    {
        BlockersModel model(nullptr, nullptr);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(chain(QStringLiteral("unknown")));
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        model.setReport(chain(QStringLiteral("likely dead")));
        QCOMPARE(resets.size(), 0);
        QVERIFY(!changes.isEmpty());
        QCOMPARE(model.index(0, BlockersModel::Liveness).data().toString(), QStringLiteral("likely dead"));
        model.setReport(ring());
        QCOMPARE(resets.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestBlockersModel)
#include "tst_blockersmodel.moc"
