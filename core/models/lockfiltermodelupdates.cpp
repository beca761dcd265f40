// LockFilterModel following its table: rows that come, change and go, on the rows shown and on the job working out
// the next ones.
#include "models/lockfiltermodel.h"

#include "models/locktablemodel.h"

#include <algorithm>

namespace LockScope {

namespace {
// Rows that come, go or move signalled one by one up to this many; more, one layout change. At a million rows a
// view's vertical header does work in proportion to every row for each signal (a layout change costs it one).
constexpr int kOneByOne = 8;
// Rows updated where they are, signalled one by one up to this many; more, one dataChanged over every row.
constexpr int kManyUpdated = 64;
// Rows changed at once that are placed again in the background, as a new order is, rather than one by one now
// (setting the console's own client id changes every row).
constexpr int kBigChange = 4096;
} // namespace

bool LockFilterModel::sortsBy(int firstColumn, int lastColumn) const
{
    const int column = m_rows.order().column();
    return column >= 0 && column >= firstColumn && column <= lastColumn;
}

void LockFilterModel::emitUpdated(const QList<QByteArray> &names, const QList<int> &roles)
{
    const int lastColumn = columnCount() - 1;
    if (names.size() > kManyUpdated) {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, lastColumn), roles);
        return;
    }
    for (const QByteArray &name : names) {
        const int row = m_passThrough ? m_source->rowOf(name) : m_rows.rowOf(name);
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, lastColumn), roles);
    }
}

void LockFilterModel::apply(Changes &changes)
{
    const qsizetype count = changes.leaving.size() + changes.joining.size() + changes.moving.size();
    if (count == 0)
        return;
    if (changes.leaving.isEmpty() && changes.moving.isEmpty()) {
        // Rows that all come after every row shown (new locks in the table's order, the usual case): one insertion.
        const RowOrder &order = m_rows.order();
        std::sort(changes.joining.begin(), changes.joining.end(), [&order](const SortedRow &a, const SortedRow &b) {
            return order.before(a.key(), a.name, a.seq, b.key(), b.name, b.seq);
        });
        const SortedRow &first = changes.joining.constFirst();
        if (m_rows.positionOf(first.key(), first.name, first.seq) == m_rows.size()) {
            beginInsertRows({}, m_rows.size(), m_rows.size() + int(changes.joining.size()) - 1);
            for (const SortedRow &row : std::as_const(changes.joining))
                m_rows.insert(row);
            endInsertRows();
            return;
        }
    }
    if (count <= kOneByOne) {
        applyOneByOne(changes);
        return;
    }
    changeLayout([&] {
        for (const QByteArray &name : std::as_const(changes.leaving))
            m_rows.remove(name);
        for (const SortedRow &row : std::as_const(changes.moving)) {
            m_rows.remove(row.name);
            m_rows.insert(row);
            changes.updated << row.name;
        }
        for (const SortedRow &row : std::as_const(changes.joining))
            m_rows.insert(row);
    });
}

void LockFilterModel::applyOneByOne(Changes &changes)
{
    for (const QByteArray &name : std::as_const(changes.leaving)) {
        const int row = m_rows.rowOf(name);
        if (row < 0)
            continue;
        beginRemoveRows({}, row, row);
        m_rows.remove(name);
        endRemoveRows();
    }
    for (const SortedRow &moving : std::as_const(changes.moving)) {
        const int row = m_rows.rowOf(moving.name);
        if (row < 0)
            continue;
        // `to` rows go before its new key, counting itself if its old key does too.
        const int to = m_rows.positionOf(moving.key(), moving.name, moving.seq);
        const bool stays = to == row || to == row + 1;
        if (!stays)
            beginMoveRows({}, row, row, {}, to);
        m_rows.remove(moving.name);
        m_rows.insert(moving);
        if (!stays)
            endMoveRows();
        changes.updated << moving.name;
    }
    for (const SortedRow &joining : std::as_const(changes.joining)) {
        const int row = m_rows.positionOf(joining.key(), joining.name, joining.seq);
        beginInsertRows({}, row, row);
        m_rows.insert(joining);
        endInsertRows();
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
        Changes changes;
        for (int row = first; row <= last; ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (record && m_shown.accepts(*record))
                changes.joining << SortedRow(
                    m_source->nameAt(row), m_rows.order().keyOf(*m_source, row), m_rows.nextSeq());
        }
        apply(changes);
    }
    // The table adds rows at its bottom, which a job still meeting rows reaches in turn; any other is new to it.
    if (m_job) {
        m_job->rowsInserted(first, last);
        for (int row = first; row <= last; ++row)
            if (!m_job->reaches(row))
                m_job->noteChanged(m_source->nameAt(row), true);
    }
}

void LockFilterModel::onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    if (m_passThrough) {
        beginRemoveRows({}, first, last);
    } else {
        Changes changes;
        for (int row = first; row <= last; ++row) {
            const QByteArray name = m_source->nameAt(row);
            if (m_rows.contains(name))
                changes.leaving << name;
        }
        apply(changes);
    }
    if (m_job) {
        for (int row = first; row <= last; ++row)
            if (!m_job->reaches(row))
                m_job->noteChanged(m_source->nameAt(row), true);
    }
}

void LockFilterModel::onRowsRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    if (m_passThrough)
        endRemoveRows();
    if (m_job)
        m_job->rowsRemoved(first, last);
}

void LockFilterModel::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    const int top = topLeft.row();
    const int bottom = bottomRight.row();
    const bool big = bottom - top + 1 > kBigChange;
    if (m_passThrough) {
        emit dataChanged(index(top, topLeft.column()), index(bottom, bottomRight.column()), roles);
    } else if (!sortsBy(topLeft.column(), bottomRight.column()) && !m_shown.filter().dependsOnData()) {
        // A name filter, and not the column it is sorted by: the rows shown stay the same rows, where they are.
        QList<QByteArray> names;
        for (int row = top; row <= qMin(bottom, top + kManyUpdated); ++row)
            names << m_source->nameAt(row);
        emitUpdated(names, roles);
    } else if (big) {
        // Shown updated where they are, and placed again in the background, as a new order would be.
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), roles);
        startJob();
        return;
    } else {
        // A row may go, come (a kind or a client: an update takes it out or brings it in) or move (what it sorts by
        // changed).
        Changes changes;
        RowOrder &order = m_rows.order();
        const bool moves = sortsBy(topLeft.column(), bottomRight.column());
        for (int row = top; row <= bottom; ++row) {
            const LockRecord *record = m_source->recordAt(row);
            if (!record)
                continue;
            const QByteArray name = m_source->nameAt(row);
            const SortedRow *shown = m_rows.find(name);
            const bool accepted = m_shown.accepts(*record);
            if (shown && !accepted) {
                changes.leaving << name;
            } else if (!shown && accepted) {
                changes.joining << SortedRow(name, order.keyOf(*m_source, row), m_rows.nextSeq());
            } else if (shown) {
                if (moves) {
                    const SortKey key = order.keyOf(*m_source, row);
                    if (!order.sameKey(key, shown->key())) {
                        changes.moving << SortedRow(name, key, shown->seq);
                        continue;
                    }
                }
                changes.updated << name;
            }
        }
        apply(changes);
        emitUpdated(changes.updated, roles);
        // Texts it sorts by that are no longer any row's pile up as rows change theirs (holders, tokens): worked
        // out afresh, in the background, once they outnumber the rows.
        if (!m_job && order.textCount() > 2 * qsizetype(m_rows.size()) + (1 << 16)) {
            startJob();
            return;
        }
    }
    if (m_job) {
        const int column = m_job->order().column();
        const bool matters = m_job->filter().filter().dependsOnData()
            || (column >= 0 && column >= topLeft.column() && column <= bottomRight.column());
        if (matters && big) {
            startJob(); // rows it has met changed by the thousand: met again
        } else if (matters) {
            for (int row = top; row <= bottom; ++row)
                if (!m_job->reaches(row))
                    m_job->noteChanged(m_source->nameAt(row), false);
        }
    }
}

void LockFilterModel::onSourceReset()
{
    retire(std::move(m_rows));
    m_rows = {};
    m_passThrough = true;
    m_shown.set({});
    m_sliceTimer.stop();
    retire(std::move(m_job));
    endResetModel();
    if (!m_wanted.filter().isEmpty() || m_wantedOrder != RowOrder())
        startJob();
}

} // namespace LockScope
