#include "lockfilterproxy.h"

#include "kinds/keyglob.h"
#include "models/locktablemodel.h"

#include <QFont>

namespace LockScope {

LockFilterProxy::LockFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(LockTableModel::SortRole);
}

void LockFilterProxy::setNameGlob(const QString &glob)
{
    const bool simple = !glob.contains(QLatin1Char('[')) && !glob.contains(QLatin1Char('\\'));
    m_glob = simple ? glob.toUtf8() : QByteArray();
    m_name = glob.isEmpty() || simple ? QRegularExpression()
                                      : QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob));
    refilter();
}

void LockFilterProxy::setKind(const QString &kind)
{
    m_kind = kind;
    refilter();
}

void LockFilterProxy::setClientId(const QString &clientId)
{
    m_clientId = clientId;
    refilter();
}

void LockFilterProxy::refilter()
{
    // Qt works out a changed filter row range by row range: on a big table where the rows that come and go are
    // scattered that is seconds, while building the mapping again from scratch is one pass.
    if (sourceModel() && sourceModel()->rowCount() > 20000)
        invalidate();
    else
        invalidateFilter();
}

bool LockFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const LockTableModel *>(sourceModel());
    const LockRecord *r = model ? model->recordAt(sourceRow) : nullptr;
    if (!r)
        return true;
    // Straight from the record: refiltering 100k rows asks this 100k times.
    if (!m_kind.isEmpty() && QLatin1String(LockInfo::kindName(r->info.kind)) != m_kind)
        return false;
    if (!m_clientId.isEmpty()
        && std::none_of(r->info.holders.cbegin(), r->info.holders.cend(),
            [this](const LockHolder &h) { return QLatin1String(h.client) == m_clientId; }))
        return false;
    Q_UNUSED(sourceParent);
    if (!m_glob.isEmpty())
        return globMatch(m_glob, r->info.name);
    return m_name.pattern().isEmpty() || m_name.match(QString::fromUtf8(r->info.name)).hasMatch();
}

bool LockFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // The name, compared straight from the records: a sort of 100k rows makes millions of comparisons, and a
    // QVariant for each side of each is most of the time they take.
    const auto *model = qobject_cast<const LockTableModel *>(sourceModel());
    if (model && left.column() == LockTableModel::Name && right.column() == LockTableModel::Name) {
        const LockRecord *a = model->recordAt(left.row());
        const LockRecord *b = model->recordAt(right.row());
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
