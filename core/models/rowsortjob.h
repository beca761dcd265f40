#pragma once

#include "models/lockfilter.h"
#include "models/sortedrows.h"

#include <QHash>
#include <QList>

#include <vector>

namespace LockScope {

class LockTableModel;

// The rows of a lock table that pass a filter, in an order, found a slice at a time so that the window never waits
// for a million of them (issue 36): run() works until its budget is spent and says when the rows are ready. Four
// steps, each resumable anywhere: the rows that pass are met in table order and their sort keys read (the filter's
// matching), runs of them are sorted, the runs merged pairwise, pass after pass, and the merged rows laid into a
// SortedRows. The table may change meanwhile: rows it adds at the bottom are met in turn while rows are still being
// met; any other row that comes, changes or goes behind that point is noted (noteChanged()) and put right at the end,
// at its place in the finished rows.
class RowSortJob
{
public:
    RowSortJob(const LockFilterMatch &filter, RowOrder order, int tableRows);

    const LockFilterMatch &filter() const { return m_filter; }
    // Another name pinned while the job runs: both names are put right at the end (noteChanged).
    void setPinned(const QByteArray &name);
    const RowOrder &order() const { return m_rows.order(); }
    // One slice: until budgetMs have passed, or about maxRows rows were handled. True once the rows are ready.
    bool run(const LockTableModel &table, int budgetMs, int maxRows);
    bool isDone() const { return m_step == Step::Done; }
    SortedRows takeRows() { return std::move(m_rows); }

    // Whether the table row will be met in turn (rows are still being met, and it is at or after the cursor). A row
    // it will not meet that comes, changes or goes is to be noted.
    bool reaches(int row) const { return m_step == Step::Meet && row >= m_cursor; }
    // The cursor moves with the rows before it.
    void rowsInserted(int first, int last);
    void rowsRemoved(int first, int last);
    // A row to put right at the end: it changed, or went (left: it went from the table, and any row of that name
    // that comes back is a new one, met after every other).
    void noteChanged(const QByteArray &name, bool left);
    // Frees up to about `rows` rows' worth of what it holds (a job given up, dropped a slice at a time); true once
    // nothing is left.
    bool shed(int rows);

private:
    enum class Step { Meet, SortRuns, Merge, Lay, Settle, Done };
    // A row met, as it is sorted: 16 bytes, moved cheaply; its name is m_names[seq].
    struct Item
    {
        qint64 value;
        quint32 seq;
        quint8 kind;
    };
    bool less(const Item &a, const Item &b) const
    {
        return m_rows.order().before({ a.value, SortKey::Kind(a.kind) }, m_names[a.seq], a.seq,
            { b.value, SortKey::Kind(b.kind) }, m_names[b.seq], b.seq);
    }
    // Each step works until it is done (true, the next step set) or the slice is spent (false).
    struct Slice;
    bool meet(const LockTableModel &table, Slice &slice);
    bool sortRuns(Slice &slice);
    bool merge(Slice &slice);
    bool lay(Slice &slice);
    bool settle(const LockTableModel &table, Slice &slice);
    void sorted(); // the items are in order: on to laying them out

    LockFilterMatch m_filter;
    Step m_step = Step::Meet;
    int m_cursor = 0;
    std::vector<QByteArray> m_names; // by sequence number: the order met in
    std::vector<Item> m_items;
    std::vector<Item> m_scratch; // what a merge pass writes
    size_t m_runSize = 0;
    size_t m_sorted = 0; // SortRuns: items before it are in sorted runs; Lay: items laid
    // Merge: runs of m_width are merged pairwise into m_scratch; the pair from m_low, m_left and m_right its cursors
    size_t m_width = 0, m_low = 0, m_left = 0, m_right = 0, m_out = 0;
    SortedRows m_rows;
    // Names to put right at the end, in the order noted, and whether each went from the table.
    QHash<QByteArray, bool> m_changed;
    QList<QByteArray> m_changedOrder;
    qsizetype m_settled = 0;
};

} // namespace LockScope
