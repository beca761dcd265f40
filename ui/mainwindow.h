#pragma once

#include "demo/demoevent.h"
#include "redis/rediscommander.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QMainWindow>

#include <QSet>
#include <QTimer>
#include <functional>

class QLabel;
class QSplitter;
class QTableView;
class QTabWidget;
class QDockWidget;
class QMenu;
class QToolBar;

namespace LockScope {

class ConsoleActions;
class CopyActions;
class ContentionPane;
class ContentionViews;
class DetailPane;
class EventLog;
class EventsPane;
class HoldsModel;
class LockMonitor;
class LocksPane;
class ServerStatus;

// The console's window: the connection, every lock the monitor finds (table and detail), the actions on them,
// the live event stream, and in demo mode what the simulated clients do. It only shows what it is given; the
// application decides where it connects.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class ConnectionState { Starting, Connected, Disconnected, Failed };

    explicit MainWindow(QWidget *parent = nullptr);

    HoldsModel *holdsModel() const { return m_holds; }
    EventLog *eventLog() const { return m_log; }
    LocksPane *locksPane() const { return m_locks; }
    DetailPane *detailPane() const { return m_detail; }
    EventsPane *eventsPane() const { return m_events; }
    ContentionPane *contentionPane() const { return m_contention; }
    ContentionViews *contentionViews() const { return m_contentionViews; }
    ConsoleActions *console() const { return m_console; }

    // displayUrl as ConnectionOptions::toDisplayUrl() gives it: never with a password.
    void setConnection(const QString &displayUrl, const QString &description, bool readOnly);
    // detail: the error, for Disconnected and Failed. retryMs: for Disconnected, the connection's retryDelayMs() (the
    // header counts down to the next attempt, or says there will be none).
    void setConnectionState(
        ConnectionState state, const QString &detail = {}, int retryMs = RedisCommander::RetryUnknown);
    // The connection header's state line, as shown.
    QString connectionStateText() const;
    // Where the header asks again when the next attempt is due once a countdown has run out (a connection retries
    // several times between two reports of its drop): RedisCommander::retryDelayMs() of the console's connection.
    void setRetrySource(std::function<int()> source) { m_retrySource = std::move(source); }
    // How the connection is made ("direct", "through SSH ops@bastion", with ", TLS"), shown beside the URL so that
    // nobody releases a lock on the wrong server; detail (the SSH host key, say) is its tooltip.
    void setRoute(const QString &route, bool tunnelled, const QString &detail = {});
    QString route() const;
    // A line under the connection, for what this window does and does not show.
    void setNote(const QString &text);
    QString note() const;
    // Shows every lock the monitor finds; the window does not own the monitor.
    void setLockMonitor(LockMonitor *monitor, const QByteArray &ownClientId);
    // The write actions (toolbar, menu, the table's context menu).
    void setConsole(ConsoleActions *console);
    // Before connecting elsewhere: the views of the old connection go (the session deletes what it owns).
    void clearLockMonitor();
    // The connection's colour tag (production red, ...) as a strip on the header; invalid: none.
    void setColourTag(const QColor &colour);
    // Raises the Contention dock on "hot", "stuck" or "clients", with its first row selected.
    void showContentionView(const QString &view);
    // A result of an action, for the status bar (errors stay longer).
    void showMessage(const QString &text, bool error);

public slots:
    void addEvent(const LockScope::DemoEvent &event);

signals:
    void connectRequested();
    void guidedDemoRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    QWidget *buildHeader();
    QWidget *buildDemoPane();
    void tick();
    void updateSummary();
    void fitToScreen();
    void updateConnectionLabel();
    // On quit while this console holds locks: release them and quit, quit anyway, or stay.
    void askAboutOwnHolds();
    void restoreLayout();

    HoldsModel *m_holds;
    QTableView *m_holdsView;
    EventLog *m_log;
    QSplitter *m_split;
    LocksPane *m_locks = nullptr;
    DetailPane *m_detail = nullptr;
    EventsPane *m_events = nullptr;
    ContentionViews *m_contentionViews = nullptr;
    ContentionPane *m_contention = nullptr;
    ConsoleActions *m_console = nullptr;
    CopyActions *m_copy = nullptr;
    ServerStatus *m_server = nullptr;
    QMenu *m_lockMenu;
    QToolBar *m_toolBar;
    QLabel *m_stateLabel;
    QLabel *m_urlLabel;
    QLabel *m_routeLabel;
    QLabel *m_readOnlyBadge;
    QLabel *m_descriptionLabel;
    QLabel *m_noteLabel;
    QLabel *m_placeholder;
    QWidget *m_header;
    QLabel *m_serverLabel;
    QLabel *m_locksSummary;
    QLabel *m_summaryLabel;
    QDockWidget *m_eventsDock;
    QDockWidget *m_contentionDock;
    QDockWidget *m_demoDock;
    // One timer repaints every countdown; rows keep deadlines, not counters.
    QTimer m_repaint;
    QSet<int> m_waitingClients;
    int m_ticks = 0;
    QString m_displayUrl;
    ConnectionState m_connectionState = ConnectionState::Starting;
    QString m_connectionError;
    QDeadlineTimer m_retryAt { QDeadlineTimer::Forever };
    bool m_retryKnown = false;
    std::function<int()> m_retrySource;
    QDateTime m_disconnectedSince; // invalid while connected: the rows are as last read since then
    bool m_quitting = false; // the person chose how to leave its holds: close for real
};

} // namespace LockScope
