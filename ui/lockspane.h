#pragma once

#include <QDateTime>
#include <QPalette>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QMenu;
class QLabel;
class QLineEdit;
class QTableView;

namespace LockScope {

class LockFilterProxy;
class LockMonitor;
class LockTableModel;

// Every lock the monitor finds on the server, whoever holds it: sortable, filtered by name glob, kind and client
// id, with TTL bars painted from each lock's deadline. Only the visible rows are repainted, and only they are the
// monitor's watched locks (their PTTL re-read each second to catch renewals).
class LocksPane : public QWidget
{
    Q_OBJECT
public:
    explicit LocksPane(LockMonitor *monitor, QWidget *parent = nullptr);

    LockTableModel *model() const { return m_model; }
    LockFilterProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    // The update mode as shown beside the filters ("live: keyspace events", ...).
    QString updateModeText() const;
    // The lock the person chose, by name: it stays the current lock while its row is gone (released, expired, filtered
    // out), is selected again when its row is back, and is never handed on to the row that took its place.
    QByteArray currentLock() const { return m_chosen; }
    void selectLock(const QByteArray &name);
    // Makes name the chosen lock even before its row is in the table (a lock this console just acquired): it is
    // selected as soon as the row comes.
    void chooseLock(const QByteArray &name);
    // Widens the main columns to what they show (never narrows one a person widened).
    void fitColumns();
    // The header as a person left it: a QHeaderView::saveState() and chosenColumns() as it was then (0: not known, a
    // state from before Renewed and Liveness). The columns from chosenColumns() on are shown whenever the table has
    // room for them beside every other column (Warnings at least as wide as its header), and give way when it has not:
    // on a 1280-pixel screen every column up to Warnings stays in view (issue 47). Until the person shows or hides one
    // from the header's menu: from then on they stay as chosen.
    void restoreHeader(const QByteArray &state, int savedColumns);
    int chosenColumns() const { return m_autoFrom; }
    // The header's right-click menu: a checkable entry for each column but Name.
    QMenu *headerMenu();
    // Shows only this client's locks (empty: everyone's).
    void showClient(const QString &clientId);
    void focusFilter();
    // Repaints the visible rows: their TTL is computed from deadlines at paint time.
    void repaint();
    // While the connection is down (since is valid): the rows greyed, and a line above them saying since when they
    // are only what was last read. An invalid since: live again.
    void setStale(const QDateTime &since);
    bool isStale() const;
    QString staleText() const;

signals:
    void currentLockChanged(const QByteArray &name);
    void summaryChanged(const QString &text);

private:
    void updateSummary();
    // Nothing has been read from this server yet (no pass complete, no row).
    bool neverRead() const;
    void updateWatched();
    void fillClients();
    void noteChoice();
    // The lock acted on: its row stays in view whatever the filter (pinned), and currentLockChanged() says so.
    void setChosen(const QByteArray &name);
    void onRowsLeaving(int first, int last);
    void reselectChosen();
    // Shows the columns from m_autoFrom on where the table has room for them beside the others, else hides them.
    void fitOptionalColumns();
    bool eventFilter(QObject *watched, QEvent *event) override;

    LockMonitor *m_monitor;
    LockTableModel *m_model;
    LockFilterProxy *m_proxy;
    QTableView *m_view;
    QLineEdit *m_filter;
    QComboBox *m_kind;
    QComboBox *m_client;
    QLabel *m_mode;
    QLabel *m_stale;
    QPalette m_livePalette;
    QByteArray m_chosen;
    bool m_following = false;
    QTimer m_fitColumns; // the view's current moves because rows change, not because the person chose
    int m_autoFrom; // the columns from this one on come and go with the room there is (ColumnCount: none)
};

} // namespace LockScope
