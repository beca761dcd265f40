#include "kinds/walkedkeys.h"

#include <QHash>

namespace LockScope {

namespace {
constexpr int kBitsLog2 = 25;
constexpr quint64 kBitMask = (quint64(1) << kBitsLog2) - 1;
constexpr int kProbes = 3;

// kProbes bit positions from one 64-bit hash (double hashing: a + i * b, b odd).
template <typename F> void forEachBit(const QByteArray &key, F f)
{
    const quint64 h = quint64(qHash(QByteArrayView(key), size_t(0x9e3779b97f4a7c15ULL)));
    const quint64 step = (h >> 32) | 1;
    for (int i = 0; i < kProbes; ++i)
        f((h + quint64(i) * step) & kBitMask);
}
} // namespace

void WalkedKeys::clear()
{
    m_words.clear();
}

void WalkedKeys::insert(const QByteArray &key)
{
    if (m_words.empty())
        m_words.assign(std::size_t(1) << (kBitsLog2 - 6), 0);
    forEachBit(key, [this](quint64 bit) { m_words[bit >> 6] |= quint64(1) << (bit & 63); });
}

bool WalkedKeys::mayContain(const QByteArray &key) const
{
    if (m_words.empty())
        return false;
    bool all = true;
    forEachBit(key, [this, &all](quint64 bit) { all = all && (m_words[bit >> 6] >> (bit & 63)) & 1; });
    return all;
}

} // namespace LockScope
