#pragma once

#include "models/lockfiltermodel.h"

#include <QIdentityProxyModel>

namespace LockScope {

class LockTableModel;

// The lock table as the user narrowed and sorted it. Both are LockFilterModel's (core/models: worked out a slice at a
// time, so a million rows never freeze the window); the view's header click reaches it through this proxy's sort(),
// which QAbstractProxyModel hands to its source. This proxy only marks our own holds.
class LockFilterProxy : public QIdentityProxyModel
{
    Q_OBJECT
public:
    LockFilterProxy(LockTableModel *table, QObject *parent = nullptr);

    void setNameGlob(const QString &glob); // empty: every name
    void setKind(const QString &kind); // LockTableModel::KindRole value; empty: every kind
    void setClientId(const QString &clientId); // empty: every client
    QString clientId() const { return m_filterModel->filter().clientId; }
    LockFilterModel *filterModel() const { return m_filterModel; }
    // The table row of one of this proxy's indexes, or -1.
    int tableRow(const QModelIndex &index) const;
    QModelIndex fromTable(const QModelIndex &tableIndex) const;

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    void apply(const std::function<void(LockFilter &)> &change);

    LockFilterModel *m_filterModel;
};

} // namespace LockScope
