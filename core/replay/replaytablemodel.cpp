#include "replay/replaytablemodel.h"

#include "base/durationtext.h"
#include "kinds/keyglob.h"
#include "redis/bytesformat.h"

#include <QDateTime>

#include <algorithm>

namespace LockScope {

namespace {
QString ttlText(qint64 ttlMs)
{
    if (ttlMs == -1)
        return ReplayTableModel::tr("no expiry");
    return ttlMs < 0 ? QString() : durationText(ttlMs);
}

QString ownersText(const QList<QByteArray> &owners)
{
    QStringList out;
    for (const QByteArray &o : owners)
        out << escapeBytes(o, 80);
    return out.join(QStringLiteral(", "));
}
} // namespace

ReplayTableModel::ReplayTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

int ReplayTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ReplayTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int ReplayTableModel::rowOf(const QByteArray &name) const
{
    if (!byName()) {
        for (qsizetype i = 0; i < m_rows.size(); ++i)
            if (m_rows.at(i).name == name)
                return int(i);
        return -1;
    }
    const auto it = std::lower_bound(
        m_rows.cbegin(), m_rows.cend(), name, [](const ReplayRow &row, const QByteArray &n) { return row.name < n; });
    return it != m_rows.cend() && it->name == name ? int(it - m_rows.cbegin()) : -1;
}

QList<ReplayRow> ReplayTableModel::shown(const QList<ReplayRow> &all) const
{
    QList<ReplayRow> rows;
    if (m_filter.isEmpty()) {
        rows = all;
    } else {
        for (const ReplayRow &row : all)
            if (globMatch(m_filter, row.name))
                rows << row;
    }
    if (byName())
        return rows;
    const auto key = [this](const ReplayRow &row) -> qint64 {
        switch (m_sortColumn) {
        case Count:
            return row.count;
        case Ttl:
            return row.ttlMs;
        case HeldFor:
            return row.heldMs;
        case Holders:
            return row.owners.size();
        default:
            return 0;
        }
    };
    const auto text = [this](const ReplayRow &row) -> QByteArray {
        switch (m_sortColumn) {
        case Kind:
            return row.kind;
        case Library:
            return row.library;
        case Holders:
            return row.owners.value(0);
        default:
            return row.name;
        }
    };
    // Ties in name order, whichever way: a stable table while a recording plays.
    std::stable_sort(rows.begin(), rows.end(), [&](const ReplayRow &a, const ReplayRow &b) {
        const qint64 ka = key(a), kb = key(b);
        if (ka != kb)
            return m_sortOrder == Qt::AscendingOrder ? ka < kb : ka > kb;
        const QByteArray ta = text(a), tb = text(b);
        if (ta != tb)
            return m_sortOrder == Qt::AscendingOrder ? ta < tb : ta > tb;
        return m_sortOrder == Qt::AscendingOrder ? a.name < b.name : a.name > b.name;
    });
    return rows;
}

void ReplayTableModel::setFilter(const QString &glob)
{
    const QByteArray filter = glob.trimmed().isEmpty() ? QByteArray() : unescapeBytes(glob.trimmed());
    if (filter == m_filter)
        return;
    m_filter = filter;
    beginResetModel();
    m_rows = shown(m_all);
    endResetModel();
}

void ReplayTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount || (column == m_sortColumn && order == m_sortOrder))
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<QByteArray> names;
    for (const QModelIndex &i : before)
        names << m_rows.at(i.row()).name;
    m_rows = shown(m_all);
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int row = rowOf(names.at(i));
        after << (row < 0 ? QModelIndex() : index(row, before.at(i).column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void ReplayTableModel::setFrame(const ReplayFrame &frame)
{
    m_all = frame.rows;
    m_timeMs = frame.timeMs;
    m_snapshotMs = frame.snapshotMs;
    if (!byName()) {
        // Another order changes with every moment (the TTL runs down): the rows are laid out again.
        beginResetModel();
        m_rows = shown(m_all);
        endResetModel();
        return;
    }
    // A merge of two lists sorted by name: a lock that goes is a removed row, one that comes an inserted one, and
    // the rest keep their rows (and a view's selection of them). Past a few dozen runs of rows coming and going (a
    // jump across the recording), one reset costs a view and its proxy far less than as many inserts and removals,
    // each of which a sorting proxy answers by walking all its rows.
    const QList<ReplayRow> next = shown(m_all);
    constexpr int kMaxRuns = 32;
    int runs = 0;
    for (qsizetype i = 0, j = 0; (i < m_rows.size() || j < next.size()) && runs <= kMaxRuns;) {
        const bool gone = j == next.size() || (i < m_rows.size() && m_rows.at(i).name < next.at(j).name);
        const bool come = !gone && (i == m_rows.size() || next.at(j).name < m_rows.at(i).name);
        if (gone || come) {
            ++runs;
            while (gone && i < m_rows.size() && (j == next.size() || m_rows.at(i).name < next.at(j).name))
                ++i;
            while (come && j < next.size() && (i == m_rows.size() || next.at(j).name < m_rows.at(i).name))
                ++j;
        } else {
            ++i;
            ++j;
        }
    }
    if (runs > kMaxRuns) {
        beginResetModel();
        m_rows = next;
        endResetModel();
        return;
    }
    qsizetype i = 0, j = 0;
    qsizetype changedFrom = -1, changedTo = -1; // rows whose holders, count or kind changed
    while (i < m_rows.size() || j < next.size()) {
        if (j == next.size() || (i < m_rows.size() && m_rows.at(i).name < next.at(j).name)) {
            qsizetype end = i;
            while (end < m_rows.size() && (j == next.size() || m_rows.at(end).name < next.at(j).name))
                ++end;
            beginRemoveRows({}, int(i), int(end - 1));
            m_rows.remove(i, end - i);
            endRemoveRows();
        } else if (i == m_rows.size() || next.at(j).name < m_rows.at(i).name) {
            qsizetype end = j;
            while (end < next.size() && (i == m_rows.size() || next.at(end).name < m_rows.at(i).name))
                ++end;
            beginInsertRows({}, int(i), int(i + end - j - 1));
            m_rows.insert(i, end - j, ReplayRow {});
            std::copy(next.cbegin() + j, next.cbegin() + end, m_rows.begin() + i);
            endInsertRows();
            i += end - j;
            j = end;
        } else {
            ReplayRow &row = m_rows[i];
            const ReplayRow &now = next.at(j);
            if (row.owners != now.owners || row.count != now.count || row.kind != now.kind
                || row.library != now.library) {
                changedFrom = changedFrom < 0 ? i : changedFrom;
                changedTo = i;
            }
            row = now;
            ++i;
            ++j;
        }
    }
    if (m_rows.isEmpty())
        return;
    // The TTL left and the time held change with the moment in every row; a lock's name never does, so a view sorted
    // by name has nothing to re-sort.
    if (changedFrom >= 0)
        emit dataChanged(index(int(changedFrom), Kind), index(int(changedTo), Count));
    emit dataChanged(index(0, Ttl), index(int(m_rows.size()) - 1, HeldFor));
}

QVariant ReplayTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ReplayRow &row = m_rows.at(index.row());
    switch (role) {
    case NameRole:
        return row.name;
    case OwnersRole:
        return QVariant::fromValue(row.owners);
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Name:
            return escapeBytes(row.name);
        case Kind:
            return QString::fromLatin1(row.kind);
        case Library:
            return QString::fromUtf8(row.library);
        case Holders:
            return row.owners.isEmpty() ? tr("nobody") : ownersText(row.owners);
        case Count:
            return row.count;
        case Ttl:
            return ttlText(row.ttlMs);
        case HeldFor:
            if (row.heldMs >= 0)
                return durationText(row.heldMs);
            if (row.owners.isEmpty())
                return QString();
            // Begun before the snapshot the moment was replayed from: when, the snapshot cannot say.
            return m_snapshotMs < 0
                ? tr("from before the recording")
                : tr("since before %1")
                      .arg(QDateTime::fromMSecsSinceEpoch(m_snapshotMs).toString(QStringLiteral("HH:mm:ss")));
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Name:
            return row.name; // bytes compare as the rows are kept: a proxy's sort of thousands of rows stays cheap
        case Count:
            return row.count;
        case Ttl:
            return row.ttlMs;
        case HeldFor:
            return row.heldMs;
        case Holders:
            return qint64(row.owners.size());
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole:
        return index.column() == Count || index.column() == Ttl || index.column() == HeldFor
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    }
    return {};
}

QVariant ReplayTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Lock");
    case Kind:
        return tr("Kind");
    case Library:
        return tr("Library");
    case Holders:
        return tr("Held by");
    case Count:
        return tr("Count");
    case Ttl:
        return tr("TTL then");
    case HeldFor:
        return tr("Held for");
    }
    return {};
}

ReplayEventsModel::ReplayEventsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ReplayEventsModel::setEvents(const QList<RecordedEvent> &events)
{
    beginResetModel();
    m_events = events;
    endResetModel();
}

void ReplayEventsModel::setMomentMs(qint64 timeMs)
{
    if (timeMs == m_momentMs)
        return;
    m_momentMs = timeMs;
    if (!m_events.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_events.size()) - 1, ColumnCount - 1), { AfterMomentRole });
}

int ReplayEventsModel::rowAtMoment() const
{
    int row = -1;
    for (int i = 0; i < m_events.size() && m_events.at(i).timeMs <= m_momentMs; ++i)
        row = i;
    return row;
}

int ReplayEventsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int ReplayEventsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayEventsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const RecordedEvent &e = m_events.at(index.row());
    const bool after = m_momentMs >= 0 && e.timeMs > m_momentMs;
    switch (role) {
    case TimeRole:
        return e.timeMs;
    case AfterMomentRole:
        return after;
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        case Lock:
            return escapeBytes(e.name);
        case Event:
            return QString::fromLatin1(e.type);
        case Owner:
            return escapeBytes(e.owner, 80);
        case Count:
            return e.type == "gap-start" || e.type == "gap-end" ? QVariant() : QVariant(e.count);
        case Ttl:
            return e.ttlMs >= 0 ? durationText(e.ttlMs) : QString();
        case Detail:
            return e.detail;
        }
    }
    return {};
}

QVariant ReplayEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return tr("Time");
    case Lock:
        return tr("Lock");
    case Event:
        return tr("Event");
    case Owner:
        return tr("Holder");
    case Count:
        return tr("Count");
    case Ttl:
        return tr("TTL");
    case Detail:
        return tr("What was seen");
    }
    return {};
}

} // namespace LockScope
