#include "lockfilterproxy.h"

#include "models/locktablemodel.h"

#include <QFont>

namespace LockScope {

LockFilterProxy::LockFilterProxy(LockTableModel *table, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_table(table)
    , m_filterModel(new LockFilterModel(this))
{
    m_filterModel->setSourceModel(table);
    setSourceModel(m_filterModel);
    setSortRole(LockTableModel::SortRole);
}

void LockFilterProxy::apply(const std::function<void(LockFilter &)> &change)
{
    LockFilter filter = m_filterModel->filter();
    change(filter);
    m_filterModel->setFilter(filter);
}

void LockFilterProxy::setNameGlob(const QString &glob)
{
    apply([&glob](LockFilter &f) { f.nameGlob = glob; });
}

void LockFilterProxy::setKind(const QString &kind)
{
    apply([&kind](LockFilter &f) { f.kind = kind; });
}

void LockFilterProxy::setClientId(const QString &clientId)
{
    apply([&clientId](LockFilter &f) { f.clientId = clientId; });
}

int LockFilterProxy::tableRow(const QModelIndex &index) const
{
    const QModelIndex table = m_filterModel->mapToSource(mapToSource(index));
    return table.isValid() ? table.row() : -1;
}

QModelIndex LockFilterProxy::fromTable(const QModelIndex &tableIndex) const
{
    return mapFromSource(m_filterModel->mapFromSource(tableIndex));
}

bool LockFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // The name, compared straight from the records: a sort of 100k rows makes millions of comparisons, and a
    // QVariant for each side of each is most of the time they take.
    if (left.column() == LockTableModel::Name && right.column() == LockTableModel::Name) {
        const LockRecord *a = m_table->recordAt(m_filterModel->mapToSource(left).row());
        const LockRecord *b = m_table->recordAt(m_filterModel->mapToSource(right).row());
        if (a && b)
            return a->info.name < b->info.name;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

QVariant LockFilterProxy::data(const QModelIndex &index, int role) const
{
    // Our own holds in bold: the core model knows whose they are, fonts belong to the widgets.
    if (role == Qt::FontRole && QSortFilterProxyModel::data(index, LockTableModel::OursRole).toBool()) {
        QFont font;
        font.setBold(true);
        return font;
    }
    return QSortFilterProxyModel::data(index, role);
}

} // namespace LockScope
