#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace LockScope {

class ContentionViews;
class KeyedTableModel;

// The Hot, Stuck and Clients views of ContentionViews, each a table with an export to CSV or JSON of what it shows.
// It draws and asks; what a row's fix does is the window's (the guarded force release dialog).
class ContentionPane : public QWidget
{
    Q_OBJECT
public:
    explicit ContentionPane(ContentionViews *views, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    QTableView *hotView() const { return m_hotView; }
    QTableView *stuckView() const { return m_stuckView; }
    QTableView *clientsView() const { return m_clientsView; }
    // The current tab's model, as its export writes it: "csv" or "json".
    QByteArray exportCurrent(const QByteArray &format) const;

signals:
    void lockActivated(const QByteArray &name);
    void clientActivated(const QByteArray &clientId);
    // action: StuckFinding::fixId of the selected Stuck row.
    void fixRequested(const QByteArray &name, const QByteArray &action);

private:
    QTableView *addView(KeyedTableModel *model, const QString &title, const QString &accessibleName);
    KeyedTableModel *currentModel() const;
    QModelIndex currentRow() const;
    void updateButtons();
    void exportView();

    ContentionViews *m_views;
    QTabWidget *m_tabs;
    QTableView *m_hotView;
    QTableView *m_stuckView;
    QTableView *m_clientsView;
    QPushButton *m_show;
    QPushButton *m_fix;
    QPushButton *m_export;
    QLabel *m_hint;
};

} // namespace LockScope
