#pragma once

#include "models/rowindex.h"

#include <QAbstractProxyModel>
#include <QRegularExpression>
#include <QTimer>

namespace LockScope {

class LockTableModel;
struct LockRecord;

// What the person narrowed the lock table to: a name glob, one kind, one client id (one JVM's whole footprint).
struct LockFilter
{
    QString nameGlob; // empty: every name
    QString kind; // LockTableModel::KindRole value; empty: every kind
    QString clientId; // empty: every client

    bool isEmpty() const { return nameGlob.isEmpty() && kind.isEmpty() && clientId.isEmpty(); }
    // Whether a lock's data (not its name, which never changes) decides: then an update may show or hide a row.
    bool dependsOnData() const { return !kind.isEmpty() || !clientId.isEmpty(); }
};

// A LockFilter ready to match records: its glob compiled once.
class LockFilterMatch
{
public:
    void set(const LockFilter &filter);
    const LockFilter &filter() const { return m_filter; }
    bool accepts(const LockRecord &record) const;

private:
    LockFilter m_filter;
    QByteArray m_glob; // '*' and '?' globs: matched on the name's bytes, without a copy per row
    QRegularExpression m_regex; // globs with [sets] or escapes
};

// The rows of a LockTableModel that pass a LockFilter, in the table's order, for a million rows without freezing the
// window (issue 18). A new filter is matched against the records a slice at a time (a few milliseconds, then the
// event loop runs: typing and painting go on), into a row index of its own; the rows shown change in one step when
// it is complete (layoutChanged, so the selection stays where it still can). Until then the rows of the previous
// filter stay, kept up to date. With no filter at all it passes every row through as it is, holding nothing.
// Rows that an update brings into a data filter (a kind, a client) join at the bottom, as new locks do in the table.
class LockFilterModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit LockFilterModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *source) override; // a LockTableModel
    void setFilter(const LockFilter &filter);
    LockFilter filter() const { return m_wanted.filter(); }
    bool isMatching() const { return m_job.running; } // a new filter's rows are still being found
    // How long one slice may run before the event loop gets its turn, and at most how many rows it matches (tests
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
    // The rows shown are now the filter's (after setFilter: all of them found).
    void filterApplied();

private:
    void matchSlice();
    // The rows shown become next's (empty: every source row), in one layout change.
    void showRows(RowIndex next, bool passThrough);
    QByteArray shownName(int row) const;
    void appendShown(const QList<QPair<QByteArray, const LockRecord *>> &rows);
    void removeShown(const QList<QByteArray> &names);

    void onRowsAboutToBeInserted(const QModelIndex &parent, int first, int last);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void onRowsRemoved(const QModelIndex &parent, int first, int last);
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void onSourceReset();

    LockTableModel *m_source = nullptr;
    // Shown: every source row (pass-through), or the names in m_rows.
    bool m_passThrough = true;
    LockFilterMatch m_shown;
    RowIndex m_rows;
    // The filter asked for, and while its rows are being found, how far that has come.
    LockFilterMatch m_wanted;
    struct Job
    {
        bool running = false;
        int cursor = 0; // source rows before it are matched
        RowIndex found;
    } m_job;
    QTimer m_sliceTimer;
    int m_sliceBudgetMs = 8;
    int m_sliceMaxRows = 1 << 30;
};

} // namespace LockScope
