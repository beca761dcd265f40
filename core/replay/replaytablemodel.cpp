#include "replay/replaytablemodel.h"

#include "base/durationtext.h"
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
    const auto it = std::lower_bound(
        m_rows.cbegin(), m_rows.cend(), name, [](const ReplayRow &row, const QByteArray &n) { return row.name < n; });
    return it != m_rows.cend() && it->name == name ? int(it - m_rows.cbegin()) : -1;
}

void ReplayTableModel::setFrame(const ReplayFrame &frame)
{
    // A merge of two lists sorted by name: a lock that goes is a removed row, one that comes an inserted one, and
    // the rest keep their rows (and a view's selection of them).
    const QList<ReplayRow> &next = frame.rows;
    qsizetype i = 0, j = 0;
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
            m_rows[i] = next.at(j);
            ++i;
            ++j;
        }
    }
    m_timeMs = frame.timeMs;
    // The TTL left and the time held change with the moment in every row.
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
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
            return row.heldMs < 0 ? (row.owners.isEmpty() ? QString() : tr("from before the recording"))
                                  : durationText(row.heldMs);
        }
        return {};
    case SortRole:
        switch (index.column()) {
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
