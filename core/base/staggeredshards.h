#pragma once

#include <QByteArray>
#include <QHash>

#include <array>
#include <cmath>
#include <cstddef>

namespace LockScope {

// Which of `Shards` hash tables a name goes to, the shards' shares of the names unequal on purpose: from 1 to 2,
// geometrically. A hash table roughly doubles its buckets, rehashing every entry, at fixed sizes (QHash at powers of
// two, std::unordered_map at primes about twice the last); with equal shares every shard reaches the same size
// within the same few hundred names, and a million rows were rehashed in one batch of the table's (111 ms with the
// window frozen at 2^20 rows, 40 ms at 2^19: the stall that remained while a million locks load). With shares spread
// over a factor of two, each shard reaches its next size at its own point of the doubling, a shard's rows at a time.
template <size_t Shards> class StaggeredShards
{
public:
    static size_t of(const QByteArray &name)
    {
        static const std::array<quint8, kSlots> table = makeTable();
        return table[size_t(qHash(name) >> (sizeof(size_t) * 8 - kSlotBits))];
    }

private:
    static_assert(Shards <= 256, "a shard is a byte");
    static constexpr int kSlotBits = 12;
    static constexpr size_t kSlots = size_t(1) << kSlotBits;

    // Shard i gets a number of table proportional to 2^(i / Shards).
    static std::array<quint8, kSlots> makeTable()
    {
        double total = 0;
        for (size_t i = 0; i < Shards; ++i)
            total += std::exp2(double(i) / double(Shards));
        std::array<quint8, kSlots> table {};
        size_t slot = 0;
        double share = 0;
        for (size_t i = 0; i < Shards; ++i) {
            share += std::exp2(double(i) / double(Shards)) / total;
            const size_t end = i + 1 == Shards ? kSlots : size_t(std::lround(share * double(kSlots)));
            for (; slot < end; ++slot)
                table[slot] = quint8(i);
        }
        return table;
    }
};

} // namespace LockScope
