#include "models/rowindex.h"

#include <vector>

namespace LockScope {

int RowIndex::prefix(int count) const
{
    int sum = 0;
    for (int i = count; i > 0; i -= i & -i)
        sum += m_tree[size_t(i)];
    return sum;
}

void RowIndex::add(int slot, int delta)
{
    for (int i = slot + 1; i < int(m_tree.size()); i += i & -i)
        m_tree[size_t(i)] += delta;
}

int RowIndex::rowOf(const QByteArray &name) const
{
    const QHash<QByteArray, int> &shard = slotsOf(name);
    const auto it = shard.constFind(name);
    return it == shard.cend() ? -1 : prefix(*it);
}

QByteArray RowIndex::nameAt(int row) const
{
    const int slot = slotAt(row);
    return slot < 0 ? QByteArray() : m_slots[size_t(slot)];
}

const void *RowIndex::payloadAt(int row) const
{
    const int slot = slotAt(row);
    return slot < 0 ? nullptr : m_payloads[size_t(slot)];
}

int RowIndex::slotAt(int row) const
{
    if (row < 0 || row >= m_live)
        return -1;
    if (m_live == int(m_slots.size()))
        return row; // no holes (nothing removed since the last compaction): rows are shard
    // The slot holding the (row + 1)-th live entry: descend the tree by powers of two.
    int position = 0, remaining = row + 1;
    int step = 1;
    while (step * 2 < int(m_tree.size()))
        step *= 2;
    for (; step > 0; step /= 2) {
        const int next = position + step;
        if (next < int(m_tree.size()) && m_tree[size_t(next)] < remaining) {
            position = next;
            remaining -= m_tree[size_t(next)];
        }
    }
    return position;
}

void RowIndex::setPayload(const QByteArray &name, const void *payload)
{
    const QHash<QByteArray, int> &shard = slotsOf(name);
    if (const auto it = shard.constFind(name); it != shard.cend())
        m_payloads[size_t(it.value())] = payload;
}

void RowIndex::append(const QByteArray &name, const void *payload)
{
    QHash<QByteArray, int> &shard = slotsOf(name);
    if (shard.contains(name))
        return;
    const int slot = int(m_slots.size());
    m_slots.push_back(name);
    m_alive.push_back(1);
    m_payloads.push_back(payload);
    shard.insert(name, slot);
    ++m_live;
    // The new tree node i covers shard (i - lowbit(i), i]: its sum comes from prefix sums already there.
    const int i = slot + 1;
    if (m_tree.empty())
        m_tree.push_back(0);
    m_tree.push_back(1 + prefix(i - 1) - prefix(i - (i & -i)));
}

void RowIndex::remove(const QByteArray &name)
{
    QHash<QByteArray, int> &shard = slotsOf(name);
    const auto it = shard.find(name);
    if (it == shard.end())
        return;
    const int slot = *it;
    shard.erase(it);
    m_slots[size_t(slot)].clear();
    m_alive[size_t(slot)] = 0;
    add(slot, -1);
    --m_live;
    if (int(m_slots.size()) > 1024 && int(m_slots.size()) > 2 * m_live)
        compact();
}

void RowIndex::compact()
{
    std::vector<std::pair<QByteArray, const void *>> live;
    live.reserve(size_t(m_live));
    for (size_t i = 0; i < m_slots.size(); ++i)
        if (m_alive[i])
            live.emplace_back(std::move(m_slots[i]), m_payloads[i]);
    m_slots.clear();
    m_alive.clear();
    m_payloads.clear();
    m_tree.clear();
    for (QHash<QByteArray, int> &shard : m_slotOf)
        shard.clear();
    m_live = 0;
    for (const auto &[name, payload] : live)
        append(name, payload);
}

} // namespace LockScope
