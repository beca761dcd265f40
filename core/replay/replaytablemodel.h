#pragma once

#include "replay/replayframe.h"

#include <QAbstractTableModel>

namespace LockScope {

// The lock table of a replayed moment (ReplayFrame), one row per lock. A new moment changes only the rows that
// differ: rows of locks that stay keep their place, so a selection follows its lock while a recording plays. It sorts
// and filters itself: a sorting proxy answers each row that comes or goes by walking all of them, which on thousands
// of locks held up the window for a frame's worth at every moment (bench_replay).
class ReplayTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Library, Holders, Count, Ttl, HeldFor, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for the numeric columns
        NameRole, // the lock name as stored (QByteArray)
        OwnersRole, // the holders (QList<QByteArray>)
    };

    explicit ReplayTableModel(QObject *parent = nullptr);

    void setFrame(const ReplayFrame &frame);
    // Only the locks whose name matches glob (empty: all), as LockScope's other filters match names.
    void setFilter(const QString &glob);
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    qint64 timeMs() const { return m_timeMs; }
    const QList<ReplayRow> &rows() const { return m_rows; }
    int rowOf(const QByteArray &name) const; // -1: not in the table at this moment

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ReplayRow> shown(const QList<ReplayRow> &all) const; // filtered and sorted
    bool byName() const { return m_sortColumn == Name && m_sortOrder == Qt::AscendingOrder; }

    QList<ReplayRow> m_all; // the frame's rows, by name
    QList<ReplayRow> m_rows; // those shown, in the order asked for
    qint64 m_timeMs = -1;
    qint64 m_snapshotMs = -1;
    QByteArray m_filter;
    int m_sortColumn = Name;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

// A list of a recording's events: one lock's history, or the events that led up to a moment. Rows after the moment
// (setMomentMs) are told apart, so a history page shows where the slider stands in it.
class ReplayEventsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Lock, Event, Owner, Count, Ttl, Detail, ColumnCount };
    enum Role {
        TimeRole = Qt::UserRole + 1, // epoch ms (qint64)
        AfterMomentRole, // the event comes after the moment shown (bool)
    };

    explicit ReplayEventsModel(QObject *parent = nullptr);

    void setEvents(const QList<RecordedEvent> &events);
    const QList<RecordedEvent> &events() const { return m_events; }
    void setMomentMs(qint64 timeMs);
    // The last row at or before the moment; -1 when every row is after it.
    int rowAtMoment() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<RecordedEvent> m_events;
    qint64 m_momentMs = -1;
};

} // namespace LockScope
