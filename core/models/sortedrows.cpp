#include "models/sortedrows.h"

#include <algorithm>

namespace LockScope {

SortedRows::Place SortedRows::locate(const QByteArray &name) const
{
    const QHash<QByteArray, Block *> &shard = shardOf(name);
    const auto it = shard.constFind(name);
    if (it == shard.cend())
        return {};
    Block *block = it.value();
    // A name taken from the table shares its bytes with the row's: the pointers are compared first, the bytes only
    // when it came from elsewhere.
    const char *bytes = name.constData();
    for (size_t i = 0; i < block->rows.size(); ++i)
        if (block->rows[i].name.constData() == bytes)
            return { block, int(i) };
    for (size_t i = 0; i < block->rows.size(); ++i)
        if (block->rows[i].name == name)
            return { block, int(i) };
    return {};
}

const SortedRow *SortedRows::find(const QByteArray &name) const
{
    const Place place = locate(name);
    return place.block ? &place.block->rows[size_t(place.offset)] : nullptr;
}

void SortedRows::refresh() const
{
    if (!m_stale)
        return;
    m_starts.resize(m_blocks.size());
    int start = 0;
    for (size_t i = 0; i < m_blocks.size(); ++i) {
        Block *block = m_blocks[i].get();
        block->index = int(i);
        block->start = start;
        m_starts[i] = start;
        start += int(block->rows.size());
    }
    m_stale = false;
}

int SortedRows::rowOf(const QByteArray &name) const
{
    const Place place = locate(name);
    if (!place.block)
        return -1;
    refresh();
    return place.block->start + place.offset;
}

const SortedRow &SortedRows::at(int row) const
{
    refresh();
    const auto it = std::upper_bound(m_starts.cbegin(), m_starts.cend(), row);
    const Block *block = m_blocks[size_t(it - m_starts.cbegin() - 1)].get();
    return block->rows[size_t(row - block->start)];
}

int SortedRows::positionOf(const SortKey &key, const QByteArray &name, quint64 seq) const
{
    refresh();
    // The first block whose last row does not go before it holds its place (or none does: the end).
    const auto blockIt = std::partition_point(m_blocks.cbegin(), m_blocks.cend(),
        [&](const std::unique_ptr<Block> &b) { return goesBefore(b->rows.back(), key, name, seq); });
    if (blockIt == m_blocks.cend())
        return m_size;
    const Block *block = blockIt->get();
    const auto rowIt = std::partition_point(
        block->rows.cbegin(), block->rows.cend(), [&](const SortedRow &r) { return goesBefore(r, key, name, seq); });
    return block->start + int(rowIt - block->rows.cbegin());
}

void SortedRows::insert(SortedRow row)
{
    QHash<QByteArray, Block *> &shard = shardOf(row.name);
    if (shard.contains(row.name))
        return;
    noteSeq(row.seq);
    const SortKey key = row.key();
    if (m_blocks.empty())
        m_blocks.push_back(std::make_unique<Block>());
    // Blocks are never empty but for the first one, just made.
    auto blockIt = std::partition_point(m_blocks.begin(), m_blocks.end(), [&](const std::unique_ptr<Block> &b) {
        return !b->rows.empty() && goesBefore(b->rows.back(), key, row.name, row.seq);
    });
    if (blockIt == m_blocks.end())
        --blockIt; // after every row: at the end of the last block
    Block *block = blockIt->get();
    const auto at = std::partition_point(block->rows.begin(), block->rows.end(),
        [&](const SortedRow &r) { return goesBefore(r, key, row.name, row.seq); });
    shard.insert(row.name, block);
    block->rows.insert(at, std::move(row));
    ++m_size;
    m_stale = true;
    if (int(block->rows.size()) > kMaxBlock)
        split(block);
}

void SortedRows::append(SortedRow row)
{
    QHash<QByteArray, Block *> &shard = shardOf(row.name);
    if (shard.contains(row.name))
        return;
    noteSeq(row.seq);
    if (m_blocks.empty() || int(m_blocks.back()->rows.size()) >= kBuildBlock) {
        m_blocks.push_back(std::make_unique<Block>());
        m_blocks.back()->rows.reserve(kBuildBlock);
    }
    Block *block = m_blocks.back().get();
    shard.insert(row.name, block);
    block->rows.push_back(std::move(row));
    ++m_size;
    m_stale = true;
}

void SortedRows::split(Block *block)
{
    refresh();
    auto upper = std::make_unique<Block>();
    const auto half = block->rows.begin() + ptrdiff_t(block->rows.size() / 2);
    upper->rows.assign(std::make_move_iterator(half), std::make_move_iterator(block->rows.end()));
    block->rows.erase(half, block->rows.end());
    for (const SortedRow &r : upper->rows)
        shardOf(r.name)[r.name] = upper.get();
    m_blocks.insert(m_blocks.begin() + block->index + 1, std::move(upper));
    m_stale = true;
}

bool SortedRows::remove(const QByteArray &name)
{
    const Place place = locate(name);
    if (!place.block)
        return false;
    shardOf(name).remove(name);
    place.block->rows.erase(place.block->rows.begin() + place.offset);
    --m_size;
    m_stale = true;
    dropOrMerge(place.block);
    return true;
}

void SortedRows::dropOrMerge(Block *block)
{
    // A block left nearly empty joins a neighbour with room, so that rows removed one by one do not leave a
    // million blocks of one row each.
    const int size = int(block->rows.size());
    if (size >= kBuildBlock / 8)
        return;
    refresh();
    const int index = block->index;
    if (size == 0) {
        m_blocks.erase(m_blocks.begin() + index);
        m_stale = true;
        return;
    }
    Block *into = nullptr;
    bool atEnd = true;
    if (index > 0 && int(m_blocks[size_t(index - 1)]->rows.size()) + size <= kBuildBlock)
        into = m_blocks[size_t(index - 1)].get();
    else if (index + 1 < int(m_blocks.size()) && int(m_blocks[size_t(index + 1)]->rows.size()) + size <= kBuildBlock) {
        into = m_blocks[size_t(index + 1)].get();
        atEnd = false;
    }
    if (!into)
        return;
    for (const SortedRow &r : block->rows)
        shardOf(r.name)[r.name] = into;
    into->rows.insert(atEnd ? into->rows.end() : into->rows.begin(), std::make_move_iterator(block->rows.begin()),
        std::make_move_iterator(block->rows.end()));
    m_blocks.erase(m_blocks.begin() + index);
    m_stale = true;
}

void SortedRows::reserve(int rows)
{
    const qsizetype perShard = qsizetype(rows) / qsizetype(kShards) + 1;
    for (QHash<QByteArray, Block *> &shard : m_blockOf)
        shard.reserve(perShard + perShard / 8);
}

bool SortedRows::shed(int rows)
{
    int freed = 0;
    // The look-up first, a shard at a time (it is what costs: a node per row), then the blocks from the end.
    for (QHash<QByteArray, Block *> &shard : m_blockOf) {
        if (shard.isEmpty() && shard.capacity() == 0)
            continue;
        freed += int(shard.size());
        shard = {};
        if (freed >= rows)
            return false;
    }
    while (!m_blocks.empty() && freed < rows) {
        freed += int(m_blocks.back()->rows.size());
        m_size -= int(m_blocks.back()->rows.size());
        m_blocks.pop_back();
        m_stale = true;
    }
    return m_blocks.empty();
}

} // namespace LockScope
