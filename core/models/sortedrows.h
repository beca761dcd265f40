#pragma once

#include "base/staggeredshards.h"
#include "models/roworder.h"

#include <QByteArray>
#include <QHash>

#include <array>
#include <memory>
#include <vector>

namespace LockScope {

// One row shown: its lock's name, what it sorts by, and its sequence number (the order it was met in, which breaks
// ties).
struct SortedRow
{
    SortedRow()
        : seq(0)
        , kind(SortKey::Missing)
    { }
    SortedRow(QByteArray rowName, SortKey key, quint64 sequence)
        : name(std::move(rowName))
        , value(key.value)
        , seq(sequence)
        , kind(key.kind)
    { }
    SortKey key() const { return { value, SortKey::Kind(kind) }; }

    QByteArray name;
    qint64 value = 0;
    quint64 seq : 62;
    quint64 kind : 2;
};

// Rows kept in a RowOrder, for a million rows: a row goes in or out at its place, and is found by row number and by
// name, each in about log n steps, never renumbering every row after it. The rows live in blocks of up to
// kMaxBlock in order (a row goes in at its place in one block, which splits when full), the blocks' first rows are
// counted once after a change, when a row number is asked for, and each name points at its block.
class SortedRows
{
public:
    SortedRows() = default;
    explicit SortedRows(RowOrder order)
        : m_order(std::move(order))
    { }
    SortedRows(SortedRows &&) = default;
    SortedRows &operator=(SortedRows &&) = default;

    RowOrder &order() { return m_order; }
    const RowOrder &order() const { return m_order; }
    int size() const { return m_size; }
    bool contains(const QByteArray &name) const { return locate(name).block != nullptr; }
    const SortedRow *find(const QByteArray &name) const;
    int rowOf(const QByteArray &name) const; // -1 when absent
    const SortedRow &at(int row) const; // 0 <= row < size()
    // Where a row with this key, name and sequence number goes: how many rows go before it.
    int positionOf(const SortKey &key, const QByteArray &name, quint64 seq) const;

    // A row at its place (a name already in: nothing).
    void insert(SortedRow row);
    // A row after every other: rows handed over already in order.
    void append(SortedRow row);
    bool remove(const QByteArray &name);
    // A sequence number after every row's: a row met now, after all of them.
    quint64 nextSeq() { return m_nextSeq++; }
    // Sizes the name look-up for this many rows at once (their growth would rehash it step by step).
    void reserve(int rows);
    // Frees up to about `rows` rows (a big set dropped a slice at a time); true once it is empty.
    bool shed(int rows);

private:
    struct Block
    {
        std::vector<SortedRow> rows;
        int index = 0; // in m_blocks, and its first row: as of the last refresh()
        int start = 0;
    };
    struct Place
    {
        Block *block = nullptr;
        int offset = 0;
    };
    static constexpr int kMaxBlock = 1024;
    static constexpr int kBuildBlock = 512; // blocks built by append() leave room for rows that come later
    static constexpr size_t kShards = 256;

    QHash<QByteArray, Block *> &shardOf(const QByteArray &name)
    {
        return m_blockOf[StaggeredShards<kShards>::of(name)];
    }
    const QHash<QByteArray, Block *> &shardOf(const QByteArray &name) const
    {
        return m_blockOf[StaggeredShards<kShards>::of(name)];
    }
    Place locate(const QByteArray &name) const;
    bool goesBefore(const SortedRow &row, const SortKey &key, const QByteArray &name, quint64 seq) const
    {
        return m_order.before(row.key(), row.name, row.seq, key, name, seq);
    }
    void refresh() const;
    void split(Block *block);
    void dropOrMerge(Block *block);
    void noteSeq(quint64 seq) { m_nextSeq = qMax(m_nextSeq, seq + 1); }

    RowOrder m_order;
    std::vector<std::unique_ptr<Block>> m_blocks;
    // The blocks' first rows, for finding a row by number; stale after a change until refresh().
    mutable std::vector<int> m_starts;
    mutable bool m_stale = false;
    // Each name's block, in shards that grow each at its own point (StaggeredShards): one hash of a million names
    // rehashed them all at once as it grew. A set let go is freed a shard at a time (shed()): 256 of them, so that
    // a shard of a million names is a millisecond's work, not the 2-5 ms of a 64th.
    std::array<QHash<QByteArray, Block *>, kShards> m_blockOf;
    int m_size = 0;
    quint64 m_nextSeq = 0;
};

} // namespace LockScope
