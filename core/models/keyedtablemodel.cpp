#include "models/keyedtablemodel.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace LockScope {

KeyedTableModel::KeyedTableModel(QList<QByteArray> ids, QStringList headers, QObject *parent)
    : QAbstractTableModel(parent)
    , m_ids(std::move(ids))
    , m_headers(std::move(headers))
{ }

int KeyedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KeyedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ids.size());
}

int KeyedTableModel::rowOf(const QByteArray &key) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).key == key)
            return i;
    return -1;
}

void KeyedTableModel::setHeaders(const QStringList &headers)
{
    m_headers = headers;
    if (!m_ids.isEmpty())
        emit headerDataChanged(Qt::Horizontal, 0, int(m_ids.size()) - 1);
}

QVariant KeyedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KeyedRow &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        const QVariant cell = row.cells.value(index.column());
        if (cell.typeId() == QMetaType::Double)
            return QString::number(cell.toDouble(), 'f', 1);
        return cell;
    }
    case Qt::ToolTipRole:
        return row.toolTip.isEmpty() ? QVariant() : QVariant(row.toolTip);
    case Qt::TextAlignmentRole: {
        const QVariant cell = row.cells.value(index.column());
        const bool number = cell.typeId() == QMetaType::Double || cell.typeId() == QMetaType::LongLong
            || cell.typeId() == QMetaType::Int;
        return QVariant::fromValue(Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    case KeyRole:
        return row.key;
    case LockRole:
        return row.lock;
    case ClientRole:
        return row.client;
    case ActionRole:
        return row.action;
    case SortRole:
        return row.cells.value(index.column());
    default:
        return {};
    }
}

QVariant KeyedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= m_headers.size())
        return {};
    return m_headers.at(section);
}

void KeyedTableModel::setRows(QList<KeyedRow> rows)
{
    QHash<QByteArray, int> wanted;
    for (int i = 0; i < rows.size(); ++i)
        wanted.insert(rows.at(i).key, i);
    // Rows that go, from the bottom so the indexes above stay right.
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (!wanted.contains(m_rows.at(i).key)) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
    // New rows join at the bottom, then one layout change puts every row in its place.
    QHash<QByteArray, int> have;
    for (int i = 0; i < m_rows.size(); ++i)
        have.insert(m_rows.at(i).key, i);
    QList<KeyedRow> added;
    for (const KeyedRow &row : rows)
        if (!have.contains(row.key))
            added << row;
    if (!added.isEmpty()) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size()) - 1);
        m_rows += added;
        endInsertRows();
    }
    bool ordered = true;
    for (int i = 0; i < m_rows.size() && ordered; ++i)
        ordered = m_rows.at(i).key == rows.at(i).key;
    if (!ordered) {
        emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        const QModelIndexList before = persistentIndexList();
        QModelIndexList after;
        after.reserve(before.size());
        for (const QModelIndex &index : before) {
            const int to = wanted.value(m_rows.at(index.row()).key);
            after << createIndex(to, index.column());
        }
        m_rows = rows;
        changePersistentIndexList(before, after);
        emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    } else {
        m_rows = rows;
    }
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, int(m_ids.size()) - 1));
}

QByteArray KeyedTableModel::toCsv() const
{
    const auto field = [](const QString &text) {
        if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
            && !text.contains(QLatin1Char('\r')))
            return text;
        return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
    };
    QByteArray out;
    QStringList line;
    for (const QString &h : m_headers)
        line << field(h);
    out += line.join(QLatin1Char(',')).toUtf8() + "\r\n";
    for (const KeyedRow &row : m_rows) {
        line.clear();
        for (int c = 0; c < m_ids.size(); ++c) {
            const QVariant cell = row.cells.value(c);
            line << field(cell.isValid() ? cell.toString() : QString());
        }
        out += line.join(QLatin1Char(',')).toUtf8() + "\r\n";
    }
    return out;
}

QByteArray KeyedTableModel::toJson() const
{
    QJsonArray array;
    for (const KeyedRow &row : m_rows) {
        QJsonObject o;
        for (int c = 0; c < m_ids.size(); ++c)
            o.insert(QString::fromLatin1(m_ids.at(c)), QJsonValue::fromVariant(row.cells.value(c)));
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

} // namespace LockScope
