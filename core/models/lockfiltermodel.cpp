#include "models/lockfiltermodel.h"

#include "models/locktablemodel.h"

#include <QElapsedTimer>

namespace LockScope {

namespace {
// A big set let go is freed a step of rows at a time, for about two milliseconds a turn: a turn's slice of a new
// sort or filter runs in the same turn (both are zero timers), and 32768 rows at once took 4-21 ms at a million rows.
constexpr int kShedStep = 2048;
constexpr qint64 kShedBudgetNs = 2000000;
// Smaller sets go at once.
constexpr int kRetireAtOnce = 4096;
} // namespace

LockFilterModel::LockFilterModel(QObject *parent)
    : QAbstractProxyModel(parent)
{
    m_sliceTimer.setSingleShot(true);
    m_sliceTimer.setInterval(0); // the next slice once the events waiting (keys, paints) have had their turn
    connect(&m_sliceTimer, &QTimer::timeout, this,
        [this] { m_jobDone ? showJobRows() : runSlice(m_sliceBudgetMs, false); });
    m_shedTimer.setSingleShot(true);
    m_shedTimer.setInterval(0);
    connect(&m_shedTimer, &QTimer::timeout, this, &LockFilterModel::shedSlice);
}

LockFilterModel::~LockFilterModel() = default;

void LockFilterModel::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = qobject_cast<LockTableModel *>(source);
    QAbstractProxyModel::setSourceModel(m_source);
    m_passThrough = true;
    retire(std::move(m_rows));
    m_rows = {};
    retire(std::move(m_job));
    m_shown.set({});
    if (m_source) {
        connect(m_source, &QAbstractItemModel::rowsAboutToBeInserted, this, &LockFilterModel::onRowsAboutToBeInserted);
        connect(m_source, &QAbstractItemModel::rowsInserted, this, &LockFilterModel::onRowsInserted);
        connect(m_source, &QAbstractItemModel::rowsAboutToBeRemoved, this, &LockFilterModel::onRowsAboutToBeRemoved);
        connect(m_source, &QAbstractItemModel::rowsRemoved, this, &LockFilterModel::onRowsRemoved);
        connect(m_source, &QAbstractItemModel::dataChanged, this, &LockFilterModel::onDataChanged);
        connect(m_source, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
        connect(m_source, &QAbstractItemModel::modelReset, this, &LockFilterModel::onSourceReset);
        connect(m_source, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    endResetModel();
    if (!m_wanted.filter().isEmpty() || m_wantedOrder != RowOrder())
        startJob();
}

void LockFilterModel::setSlice(int budgetMs, int maxRows)
{
    m_sliceBudgetMs = qMax(1, budgetMs);
    m_sliceMaxRows = qMax(1, maxRows);
}

void LockFilterModel::setFilter(const LockFilter &filter)
{
    m_wanted.set(filter);
    startJob();
}

void LockFilterModel::setPinned(const QByteArray &name)
{
    const QByteArray old = m_wanted.pinned();
    if (old == name)
        return;
    m_wanted.setPinned(name);
    m_shown.setPinned(name);
    if (m_job)
        m_job->setPinned(name);
    if (m_passThrough || !m_source)
        return; // every row is shown already
    Changes changes;
    if (!old.isEmpty() && m_rows.contains(old)) {
        const int row = m_source->rowOf(old);
        const LockRecord *record = row >= 0 ? m_source->recordAt(row) : nullptr;
        if (!record || !m_shown.accepts(*record))
            changes.leaving << old;
    }
    if (!name.isEmpty() && !m_rows.contains(name)) {
        const int row = m_source->rowOf(name);
        const LockRecord *record = row >= 0 ? m_source->recordAt(row) : nullptr;
        if (record && m_shown.accepts(*record))
            changes.joining << SortedRow(name, m_rows.order().keyOf(*m_source, row), m_rows.nextSeq());
    }
    apply(changes);
    // The old pin's row stays when the filter passes it: it is no longer marked.
    if (!old.isEmpty() && m_rows.contains(old))
        emitUpdated({ old }, {});
}

QVariant LockFilterModel::data(const QModelIndex &index, int role) const
{
    if (role != HiddenByFilterRole)
        return QAbstractProxyModel::data(index, role);
    if (m_passThrough || m_shown.pinned().isEmpty() || shownName(index.row()) != m_shown.pinned())
        return false;
    const int row = m_source->rowOf(m_shown.pinned());
    const LockRecord *record = row >= 0 ? m_source->recordAt(row) : nullptr;
    return record && !m_shown.matches(*record);
}

void LockFilterModel::sort(int column, Qt::SortOrder order)
{
    const RowOrder wanted(column, order == Qt::DescendingOrder);
    // Asked again for what it shows or is working out (a view sorts again when sorting is switched on): nothing
    // to do, as QSortFilterProxyModel did nothing.
    const RowOrder shown = m_passThrough ? RowOrder() : m_rows.order();
    if (wanted == m_wantedOrder && (m_job || wanted == shown))
        return;
    m_wantedOrder = wanted;
    startJob();
}

void LockFilterModel::startJob()
{
    m_sliceTimer.stop();
    m_jobDone = false;
    retire(std::move(m_job));
    if (!m_source)
        return;
    if (m_wanted.filter().isEmpty() && m_wantedOrder == RowOrder()) {
        // Every row as the table has it: nothing to work out, the source's rows are shown as they are.
        if (!m_passThrough)
            show({}, m_wanted, true);
        else
            emit filterApplied();
        return;
    }
    m_job = std::make_unique<RowSortJob>(
        m_wanted, RowOrder(m_wantedOrder.column(), m_wantedOrder.isDescending()), m_source->rowCount());
    // A first, shorter slice at once: a small table is filtered and sorted before this returns, and a big one
    // leaves room in this frame (a keystroke's, a click's) for the view to lay out and paint.
    runSlice(qMax(1, m_sliceBudgetMs / 2), true);
}

void LockFilterModel::runSlice(int budgetMs, bool first)
{
    if (!m_job || !m_source)
        return;
    QElapsedTimer clock;
    clock.start();
    if (!m_job->run(*m_source, budgetMs, m_sliceMaxRows)) {
        m_sliceTimer.start();
        return;
    }
    // A job done in the first slice, at once, was a small table's: its rows are shown in the same frame.
    if (!first && clock.elapsed() * 2 >= budgetMs) {
        m_jobDone = true;
        m_sliceTimer.start();
        return;
    }
    showJobRows();
}

void LockFilterModel::showJobRows()
{
    m_jobDone = false;
    if (!m_job)
        return;
    // Rows that changed since it was done are put right first.
    if (!m_job->isDone() && !m_job->run(*m_source, m_sliceBudgetMs, m_sliceMaxRows)) {
        m_sliceTimer.start();
        return;
    }
    const std::unique_ptr<RowSortJob> job = std::move(m_job);
    show(job->takeRows(), job->filter(), false);
}

void LockFilterModel::show(SortedRows rows, const LockFilterMatch &filter, bool passThrough)
{
    changeLayout([&] {
        retire(std::move(m_rows));
        m_rows = std::move(rows);
        m_passThrough = passThrough;
        m_shown = filter;
    });
    emit filterApplied();
}

QByteArray LockFilterModel::shownName(int row) const
{
    if (m_passThrough)
        return m_source ? m_source->nameAt(row) : QByteArray();
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).name : QByteArray();
}

void LockFilterModel::changeLayout(const std::function<void()> &change)
{
    // One layout change, not a reset: the selection and the current row stay on their lock where it is still shown.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    const QModelIndexList before = persistentIndexList();
    QList<QByteArray> names;
    names.reserve(before.size());
    for (const QModelIndex &index : before)
        names << shownName(index.row());
    change();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int row = m_passThrough ? m_source->rowOf(names.at(i)) : m_rows.rowOf(names.at(i));
        after << (row < 0 ? QModelIndex() : index(row, before.at(i).column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
}

void LockFilterModel::retire(SortedRows rows)
{
    if (rows.size() <= kRetireAtOnce)
        return; // small: freed as it goes out of scope
    m_retiredRows.push_back(std::make_unique<SortedRows>(std::move(rows)));
    m_shedTimer.start();
}

void LockFilterModel::retire(std::unique_ptr<RowSortJob> job)
{
    if (!job)
        return;
    m_retiredJobs.push_back(std::move(job));
    m_shedTimer.start();
}

void LockFilterModel::shedSlice()
{
    QElapsedTimer clock;
    clock.start();
    do {
        if (!m_retiredJobs.empty()) {
            if (m_retiredJobs.back()->shed(kShedStep))
                m_retiredJobs.pop_back();
        } else if (!m_retiredRows.empty()) {
            if (m_retiredRows.back()->shed(kShedStep))
                m_retiredRows.pop_back();
        } else {
            break;
        }
    } while (clock.nsecsElapsed() < kShedBudgetNs);
    if (!m_retiredJobs.empty() || !m_retiredRows.empty())
        m_shedTimer.start();
}

QModelIndex LockFilterModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_source || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    if (m_passThrough)
        return m_source->index(proxyIndex.row(), proxyIndex.column());
    if (proxyIndex.row() >= m_rows.size())
        return {};
    const int row = m_source->rowOf(m_rows.at(proxyIndex.row()).name);
    return row < 0 ? QModelIndex() : m_source->index(row, proxyIndex.column());
}

QModelIndex LockFilterModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!m_source || !sourceIndex.isValid() || sourceIndex.model() != m_source)
        return {};
    if (m_passThrough)
        return index(sourceIndex.row(), sourceIndex.column());
    const int row = m_rows.rowOf(m_source->nameAt(sourceIndex.row()));
    return row < 0 ? QModelIndex() : index(row, sourceIndex.column());
}

QModelIndex LockFilterModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex LockFilterModel::parent(const QModelIndex &) const
{
    return {};
}

int LockFilterModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_source)
        return 0;
    return m_passThrough ? m_source->rowCount() : m_rows.size();
}

int LockFilterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_source ? 0 : m_source->columnCount();
}

bool LockFilterModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

} // namespace LockScope
