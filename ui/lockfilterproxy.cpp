#include "lockfilterproxy.h"

#include "models/locktablemodel.h"

#include <QFont>

namespace LockScope {

LockFilterProxy::LockFilterProxy(LockTableModel *table, QObject *parent)
    : QIdentityProxyModel(parent)
    , m_filterModel(new LockFilterModel(this))
{
    m_filterModel->setSourceModel(table);
    setSourceModel(m_filterModel);
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

QVariant LockFilterProxy::data(const QModelIndex &index, int role) const
{
    // Our own holds in bold: the core model knows whose they are, fonts belong to the widgets.
    if (role == Qt::FontRole && QIdentityProxyModel::data(index, LockTableModel::OursRole).toBool()) {
        QFont font;
        font.setBold(true);
        return font;
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace LockScope
