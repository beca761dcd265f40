#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace LockScope {

class ContentionViews;
class KeyedTableModel;

// The Hot, Stuck and Clients views of ContentionViews, each a table with an export to CSV or JSON of what it shows.
// It draws and asks; what a row's fix does is the window's (the guarded force release dialog), and so is what
// releasing a client does (the console's action, given by setReleaseClientAction()).
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
    // The client id of the Clients view's current row; empty: none.
    QByteArray currentClient() const;
    // The console's "Release everything this client holds…": a button under the Clients view and an entry in its
    // context menu, enabled as the action is (a client chosen, not read-only).
    void setReleaseClientAction(QAction *action);
    QPushButton *releaseClientButton() const { return m_releaseClient; }

signals:
    void lockActivated(const QByteArray &name);
    void clientActivated(const QByteArray &clientId);
    // action: StuckFinding::fixId of the selected Stuck row.
    void fixRequested(const QByteArray &name, const QByteArray &action);
    // The Clients view's current row is another client (empty: none).
    void currentClientChanged(const QByteArray &clientId);

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
    QPushButton *m_releaseClient;
    QAction *m_releaseClientAction = nullptr;
    QByteArray m_currentClient; // as last announced by currentClientChanged()
    QLabel *m_hint;
};

} // namespace LockScope
