#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace LockScope {

class LockMonitor;
class LockTableModel;

// Every lock the monitor finds on the server, whoever holds it: sortable, filtered by a name glob, with TTLs that
// count down from each lock's deadline (the window's one repaint timer calls repaint()).
class LocksPane : public QWidget
{
    Q_OBJECT
public:
    explicit LocksPane(LockMonitor *monitor, QWidget *parent = nullptr);

    LockTableModel *model() const { return m_model; }
    // Repaints the visible rows only: their TTL text is computed from deadlines at paint time.
    void repaint();

signals:
    void summaryChanged(const QString &text);

private:
    void updateSummary();

    LockMonitor *m_monitor;
    LockTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLineEdit *m_filter;
    QLabel *m_mode;
};

} // namespace LockScope
