#include "stats/holdhistogram.h"

#include <algorithm>
#include <cmath>

namespace LockScope {

namespace {
constexpr int kExactBits = 6; // 0..63 ms exact
constexpr int kSubBits = 5; // 32 buckets per power of two above
constexpr qint64 kExact = qint64(1) << kExactBits;
constexpr int kSub = 1 << kSubBits;

int log2Floor(quint64 v)
{
    return 63 - __builtin_clzll(v);
}
} // namespace

int HoldHistogram::bucketOf(qint64 ms)
{
    if (ms < kExact)
        return int(qMax<qint64>(0, ms));
    // The power of two it lies in (at least kExactBits), then its 32nd of that power.
    const int e = log2Floor(quint64(ms));
    const int sub = int((quint64(ms) >> (e - kSubBits)) & (kSub - 1));
    return int(kExact) + (e - kExactBits) * kSub + sub;
}

qint64 HoldHistogram::bucketLow(int bucket)
{
    if (bucket < kExact)
        return bucket;
    const int e = (bucket - int(kExact)) / kSub + kExactBits;
    const int sub = (bucket - int(kExact)) % kSub;
    return qint64(kSub + sub) << (e - kSubBits);
}

qint64 HoldHistogram::bucketHigh(int bucket)
{
    if (bucket < kExact)
        return bucket + 1;
    const int e = (bucket - int(kExact)) / kSub + kExactBits;
    const int sub = (bucket - int(kExact)) % kSub;
    return qint64(kSub + sub + 1) << (e - kSubBits);
}

void HoldHistogram::add(qint64 ms)
{
    ms = qMax<qint64>(0, ms);
    const auto bucket = quint16(bucketOf(ms));
    auto it = std::lower_bound(m_buckets.begin(), m_buckets.end(), bucket,
        [](const std::pair<quint16, quint32> &b, quint16 key) { return b.first < key; });
    if (it != m_buckets.end() && it->first == bucket) {
        if (it->second < std::numeric_limits<quint32>::max())
            ++it->second;
    } else {
        m_buckets.insert(it, { bucket, 1 });
    }
    ++m_count;
    m_sum += double(ms);
    m_min = m_min < 0 ? ms : qMin(m_min, ms);
    m_max = qMax(m_max, ms);
}

void HoldHistogram::merge(const HoldHistogram &other)
{
    if (other.m_count == 0)
        return;
    std::vector<std::pair<quint16, quint32>> merged;
    merged.reserve(m_buckets.size() + other.m_buckets.size());
    auto a = m_buckets.cbegin(), b = other.m_buckets.cbegin();
    while (a != m_buckets.cend() || b != other.m_buckets.cend()) {
        if (b == other.m_buckets.cend() || (a != m_buckets.cend() && a->first < b->first)) {
            merged.push_back(*a++);
        } else if (a == m_buckets.cend() || b->first < a->first) {
            merged.push_back(*b++);
        } else {
            const quint64 sum = quint64(a->second) + b->second;
            merged.emplace_back(a->first, quint32(qMin<quint64>(sum, std::numeric_limits<quint32>::max())));
            ++a;
            ++b;
        }
    }
    m_buckets.swap(merged);
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_min = m_min < 0 ? other.m_min : qMin(m_min, other.m_min);
    m_max = qMax(m_max, other.m_max);
}

qint64 HoldHistogram::quantile(double q) const
{
    if (m_count == 0)
        return -1;
    q = std::clamp(q, 0.0, 1.0);
    // Nearest rank: the smallest value with at least q of the samples at or below it.
    const quint64 rank = qMax<quint64>(1, quint64(std::ceil(q * double(m_count))));
    quint64 seen = 0;
    for (const auto &[bucket, n] : m_buckets) {
        seen += n;
        if (seen >= rank) {
            const qint64 low = bucketLow(bucket), high = bucketHigh(bucket);
            const qint64 middle = high - low <= 1 ? low : low + (high - low) / 2;
            return std::clamp(middle, m_min, m_max);
        }
    }
    return m_max;
}

} // namespace LockScope
