#pragma once

#include "monitor/lockmonitor.h"

#include <QAbstractTableModel>

#include <deque>

namespace LockScope {

// The event stream as a table: every lock's events as they come (bounded), or one lock's timeline.
class LockTimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Event, Lock, Owner, Count, Ttl, Detail, ColumnCount };
    enum Role { TypeRole = Qt::UserRole + 1, NameRole };

    explicit LockTimelineModel(LockMonitor *monitor, int capacity = 10000, QObject *parent = nullptr);

    // One lock's timeline: what the monitor kept, then what comes.
    void setLock(const QByteArray &name);
    // Every lock's events as they come (the default).
    void showAll();
    bool showsAll() const { return m_all; }
    QByteArray lock() const { return m_lock; }
    const LockEvent &eventAt(int row) const { return m_events.at(size_t(row)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString typeText(LockEvent::Type type);

private:
    void append(const QList<LockEvent> &events);

    LockMonitor *m_monitor;
    int m_capacity;
    QByteArray m_lock;
    bool m_all = true;
    std::deque<LockEvent> m_events;
};

} // namespace LockScope
