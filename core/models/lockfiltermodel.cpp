#include "models/lockfiltermodel.h"

#include "kinds/keyglob.h"
#include "models/locktablemodel.h"

#include <QElapsedTimer>

#include <algorithm>

namespace LockScope {

void LockFilterMatch::set(const LockFilter &filter)
{
    m_filter = filter;
    const QString &glob = filter.nameGlob;
    const bool simple = !glob.contains(QLatin1Char('[')) && !glob.contains(QLatin1Char('\\'));
    m_glob = simple ? glob.toUtf8() : QByteArray();
    m_regex = glob.isEmpty() || simple ? QRegularExpression()
                                       : QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob));
}

bool LockFilterMatch::accepts(const LockRecord &r) const
{
    // Straight from the record: matching a million rows asks this a million times.
    if (!m_filter.kind.isEmpty() && QLatin1String(LockInfo::kindName(r.info.kind)) != m_filter.kind)
        return false;
    if (!m_filter.clientId.isEmpty()
        && std::none_of(r.info.holders.cbegin(), r.info.holders.cend(),
            [this](const LockHolder &h) { return QLatin1String(h.client) == m_filter.clientId; }))
        return false;
    if (!m_glob.isEmpty())
        return globMatch(m_glob, r.info.name);
    return m_regex.pattern().isEmpty() || m_regex.match(QString::fromUtf8(r.info.name)).hasMatch();
}

LockFilterModel::LockFilterModel(QObject *parent)
    : QAbstractProxyModel(parent)
{
    m_sliceTimer.setSingleShot(true);
    m_sliceTimer.setInterval(0); // the next slice once the events waiting (keys, paints) have had their turn
    connect(&m_sliceTimer, &QTimer::timeout, this, &LockFilterModel::matchSlice);
}

void LockFilterModel::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = qobject_cast<LockTableModel *>(source);
    QAbstractProxyModel::setSourceModel(m_source);
    m_passThrough = true;
    m_rows = {};
    m_job = {};
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
    if (m_source && !m_wanted.filter().isEmpty())
        setFilter(m_wanted.filter());
}

void LockFilterModel::setSlice(int budgetMs, int maxRows)
{
    m_sliceBudgetMs = qMax(1, budgetMs);
    m_sliceMaxRows = qMax(1, maxRows);
}

void LockFilterModel::setFilter(const LockFilter &filter)
{
    m_wanted.set(filter);
    m_sliceTimer.stop();
    m_job = {};
    if (!m_source)
        return;
    if (filter.isEmpty()) {
        // Every row: nothing to find, the source's rows are shown as they are.
        showRows({}, true);
        return;
    }
    m_job.running = true;
    // The first slice at once: a table that fits in one is filtered before this returns, as the person typed.
    matchSlice();
}

void LockFilterModel::matchSlice()
{
    if (!m_job.running || !m_source)
        return;
    QElapsedTimer clock;
    clock.start();
    const int total = m_source->rowCount();
    int matched = 0;
    while (m_job.cursor < total && matched < m_sliceMaxRows) {
        // The clock is read every 1024 rows, not for each.
        if ((matched & 1023) == 1023 && clock.elapsed() >= m_sliceBudgetMs)
            break;
        const LockRecord *record = m_source->recordAt(m_job.cursor);
        if (record && m_wanted.accepts(*record))
            m_job.found.append(record->info.name, record);
        ++m_job.cursor;
        ++matched;
    }
    if (m_job.cursor < total) {
        m_sliceTimer.start();
        return;
    }
    RowIndex found = std::move(m_job.found);
    m_job = {};
    showRows(std::move(found), false);
}

QByteArray LockFilterModel::shownName(int row) const
{
    if (m_passThrough)
        return m_source ? m_source->nameAt(row) : QByteArray();
    return m_rows.nameAt(row);
}

void LockFilterModel::showRows(RowIndex next, bool passThrough)
{
    // One layout change, not a reset: the selection and the current row stay on their lock where it is still shown.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    const QModelIndexList before = persistentIndexList();
    QList<QByteArray> names;
    names.reserve(before.size());
    for (const QModelIndex &index : before)
        names << shownName(index.row());
    m_rows = std::move(next);
    m_passThrough = passThrough;
    m_shown = m_wanted;
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int row = m_passThrough ? m_source->rowOf(names.at(i)) : m_rows.rowOf(names.at(i));
        after << (row < 0 ? QModelIndex() : index(row, before.at(i).column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    emit filterApplied();
}

void LockFilterModel::appendShown(const QList<QPair<QByteArray, const LockRecord *>> &rows)
{
    if (rows.isEmpty())
        return;
    const int first = m_rows.size();
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    for (const auto &[name, record] : rows)
        m_rows.append(name, record);
    endInsertRows();
}

void LockFilterModel::removeShown(const QList<QByteArray> &names)
{
    QList<QPair<int, QByteArray>> rows;
    for (const QByteArray &name : names) {
        const int row = m_rows.rowOf(name);
        if (row >= 0)
            rows.append({ row, name });
    }
    // From the bottom up, a run of neighbouring rows at a time, so the rows still to remove keep their place.
    std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (qsizetype i = 0; i < rows.size();) {
        qsizetype j = i;
        while (j + 1 < rows.size() && rows.at(j + 1).first == rows.at(j).first - 1)
            ++j;
        beginRemoveRows({}, rows.at(j).first, rows.at(i).first);
        for (qsizetype k = i; k <= j; ++k)
            m_rows.remove(rows.at(k).second);
        endRemoveRows();
        i = j + 1;
    }
}

void LockFilterModel::onRowsAboutToBeInserted(const QModelIndex &parent, int first, int last)
{
    if (m_passThrough && !parent.isValid())
        beginInsertRows({}, first, last);
}

void LockFilterModel::onRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    if (m_passThrough) {
        endInsertRows();
    } else {
        QList<QPair<QByteArray, const LockRecord *>> shown;
        for (int row = first; row <= last; ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (record && m_shown.accepts(*record))
                shown.append({ record->info.name, record });
        }
        appendShown(shown);
    }
    // The table adds rows at its bottom, which the filter being matched reaches in turn. Rows put above its cursor
    // are matched now, and the cursor moves down with the rows it has done.
    if (m_job.running && first < m_job.cursor) {
        for (int row = first; row <= last; ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (record && m_wanted.accepts(*record))
                m_job.found.append(record->info.name, record);
        }
        m_job.cursor += last - first + 1;
    }
}

void LockFilterModel::onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    if (m_passThrough) {
        beginRemoveRows({}, first, last);
    } else {
        QList<QByteArray> names;
        for (int row = first; row <= last; ++row) {
            const QByteArray name = m_source->nameAt(row);
            if (m_rows.contains(name))
                names << name;
        }
        removeShown(names);
    }
    if (m_job.running) {
        for (int row = first; row <= qMin(last, m_job.cursor - 1); ++row)
            m_job.found.remove(m_source->nameAt(row));
    }
}

void LockFilterModel::onRowsRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    if (m_passThrough)
        endRemoveRows();
    // The rows above the cursor that went were matched already: it moves up with the rows below them.
    if (m_job.running && first < m_job.cursor)
        m_job.cursor -= qMin(m_job.cursor, last + 1) - first;
}

void LockFilterModel::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    const int lastColumn = columnCount() - 1;
    if (m_passThrough) {
        emit dataChanged(index(topLeft.row(), topLeft.column()), index(bottomRight.row(), bottomRight.column()), roles);
    } else if (!m_shown.filter().dependsOnData()) {
        // A name filter: the rows shown stay the same rows.
        if (bottomRight.row() - topLeft.row() > 64) {
            if (m_rows.size() > 0)
                emit dataChanged(index(0, 0), index(m_rows.size() - 1, lastColumn), roles);
        } else {
            for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
                const int shown = m_rows.rowOf(m_source->nameAt(row));
                if (shown >= 0)
                    emit dataChanged(index(shown, 0), index(shown, lastColumn), roles);
            }
        }
    } else {
        // A kind or a client: an update may bring a lock in (at the bottom) or take it out.
        QList<QPair<QByteArray, const LockRecord *>> joining;
        QList<QByteArray> leaving;
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (!record)
                continue;
            const int shown = m_rows.rowOf(record->info.name);
            const bool accepted = m_shown.accepts(*record);
            if (shown >= 0 && accepted)
                emit dataChanged(index(shown, 0), index(shown, lastColumn), roles);
            else if (shown >= 0)
                leaving << record->info.name;
            else if (accepted)
                joining.append({ record->info.name, record });
        }
        removeShown(leaving);
        appendShown(joining);
    }
    if (m_job.running && m_wanted.filter().dependsOnData()) {
        for (int row = topLeft.row(); row <= qMin(bottomRight.row(), m_job.cursor - 1); ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (!record)
                continue;
            const bool accepted = m_wanted.accepts(*record);
            if (accepted && !m_job.found.contains(record->info.name))
                m_job.found.append(record->info.name, record);
            else if (!accepted)
                m_job.found.remove(record->info.name);
        }
    }
}

void LockFilterModel::onSourceReset()
{
    m_rows = {};
    m_passThrough = true;
    m_shown.set({});
    m_sliceTimer.stop();
    m_job = {};
    endResetModel();
    if (!m_wanted.filter().isEmpty())
        setFilter(m_wanted.filter());
}

QModelIndex LockFilterModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_source || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    if (m_passThrough)
        return m_source->index(proxyIndex.row(), proxyIndex.column());
    const int row = m_source->rowOf(m_rows.nameAt(proxyIndex.row()));
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
