#pragma once

#include "recording/leaseadvisor.h"

#include <QAbstractTableModel>

namespace LockScope {

// The lease advisor's answer (LeaseAdvice) as the console's Lease view shows it: one row per lock, those with a
// verdict first, with its holds against its lease and what to change.
class LeaseAdviceModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Holds, P50, P95, Max, Lease, Watchdog, PastTwoThirds, Expiries, Verdicts, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        NameRole, // the lock (QByteArray)
        VerdictCodesRole, // QStringList: "lease-too-short", …
    };

    explicit LeaseAdviceModel(QObject *parent = nullptr);

    void setAdvice(const LeaseAdvice &advice);
    const LeaseAdvice &advice() const { return m_advice; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    LeaseAdvice m_advice;
};

// One lock's clients: how often each renewed it, the watchdog timeout that implies, and its longest gap.
class LeaseClientsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Client, Renewals, Period, InferredTimeout, Gaps, LongestGap, ColumnCount };

    explicit LeaseClientsModel(QObject *parent = nullptr);

    void setClients(const QList<LeaseAdvice::Client> &clients);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<LeaseAdvice::Client> m_clients;
};

} // namespace LockScope
