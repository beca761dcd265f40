#pragma once

#include "models/lockfilter.h"
#include "models/rowsortjob.h"
#include "models/sortedrows.h"

#include <QAbstractProxyModel>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

namespace LockScope {

class LockTableModel;

// The rows of a LockTableModel that pass a LockFilter, in the order a header click asked for, for a million rows
// without freezing the window (issues 18 and 36). A new filter or order is worked out a slice at a time (a few
// milliseconds, then the event loop runs: typing and painting go on; RowSortJob), and the rows shown change in one
// step when it is complete (layoutChanged, so the selection stays where it still can). Until then the rows shown
// keep their filter and order, kept up to date. With no filter and the table's order it passes every row through as
// it is, holding nothing.
//
// Sorted, a row keeps its place while the value it sorts by is the same; a row whose value changes moves to its
// place, and a row that comes goes to its place, after the rows whose value equals its own (ties go in the order the
// rows were met: the table's, where new locks come last, as QSortFilterProxyModel's stable sort kept them). Rows that
// an update brings into a data filter (a kind, a client) count as new: in the table's order they join at the bottom.
class LockFilterModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit LockFilterModel(QObject *parent = nullptr);
    ~LockFilterModel() override;

    void setSourceModel(QAbstractItemModel *source) override; // a LockTableModel
    void setFilter(const LockFilter &filter);
    LockFilter filter() const { return m_wanted.filter(); }
    // The lock a person chose: its row is shown whatever the filter says, marked HiddenByFilterRole when the filter
    // alone would hide it (the actions act on it, so it stays in view). Empty: none. A row in or out, not a new job.
    void setPinned(const QByteArray &name);
    QByteArray pinned() const { return m_wanted.pinned(); }
    enum Role {
        HiddenByFilterRole = Qt::UserRole + 64, // the row is shown only because it is pinned (bool)
    };
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // The rows ordered by a column's LockTableModel::SortRole values (-1: the table's order), as QTableView asks when
    // its header is clicked.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_wantedOrder.column(); }
    Qt::SortOrder sortOrder() const { return m_wantedOrder.isDescending() ? Qt::DescendingOrder : Qt::AscendingOrder; }
    // A new filter's or order's rows are still being worked out (the rows shown are the previous ones).
    bool isMatching() const { return m_job != nullptr; }
    // How long one slice may run before the event loop gets its turn, and at most how many rows it handles (tests
    // set a small number to see several slices).
    void setSlice(int budgetMs, int maxRows);

    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;

signals:
    // The rows shown are now the filter's, in the order asked (after setFilter or sort: all of them worked out).
    void filterApplied();

private:
    // What an update of the table does to the rows shown.
    struct Changes
    {
        QList<QByteArray> leaving;
        QList<SortedRow> joining;
        QList<SortedRow> moving; // with their new keys
        QList<QByteArray> updated; // stay where they are
    };

    void startJob();
    // One slice of the job; the rows shown change when it completes: in this turn of the event loop if it is the
    // first slice (a small table, shown at once) or used little of its time, else in the next (a layout change of a
    // million rows costs a few milliseconds of its own).
    void runSlice(int budgetMs, bool first);
    void showJobRows();
    // The rows shown become these (or, passThrough, every source row as it is), in one layout change.
    void show(SortedRows rows, const LockFilterMatch &filter, bool passThrough);
    void changeLayout(const std::function<void()> &change);
    QByteArray shownName(int row) const;
    bool sortsBy(int firstColumn, int lastColumn) const;
    void apply(Changes &changes);
    void applyOneByOne(Changes &changes);
    void emitUpdated(const QList<QByteArray> &names, const QList<int> &roles);
    // Big sets that are let go are freed a slice at a time: a million names freed at once held the window.
    void retire(SortedRows rows);
    void retire(std::unique_ptr<RowSortJob> job);
    void shedSlice();

    void onRowsAboutToBeInserted(const QModelIndex &parent, int first, int last);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void onRowsRemoved(const QModelIndex &parent, int first, int last);
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void onSourceReset();

    LockTableModel *m_source = nullptr;
    // Shown: every source row (pass-through), or m_rows, in m_rows.order().
    bool m_passThrough = true;
    LockFilterMatch m_shown;
    SortedRows m_rows;
    // The filter and order asked for, and while their rows are being worked out, the job doing it.
    LockFilterMatch m_wanted;
    RowOrder m_wantedOrder;
    std::unique_ptr<RowSortJob> m_job;
    bool m_jobDone = false; // its rows are ready, and shown in the next turn
    QTimer m_sliceTimer;
    // 6 ms: a turn also frees the previous rows (2 ms), paints and lays out a million rows; with 8 ms slices, in four
    // runs of six a sort's or filter's longest turn at a million rows went over 16 ms (bench_console,
    // docs/benchmarks.md).
    int m_sliceBudgetMs = 6;
    int m_sliceMaxRows = 1 << 30;
    std::vector<std::unique_ptr<SortedRows>> m_retiredRows;
    std::vector<std::unique_ptr<RowSortJob>> m_retiredJobs;
    QTimer m_shedTimer;
};

} // namespace LockScope
