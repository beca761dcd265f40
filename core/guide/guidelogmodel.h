#pragma once

#include "guide/guiderecord.h"

#include <QAbstractTableModel>

namespace LockScope::Guide {

// The guided demo's wire log: one row per command a client sent (or a step's command) and per event of a client or
// of Redis, in the order the player reports them. The observer's own reads never appear.
class GuideLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Actor, Call, Reply, Ran, Outcome, ColumnCount };
    // The window draws an unexpected step in red and inferred calls in italics (the core has no fonts or colours).
    enum Role { UnexpectedRole = Qt::UserRole + 1, InferredRole, EventRole };

    using QAbstractTableModel::QAbstractTableModel;

    void append(const GuideRecord &record);
    void clear();
    const GuideRecord &recordAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<GuideRecord> m_rows;
};

} // namespace LockScope::Guide
