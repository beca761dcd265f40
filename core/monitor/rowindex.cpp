#include "rowindex.h"

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
    const auto it = m_slotOf.constFind(name);
    return it == m_slotOf.cend() ? -1 : prefix(*it);
}

QByteArray RowIndex::nameAt(int row) const
{
    if (row < 0 || row >= m_live)
        return {};
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
    return m_slots[size_t(position)];
}

void RowIndex::append(const QByteArray &name)
{
    if (m_slotOf.contains(name))
        return;
    const int slot = int(m_slots.size());
    m_slots.push_back(name);
    m_alive.push_back(1);
    m_slotOf.insert(name, slot);
    ++m_live;
    // The new tree node i covers slots (i - lowbit(i), i]: its sum comes from prefix sums already there.
    const int i = slot + 1;
    if (m_tree.empty())
        m_tree.push_back(0);
    m_tree.push_back(1 + prefix(i - 1) - prefix(i - (i & -i)));
}

void RowIndex::remove(const QByteArray &name)
{
    const auto it = m_slotOf.find(name);
    if (it == m_slotOf.end())
        return;
    const int slot = *it;
    m_slotOf.erase(it);
    m_slots[size_t(slot)].clear();
    m_alive[size_t(slot)] = 0;
    add(slot, -1);
    --m_live;
    if (int(m_slots.size()) > 1024 && int(m_slots.size()) > 2 * m_live)
        compact();
}

void RowIndex::compact()
{
    std::vector<QByteArray> live;
    live.reserve(size_t(m_live));
    for (size_t i = 0; i < m_slots.size(); ++i)
        if (m_alive[i])
            live.push_back(std::move(m_slots[i]));
    m_slots.clear();
    m_alive.clear();
    m_tree.clear();
    m_slotOf.clear();
    m_live = 0;
    for (const QByteArray &name : live)
        append(name);
}

} // namespace LockScope
