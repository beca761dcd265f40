#pragma once

#include <QtGlobal>

#include <utility>
#include <vector>

namespace LockScope {

// A distribution of durations in milliseconds with a bounded relative error and bounded memory, for hold and wait
// times watched over days. Durations below 64 ms are kept exactly; above, each power of two is cut into 32 equal
// buckets, so a quantile read from a bucket's middle is within 1/64 (1.6 %) of a value in that bucket. Only buckets
// that were hit are stored (sorted pairs): holds of one lock cluster in a few dozen; the worst case, durations spread
// from 1 ms to a year, is about 1,100 pairs (9 kB).
class HoldHistogram
{
public:
    void add(qint64 ms);
    void merge(const HoldHistogram &other);

    quint64 count() const { return m_count; }
    qint64 max() const { return m_max; } // -1 when empty
    qint64 min() const { return m_min; } // -1 when empty
    double sumMs() const { return m_sum; }
    double meanMs() const { return m_count == 0 ? 0.0 : m_sum / double(m_count); }
    // The nearest-rank quantile (q in [0, 1]): exact below 64 ms, a bucket's middle above, never outside [min, max].
    // -1 when empty.
    qint64 quantile(double q) const;
    int bucketsUsed() const { return int(m_buckets.size()); }

    static int bucketOf(qint64 ms);
    static qint64 bucketLow(int bucket); // the smallest duration in it
    static qint64 bucketHigh(int bucket); // one past the largest

private:
    std::vector<std::pair<quint16, quint32>> m_buckets; // bucket, count; sorted by bucket
    quint64 m_count = 0;
    double m_sum = 0;
    qint64 m_min = -1;
    qint64 m_max = -1;
};

} // namespace LockScope
