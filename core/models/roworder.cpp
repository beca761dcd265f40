#include "models/roworder.h"

#include "models/locktablemodel.h"

namespace LockScope {

quint32 TextPool::add(const QString &text)
{
    QHash<QString, quint32> &shard = m_shared[qHash(text) % kShards];
    if (const auto it = shard.constFind(text); it != shard.cend())
        return it.value();
    const auto index = quint32(m_texts.size());
    m_texts.push_back(text);
    if (m_sharedCount < kMaxShared) {
        shard.insert(text, index);
        ++m_sharedCount;
    }
    return index;
}

RowOrder::RowOrder(int column, bool descending)
    : m_column(column < 0 ? -1 : column)
    , m_descending(descending)
{ }

SortKey RowOrder::keyOf(const LockTableModel &table, int row)
{
    if (m_column < 0)
        return {};
    // The name from the record, as lessThan took it: no QVariant, no escaping.
    if (m_column == LockTableModel::Name)
        return { 0, SortKey::Name };
    const QVariant value = table.sortValueAt(row, m_column);
    // QAbstractItemModelPrivate::isVariantLessThan, which QSortFilterProxyModel::lessThan calls: no value sorts
    // last, integers as integers, anything else as its text (case-sensitive, not locale-aware: the proxy's defaults).
    switch (value.typeId()) {
    case QMetaType::UnknownType:
        return {};
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        return { value.toLongLong(), SortKey::Number };
    default:
        return { qint64(m_texts.add(value.toString())), SortKey::Text };
    }
}

bool RowOrder::sameKey(const SortKey &a, const SortKey &b) const
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case SortKey::Missing:
    case SortKey::Name: // a row's name never changes
        return true;
    case SortKey::Number:
        return a.value == b.value;
    case SortKey::Text:
        return a.value == b.value || m_texts.at(quint32(a.value)) == m_texts.at(quint32(b.value));
    }
    return false;
}

int RowOrder::compare(const SortKey &a, const QByteArray &nameA, const SortKey &b, const QByteArray &nameB) const
{
    if (a.kind == SortKey::Missing || b.kind == SortKey::Missing)
        return int(a.kind == SortKey::Missing) - int(b.kind == SortKey::Missing);
    if (a.kind != b.kind) // one column never mixes numbers and texts; a fixed order all the same
        return int(a.kind) - int(b.kind);
    switch (a.kind) {
    case SortKey::Number:
        return a.value < b.value ? -1 : (a.value > b.value ? 1 : 0);
    case SortKey::Text:
        return a.value == b.value ? 0 : m_texts.at(quint32(a.value)).compare(m_texts.at(quint32(b.value)));
    case SortKey::Name:
        return nameA.compare(nameB); // QtPrivate::compareMemory, as operator< compares
    case SortKey::Missing:
        break;
    }
    return 0;
}

} // namespace LockScope
