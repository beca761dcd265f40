#pragma once

#include "liveness/blockers.h"

#include <QAbstractItemModel>
#include <QTimer>

namespace LockScope {

class HolderWatch;
class LockMonitor;

// The console's Blockers view: the wait-for tree of every lock the monitor knows (findBlockers), root blockers first,
// each with its liveness verdict and what frees it; under each, who waits for it, and under a waiter that holds locks
// of its own, who waits for that one; then each deadlock, with its edges. Rebuilt every refreshMs from the monitor's
// records and the holder watch (its verdicts, the last trace's retrying waiters); an update that keeps the tree's
// shape changes only its texts, so what the person expanded stays expanded.
class BlockersModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { Who, Locks, Liveness, Waiting, Action, ColumnCount };
    enum Role {
        StateRole = Qt::UserRole + 1, // LivenessVerdict::State as int; -1 for a deadlock's rows
        LockRole, // the first lock of the row (QByteArray): what an action acts on
        OwnerRole, // the row's owner (QByteArray)
    };

    BlockersModel(LockMonitor *monitor, const HolderWatch *holders, QObject *parent = nullptr);

    // Rebuilds now (the timer does every refreshMs; 0 stops it).
    void refresh();
    void setRefreshInterval(int ms);
    // A report built elsewhere (a test's, the CLI's): shown as it is.
    void setReport(const BlockerReport &report);
    const BlockerReport &report() const { return m_report; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Item
    {
        int parent = -1; // -1: a top-level row
        int row = 0;
        QList<int> children;
        QString texts[ColumnCount];
        QString tooltip;
        int state = -1;
        QByteArray lock;
        QByteArray owner;
        QByteArray key; // its place in the tree, for telling a changed shape from changed texts
    };
    QList<Item> build(const BlockerReport &report) const;
    void addNode(QList<Item> &items, const BlockerReport &report, int node, int parent, QList<int> &path) const;
    void addWaiters(QList<Item> &items, const BlockerReport &report, int node, int parent, QList<int> &path) const;
    int append(QList<Item> &items, Item item, int parent) const;

    LockMonitor *m_monitor;
    const HolderWatch *m_holders;
    BlockerReport m_report;
    QList<Item> m_items;
    QList<int> m_top;
    QTimer m_timer;
};

} // namespace LockScope
