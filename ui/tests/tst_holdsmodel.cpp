#include "holdsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;

namespace {
DemoEvent makeEvent(DemoEvent::Kind kind, const QByteArray &name, const QByteArray &owner, int count, qint64 leaseMs)
{
    DemoEvent e;
    e.kind = kind;
    e.name = name;
    e.owner = owner;
    e.client = 3;
    e.count = count;
    e.leaseMs = leaseMs;
    e.watchdog = true;
    e.time = QDateTime::currentDateTimeUtc();
    return e;
}

const QByteArray ownerA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray ownerB = "0f5c1d2e-1111-4222-8333-944455556666:42";
} // namespace

class TestHoldsModel : public QObject
{
    Q_OBJECT

    qint64 m_now = 1000000;
    HoldsModel m_model;
    QAbstractItemModelTester *m_tester = nullptr;

    qint64 remaining(int row) const
    {
        return m_model.index(row, HoldsModel::LeaseColumn).data(HoldsModel::RemainingRole).toLongLong();
    }
    QString cell(int row, int column) const { return m_model.index(row, column).data().toString(); }

private slots:
    void init()
    {
        m_model.clear();
        m_model.setClock([this] { return m_now; });
        delete m_tester;
        // Fatal: any broken model invariant fails the test at once.
        m_tester = new QAbstractItemModelTester(&m_model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    }

    void acquireAddsARowAndReleaseRemovesIt()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:orders:1", ownerA, 1, 6000));
        QCOMPARE(m_model.rowCount(), 1);
        QCOMPARE(cell(0, HoldsModel::NameColumn), QStringLiteral("demo:orders:1"));
        QCOMPARE(cell(0, HoldsModel::OwnerColumn), QString::fromLatin1(ownerA));
        QCOMPARE(cell(0, HoldsModel::CountColumn), QStringLiteral("1"));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Released, "demo:orders:1", ownerA, 0, 0));
        QCOMPARE(m_model.rowCount(), 0);
    }

    void countdownComesFromTheDeadline()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:payments", ownerA, 1, 6000));
        QCOMPARE(remaining(0), 6000);
        QCOMPARE(cell(0, HoldsModel::LeaseColumn), HoldsModel::formatRemaining(6000));
        // Nothing ticks inside the model: only the clock moves, and the answer follows it.
        m_now += 2500;
        QCOMPARE(remaining(0), 3500);
        m_now += 4000;
        QCOMPARE(remaining(0), -500);
        QCOMPARE(cell(0, HoldsModel::LeaseColumn), HoldsModel::formatRemaining(0));
    }

    void renewalResetsTheDeadline()
    {
        QSignalSpy changed(&m_model, &QAbstractItemModel::dataChanged);
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:payments", ownerA, 1, 6000));
        m_now += 2000;
        changed.clear();
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Renewed, "demo:payments", ownerA, 1, 6000));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(remaining(0), 6000);
    }

    void reentryAndPartialReleaseKeepTheRow()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:inventory:2", ownerA, 1, 6000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Reentered, "demo:inventory:2", ownerA, 2, 6000));
        QCOMPARE(m_model.rowCount(), 1);
        QCOMPARE(cell(0, HoldsModel::CountColumn), QStringLiteral("2"));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Released, "demo:inventory:2", ownerA, 1, 6000));
        QCOMPARE(m_model.rowCount(), 1);
        QCOMPARE(cell(0, HoldsModel::CountColumn), QStringLiteral("1"));
    }

    void ownersAreSeparateRows()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:orders:1", ownerA, 1, 6000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:payments", ownerB, 1, 4000));
        QCOMPARE(m_model.rowCount(), 2);
        QCOMPARE(m_model.rowOf("demo:payments", ownerB), 1);
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Released, "demo:orders:1", ownerA, 0, 0));
        QCOMPARE(m_model.rowCount(), 1);
        QCOMPARE(m_model.rowOf("demo:payments", ownerB), 0);
    }

    void crashMarksAndLossRemoves()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:orders:1", ownerA, 1, 6000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Crashed, "demo:orders:1", ownerA, 1, 6000));
        QVERIFY(m_model.index(0, 0).data(HoldsModel::CrashedRole).toBool());
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Lost, "demo:orders:1", ownerA, 0, 6000));
        QCOMPARE(m_model.rowCount(), 0);
    }

    void eventsAboutOtherHoldsChangeNothing()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:orders:1", ownerA, 1, 6000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Waiting, "demo:orders:1", ownerB, 0, 5000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::GaveUp, "demo:orders:1", ownerB, 0, 1000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Renewed, "demo:other", ownerB, 1, 6000));
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Released, "demo:other", ownerB, 0, 0));
        QCOMPARE(m_model.rowCount(), 1);
    }

    void headersAndRolesAreThere()
    {
        for (int c = 0; c < HoldsModel::ColumnCount; ++c)
            QVERIFY(!m_model.headerData(c, Qt::Horizontal).toString().isEmpty());
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, "demo:orders:1", ownerA, 1, 6000));
        QCOMPARE(m_model.index(0, 0).data(HoldsModel::LeaseRole).toLongLong(), 6000);
        QVERIFY(m_model.index(0, 0).data(HoldsModel::WatchdogRole).toBool());
        QVERIFY(!m_model.index(0, HoldsModel::LeaseColumn).data(Qt::ToolTipRole).toString().isEmpty());
    }

    void binaryNamesAreShownEscaped()
    {
        m_model.applyEvent(makeEvent(DemoEvent::Kind::Acquired, QByteArray("demo:\x01\xff", 7), ownerA, 1, 6000));
        QCOMPARE(cell(0, HoldsModel::NameColumn), QStringLiteral("demo:\\x01\\xff"));
    }
};

QTEST_MAIN(TestHoldsModel)
#include "tst_holdsmodel.moc"
