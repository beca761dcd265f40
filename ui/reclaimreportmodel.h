#pragma once

#include "reclaim/reapreport.h"

#include <QAbstractTableModel>

namespace LockScope {

// A reaper's report as the console's Reclaim dialog shows it: one row per holder a policy's rule judged gone (to
// release, over the run's quota, protected), and after a run how each ended. The items the re-check found that were
// not in the report shown follow the report's own, marked as left alone: nobody approved them. The evidence is each
// row's tooltip, so that the table stays one line a holder while every reason stays one hover away.
class ReclaimReportModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        LockColumn,
        KindColumn,
        OwnerColumn,
        CountColumn,
        HeldColumn,
        RuleColumn,
        ActionColumn,
        ResultColumn,
        ColumnCount
    };
    enum Role {
        NameRole = Qt::UserRole + 1, // QByteArray: the lock's name as stored
        OwnerRole, // QByteArray: the holder as stored
        UnapprovedRole, // bool: found by the re-check, not in the report shown
    };

    explicit ReclaimReportModel(QObject *parent = nullptr);

    // A new report: its items, nothing run yet.
    void setReport(const ReapReport &report);
    // After a run: the approved items with how each ended, and what the re-check found beyond them.
    void setResult(const ReapReport &result, const QList<ReapItem> &unapproved);
    void clear();

    const ReapReport &report() const { return m_report; }
    bool hasRun() const { return m_ran; }
    // The row's item (report's first, then unapproved); row must be valid.
    const ReapItem &item(int row) const;
    bool isUnapproved(int row) const { return row >= m_report.items.size(); }
    // The row of name held by owner, or -1.
    int rowOf(const QByteArray &name, const QByteArray &owner = {}) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString actionText(ReapItem::Action action);
    static QString heldText(const ReapItem &item);
    // How the item ended in a run ("released, verified: gone", "left alone: …", "error: …"); empty before one.
    QString resultText(int row) const;

private:
    QString toolTip(int row) const;

    ReapReport m_report;
    QList<ReapItem> m_unapproved;
    bool m_ran = false;
};

} // namespace LockScope
