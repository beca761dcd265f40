#pragma once

#include "base/staggeredshards.h"

#include <QByteArray>
#include <QHash>

#include <array>
#include <deque>

namespace LockScope {

// Names in row order, where removing a row in the middle costs O(log n) instead of renumbering every row after
// it: rows live in slots that keep their place, removed ones become holes, and a Fenwick tree over the live slots
// turns a slot into its row and back. Holes are squeezed out once they outnumber the rows.
class RowIndex
{
public:
    int size() const { return m_live; }
    int rowOf(const QByteArray &name) const; // -1 when absent
    QByteArray nameAt(int row) const;
    const void *payloadAt(int row) const;
    bool contains(const QByteArray &name) const { return slotsOf(name).contains(name); }

    // The new last row, with a pointer the owner may keep for it (stable while the row exists).
    void append(const QByteArray &name, const void *payload = nullptr);
    void remove(const QByteArray &name);
    // Points name's row at another payload (the row stays where it is); nothing when name has no row.
    void setPayload(const QByteArray &name, const void *payload);

private:
    int prefix(int count) const; // live slots among the first `count`
    int slotAt(int row) const;
    void add(int slot, int delta);
    void compact();

    // Deques, not vectors: at a million rows a vector doubles in one step (tens of megabytes moved and touched while
    // the window waits); a deque grows a block at a time.
    std::deque<QByteArray> m_slots;
    std::deque<char> m_alive;
    std::deque<const void *> m_payloads; // 0: a hole (a name may be empty: Redis allows an empty key)
    std::deque<int> m_tree; // 1-based Fenwick tree of live slots
    // The slot of each name, in shards by hash: one hash of a million names rehashed them all at once as it grew
    // (84 ms with the window frozen, bench_monitor on 1M locks); a shard grows a 64th of that at a time, each at its
    // own point (StaggeredShards: 64 equal shards all grew within one batch of rows, 40 ms at 2^19 rows).
    static constexpr size_t kShards = 64;
    static size_t shardIndex(const QByteArray &name) { return StaggeredShards<kShards>::of(name); }
    QHash<QByteArray, int> &slotsOf(const QByteArray &name) { return m_slotOf[shardIndex(name)]; }
    const QHash<QByteArray, int> &slotsOf(const QByteArray &name) const { return m_slotOf[shardIndex(name)]; }
    std::array<QHash<QByteArray, int>, kShards> m_slotOf;
    int m_live = 0;
};

} // namespace LockScope
