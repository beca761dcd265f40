#pragma once

#include <QRegularExpression>
#include <QSortFilterProxyModel>

namespace LockScope {

// The lock table as the user narrowed it: a name glob, one kind, one client id (one JVM's whole footprint).
class LockFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LockFilterProxy(QObject *parent = nullptr);

    void setNameGlob(const QString &glob); // empty: every name
    void setKind(const QString &kind); // LockTableModel::KindRole value; empty: every kind
    void setClientId(const QString &clientId); // empty: every client
    QString clientId() const { return m_clientId; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    void refilter();

    QRegularExpression m_name; // for globs with [sets]
    QByteArray m_glob; // '*' and '?' globs are matched on the name's bytes, without a copy per row
    QString m_kind;
    QString m_clientId;
};

} // namespace LockScope
