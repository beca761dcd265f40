#pragma once

#include "demoevent.h"

#include <QMainWindow>
#include <QSet>
#include <QTimer>

class QLabel;
class QTableView;

namespace LockScope {

class EventLog;
class HoldsModel;
class LockMonitor;
class LocksPane;

// The console's window: the connection it watches, the live holds with their lease countdowns, and the event
// log. It only shows what it is given; the application decides where events come from.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class ConnectionState { Starting, Connected, Disconnected, Failed };

    explicit MainWindow(QWidget *parent = nullptr);

    HoldsModel *holdsModel() const { return m_holds; }
    EventLog *eventLog() const { return m_log; }

    // displayUrl as ConnectionOptions::toDisplayUrl() gives it: never with a password.
    void setConnection(const QString &displayUrl, const QString &description, bool readOnly);
    void setConnectionState(ConnectionState state, const QString &detail = {});
    // A line under the connection, for what this window does and does not show.
    void setNote(const QString &text);
    // Shows every lock the monitor finds (its own tab, first); the window does not own the monitor.
    void setLockMonitor(LockMonitor *monitor);
    LocksPane *locksPane() const { return m_locks; }

public slots:
    void addEvent(const LockScope::DemoEvent &event);

private:
    void buildMenus();
    QWidget *buildHeader();
    void tick();
    void updateSummary();

    HoldsModel *m_holds;
    QTableView *m_holdsView;
    class QTabWidget *m_tabs;
    LocksPane *m_locks = nullptr;
    QLabel *m_locksSummary;
    EventLog *m_log;
    QLabel *m_stateLabel;
    QLabel *m_urlLabel;
    QLabel *m_readOnlyBadge;
    QLabel *m_descriptionLabel;
    QLabel *m_noteLabel;
    QLabel *m_holdsCaption;
    QLabel *m_summaryLabel;
    // One timer repaints every countdown; rows keep deadlines, not counters.
    QTimer m_repaint;
    QSet<int> m_waitingClients;
    QString m_displayUrl;
};

} // namespace LockScope
