// SortedRows, the console's sorted rows, against a plain list kept sorted the same way: rows go in and out at random,
// by the thousand (blocks split and merge), with numbers that tie often, both ways; every row is found by number and
// by name, and where a row would go is where it goes. No server, no table: the keys are made up.
#include "models/sortedrows.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

using namespace LockScope;

namespace {
struct Reference
{
    QByteArray name;
    qint64 value;
    quint64 seq;
};
} // namespace

class TestSortedRows : public QObject
{
    Q_OBJECT
private slots:
    void matchesASortedList_data()
    {
        QTest::addColumn<bool>("descending");
        QTest::newRow("ascending") << false;
        QTest::newRow("descending") << true;
    }

    void matchesASortedList()
    {
        QFETCH(bool, descending);
        const RowOrder order(4, descending); // any number column: the keys here are numbers
        SortedRows rows { RowOrder(4, descending) };
        QList<Reference> reference;
        const auto before = [&order](const Reference &a, const Reference &b) {
            return order.before(
                { a.value, SortKey::Number }, a.name, a.seq, { b.value, SortKey::Number }, b.name, b.seq);
        };
        QRandomGenerator random(36);
        int next = 0;
        for (int step = 0; step < 30000; ++step) {
            const bool grow = reference.isEmpty() || random.bounded(100) < (step < 15000 ? 70 : 30);
            if (grow) {
                const Reference r { "row:" + QByteArray::number(next++), qint64(random.bounded(50)), rows.nextSeq() };
                const SortedRow row(r.name, { r.value, SortKey::Number }, r.seq);
                const int at = rows.positionOf(row.key(), row.name, row.seq);
                const auto it = std::partition_point(
                    reference.begin(), reference.end(), [&](const Reference &x) { return before(x, r); });
                QCOMPARE(at, int(it - reference.begin()));
                reference.insert(it, r);
                rows.insert(row);
            } else {
                const int row = random.bounded(int(reference.size()));
                QVERIFY(rows.remove(reference.at(row).name));
                reference.removeAt(row);
            }
            if (step % 1999 == 0 || step > 29950) {
                QCOMPARE(rows.size(), int(reference.size()));
                for (int row = 0; row < reference.size(); ++row) {
                    QCOMPARE(rows.at(row).name, reference.at(row).name);
                    QCOMPARE(rows.rowOf(reference.at(row).name), row);
                    // A name from elsewhere (not sharing the row's bytes) is found too.
                    QCOMPARE(rows.rowOf(QByteArray(reference.at(row).name.constData())), row);
                }
            }
        }
        QCOMPARE(rows.rowOf("absent"), -1);
        QVERIFY(!rows.remove("absent"));
        while (!rows.shed(1000)) { }
    }
};

QTEST_GUILESS_MAIN(TestSortedRows)
#include "tst_sortedrows.moc"
