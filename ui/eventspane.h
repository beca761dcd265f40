#pragma once

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace LockScope {

class LockMonitor;
class LockTimelineModel;

// The live event stream of every lock (bounded), filtered by text: lock name, owner, event or detail.
class EventsPane : public QWidget
{
    Q_OBJECT
public:
    explicit EventsPane(LockMonitor *monitor, QWidget *parent = nullptr);
    LockTimelineModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }

private:
    LockTimelineModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLineEdit *m_filter;
};

} // namespace LockScope
