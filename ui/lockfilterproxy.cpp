#include "lockfilterproxy.h"

#include "liveness/livenessjudge.h"
#include "models/locktablemodel.h"

#include <QColor>
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
    const auto hidden = [&] { return QIdentityProxyModel::data(index, LockFilterModel::HiddenByFilterRole).toBool(); };
    // The chosen lock that the filter would hide stays in view, and says why it is there (LockFilterModel::setPinned).
    if (index.column() == LockTableModel::Name && (role == Qt::DisplayRole || role == Qt::ToolTipRole) && hidden()) {
        const QString shown = QIdentityProxyModel::data(index, role).toString();
        return role == Qt::DisplayRole
            ? tr("%1 (hidden by the filter)").arg(shown)
            : tr("%1\nShown because it is the selected lock, which the filter hides: the actions act on it. Select "
                 "another lock and it goes.")
                  .arg(shown);
    }
    // Our own holds in bold: the core model knows whose they are, fonts belong to the widgets.
    if (role == Qt::FontRole) {
        const bool ours = QIdentityProxyModel::data(index, LockTableModel::OursRole).toBool();
        const bool pinned = hidden();
        if (!ours && !pinned)
            return QIdentityProxyModel::data(index, role);
        QFont font;
        font.setBold(ours);
        font.setItalic(pinned);
        return font;
    }
    // A renewal a whole period overdue, a holder likely dead: in the warning colour the TTL bar and warnings use.
    if (role == Qt::ForegroundRole
        && (index.column() == LockTableModel::Renewed || index.column() == LockTableModel::Liveness)) {
        const bool warn = index.column() == LockTableModel::Renewed
            ? QIdentityProxyModel::data(index, LockTableModel::MissedRenewalsRole).toDouble() >= 1
            : QIdentityProxyModel::data(index, LockTableModel::LivenessRole).toInt()
                == int(LivenessVerdict::State::LikelyDead);
        if (warn)
            return QColor(0xc6, 0x28, 0x28);
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace LockScope
