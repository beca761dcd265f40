#include "models/rowsortjob.h"

#include "models/locktablemodel.h"

#include <QElapsedTimer>

#include <algorithm>

namespace LockScope {

namespace {
constexpr size_t kMaxRun = 2048; // sorted at once: about a millisecond
} // namespace

// What one slice may still do. The clock is read every so many rows, not for each.
struct RowSortJob::Slice
{
    QElapsedTimer clock;
    int budgetMs = 0;
    int maxRows = 0;
    int handled = 0;
    bool spent(int every) const
    {
        return handled >= maxRows || (handled % every == 0 && handled > 0 && clock.elapsed() >= budgetMs);
    }
};

RowSortJob::RowSortJob(const LockFilterMatch &filter, RowOrder order, int tableRows)
    : m_filter(filter)
    , m_rows(std::move(order))
{
    // Reserved, not touched: pages are taken as rows come, and the vectors do not double in one step (a million
    // names moved while the window waits) unless the table grows by a quarter meanwhile.
    const size_t room = size_t(tableRows) + size_t(tableRows) / 4 + 1024;
    m_names.reserve(room);
    m_items.reserve(room);
}

void RowSortJob::rowsInserted(int first, int last)
{
    if (m_step == Step::Meet && first < m_cursor)
        m_cursor += last - first + 1;
}

void RowSortJob::rowsRemoved(int first, int last)
{
    if (m_step == Step::Meet && first < m_cursor)
        m_cursor -= qMin(m_cursor, last + 1) - first;
}

void RowSortJob::setPinned(const QByteArray &name)
{
    const QByteArray old = m_filter.pinned();
    if (old == name)
        return;
    m_filter.setPinned(name);
    for (const QByteArray &changed : { old, name })
        if (!changed.isEmpty())
            noteChanged(changed, false);
}

void RowSortJob::noteChanged(const QByteArray &name, bool left)
{
    if (m_step == Step::Done) // done, its rows not yet shown: put right before they are
        m_step = Step::Settle;
    const auto it = m_changed.find(name);
    if (it == m_changed.end()) {
        m_changed.insert(name, left);
        m_changedOrder << name;
    } else if (left) {
        it.value() = true;
    }
}

bool RowSortJob::run(const LockTableModel &table, int budgetMs, int maxRows)
{
    Slice slice;
    slice.clock.start();
    slice.budgetMs = budgetMs;
    slice.maxRows = qMax(1, maxRows);
    if (m_runSize == 0) // small slices (tests) sort small runs: several merge passes over a few rows
        m_runSize = size_t(qBound(2, maxRows, int(kMaxRun)));
    while (m_step != Step::Done) {
        bool stepDone = false;
        switch (m_step) {
        case Step::Meet:
            stepDone = meet(table, slice);
            break;
        case Step::SortRuns:
            stepDone = sortRuns(slice);
            break;
        case Step::Merge:
            stepDone = merge(slice);
            break;
        case Step::Lay:
            stepDone = lay(slice);
            break;
        case Step::Settle:
            stepDone = settle(table, slice);
            break;
        case Step::Done:
            break;
        }
        if (!stepDone)
            return false;
    }
    return true;
}

bool RowSortJob::meet(const LockTableModel &table, Slice &slice)
{
    RowOrder &order = m_rows.order();
    const int total = table.rowCount();
    while (m_cursor < total) {
        if (slice.spent(256))
            return false;
        const LockRecord *record = table.recordAt(m_cursor);
        if (record && m_filter.accepts(*record)) {
            const SortKey key = order.keyOf(table, m_cursor);
            m_items.push_back({ key.value, quint32(m_names.size()), quint8(key.kind) });
            m_names.push_back(table.nameAt(m_cursor));
        }
        ++m_cursor;
        ++slice.handled;
    }
    if (!order.isTableOrder()) {
        m_step = Step::SortRuns;
    } else {
        // Met in table order already: reversed, if that is what is asked.
        if (order.isDescending())
            std::reverse(m_items.begin(), m_items.end());
        sorted();
    }
    return true;
}

bool RowSortJob::sortRuns(Slice &slice)
{
    const size_t n = m_items.size();
    m_scratch.reserve(n);
    const auto less = [this](const Item &a, const Item &b) { return this->less(a, b); };
    while (m_sorted < n) {
        if (slice.spent(1))
            return false;
        const size_t end = qMin(n, m_sorted + m_runSize);
        std::sort(m_items.begin() + ptrdiff_t(m_sorted), m_items.begin() + ptrdiff_t(end), less);
        slice.handled += int(end - m_sorted);
        m_sorted = end;
        // The merge's buffer, a run's worth at a time: its pages are touched here, not all in one slice.
        m_scratch.resize(end);
    }
    m_width = m_runSize;
    m_low = 0;
    m_left = 0;
    m_right = qMin(m_width, n);
    m_out = 0;
    if (m_width >= n)
        sorted();
    else
        m_step = Step::Merge;
    return true;
}

bool RowSortJob::merge(Slice &slice)
{
    const size_t n = m_items.size();
    for (;;) {
        const size_t mid = qMin(m_low + m_width, n);
        const size_t high = qMin(m_low + 2 * m_width, n);
        while (m_out < high) {
            if (slice.spent(1024))
                return false;
            // The left run's row first on a tie: the order stays stable (keys never tie, their sequence numbers
            // differ, but a merge that is stable anyway costs nothing).
            if (m_right >= high || (m_left < mid && !less(m_items[m_right], m_items[m_left])))
                m_scratch[m_out++] = m_items[m_left++];
            else
                m_scratch[m_out++] = m_items[m_right++];
            ++slice.handled;
        }
        m_low = high;
        if (m_low >= n) {
            // A pass is over: runs twice as long, in the other buffer.
            std::swap(m_items, m_scratch);
            m_width *= 2;
            if (m_width >= n) {
                sorted();
                return true;
            }
            m_low = 0;
        }
        m_left = m_low;
        m_right = qMin(m_low + m_width, n);
        m_out = m_low;
    }
}

void RowSortJob::sorted()
{
    std::vector<Item>().swap(m_scratch);
    m_sorted = 0;
    m_rows.reserve(int(m_items.size()));
    m_step = Step::Lay;
}

bool RowSortJob::lay(Slice &slice)
{
    const size_t n = m_items.size();
    while (m_sorted < n) {
        if (slice.spent(512))
            return false;
        const Item &item = m_items[m_sorted];
        m_rows.append(SortedRow(std::move(m_names[item.seq]), { item.value, SortKey::Kind(item.kind) }, item.seq));
        ++m_sorted;
        ++slice.handled;
    }
    // What is left of them is small now: the names were moved out, the items are plain numbers.
    std::vector<Item>().swap(m_items);
    std::vector<QByteArray>().swap(m_names);
    m_step = Step::Settle;
    return true;
}

bool RowSortJob::settle(const LockTableModel &table, Slice &slice)
{
    RowOrder &order = m_rows.order();
    while (m_settled < m_changedOrder.size()) {
        if (slice.spent(64))
            return false;
        const QByteArray name = m_changedOrder.at(m_settled++);
        const bool left = m_changed.take(name);
        // A row that stays keeps its sequence number, so its place among equal keys stays the table's; one that
        // went and came back, or is new, comes after every row met.
        const SortedRow *old = m_rows.find(name);
        const bool keepsSeq = old && !left;
        const quint64 seq = keepsSeq ? old->seq : 0;
        if (old)
            m_rows.remove(name);
        const int row = table.rowOf(name);
        const LockRecord *record = row >= 0 ? table.recordAt(row) : nullptr;
        if (record && m_filter.accepts(*record))
            m_rows.insert(SortedRow(table.nameAt(row), order.keyOf(table, row), keepsSeq ? seq : m_rows.nextSeq()));
        ++slice.handled;
    }
    m_changedOrder.clear();
    m_changed.clear();
    m_settled = 0;
    m_step = Step::Done;
    return true;
}

bool RowSortJob::shed(int rows)
{
    int freed = 0;
    while (!m_names.empty() && freed < rows) {
        m_names.pop_back();
        ++freed;
    }
    if (freed >= rows)
        return false;
    std::vector<Item>().swap(m_items);
    std::vector<Item>().swap(m_scratch);
    m_changed.clear();
    m_changedOrder.clear();
    return m_rows.shed(rows - freed);
}

} // namespace LockScope
