// The lock table's row index against a plain list doing the same appends and removals: rows agree both ways,
// through holes and compactions, for empty and binary names too. And its name shards grow each at its own point.
#include "base/staggeredshards.h"
#include "models/rowindex.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>

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

    // A shard's hash table doubles when it passes a power of two. Where in the doubling of all the rows each shard
    // passes its own (the fraction of log2 of its share) is spread over the whole doubling, not bunched: equal shares
    // put all 64 at one point, and a million rows were rehashed in one batch (issue 36's stall at 2^19-2^20 rows).
    void shardsGrowEachAtItsOwnPoint()
    {
        constexpr size_t kShards = 64;
        std::array<int, kShards> counts {};
        constexpr int kNames = 400000;
        for (int i = 0; i < kNames; ++i)
            ++counts[StaggeredShards<kShards>::of("bench:lock:" + QByteArray::number(i))];
        const auto [least, most] = std::minmax_element(counts.cbegin(), counts.cend());
        QVERIFY2(*least > 0 && double(*most) / double(*least) > 1.7 && double(*most) / double(*least) < 2.3,
            qPrintable(QStringLiteral("%1 to %2").arg(*least).arg(*most)));
        std::array<int, 8> points {};
        for (const int count : counts) {
            const double log = std::log2(double(kNames) / double(count));
            ++points[size_t((log - std::floor(log)) * 8) % 8];
        }
        for (const int shards : points)
            QVERIFY2(shards <= 16, qPrintable(QString::number(shards)));
    }
};

QTEST_GUILESS_MAIN(TestRowIndex)
#include "tst_rowindex.moc"
