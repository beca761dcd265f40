#include "lockfilterproxy.h"

#include "locktablemodel.h"

#include <QFont>

namespace LockScope {

LockFilterProxy::LockFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(LockTableModel::SortRole);
}

void LockFilterProxy::setNameGlob(const QString &glob)
{
    m_name = glob.isEmpty() ? QRegularExpression()
                            : QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob));
    invalidateFilter();
}

void LockFilterProxy::setKind(const QString &kind)
{
    m_kind = kind;
    invalidateFilter();
}

void LockFilterProxy::setClientId(const QString &clientId)
{
    m_clientId = clientId;
    invalidateFilter();
}

bool LockFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, LockTableModel::Name, sourceParent);
    if (!m_kind.isEmpty() && index.data(LockTableModel::KindRole).toString() != m_kind)
        return false;
    if (!m_clientId.isEmpty() && !index.data(LockTableModel::ClientIdsRole).toStringList().contains(m_clientId))
        return false;
    return !m_name.isValid() || m_name.pattern().isEmpty()
        || m_name.match(index.data(Qt::DisplayRole).toString()).hasMatch();
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
