// The lock table's row index against a plain list doing the same appends and removals: rows agree both ways,
// through holes and compactions, for empty and binary names too.
#include "models/rowindex.h"

#include <QRandomGenerator>
#include <QTest>

using namespace LockScope;

class TestRowIndex : public QObject
{
    Q_OBJECT
private slots:
    void matchesAPlainList()
    {
        RowIndex index;
        QList<QByteArray> reference;
        QRandomGenerator random(42);
        int next = 0;
        for (int step = 0; step < 20000; ++step) {
            const bool grow = reference.isEmpty() || random.bounded(100) < (step < 10000 ? 60 : 35);
            if (grow) {
                const QByteArray name = next == 7 ? QByteArray() : QByteArray("k\0", 2) + QByteArray::number(next);
                ++next;
                index.append(name);
                reference.append(name);
            } else {
                const int row = random.bounded(int(reference.size()));
                index.remove(reference.at(row));
                reference.removeAt(row);
            }
            if (step % 997 == 0 || step > 19900) {
                QCOMPARE(index.size(), int(reference.size()));
                for (int row = 0; row < reference.size(); ++row) {
                    QCOMPARE(index.nameAt(row), reference.at(row));
                    QCOMPARE(index.rowOf(reference.at(row)), row);
                }
            }
        }
        QCOMPARE(index.rowOf("absent"), -1);
        QCOMPARE(index.nameAt(index.size()), QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestRowIndex)
#include "tst_rowindex.moc"
