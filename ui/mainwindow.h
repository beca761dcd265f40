#pragma once

#include "connectionheader.h"
#include "demo/demoevent.h"
#include "demopane.h"
#include "redis/rediscommander.h"

#include <QMainWindow>

#include <QPointer>
#include <QTimer>
#include <functional>

class QLabel;
class QSplitter;
class QTabWidget;
class QDockWidget;
class QMenu;
class QToolBar;

namespace LockScope {

class ConsoleActions;
class ConsoleRecording;
class ExplainDialog;
class LeaseView;
class ReplayWindow;
class CopyActions;
class ContentionPane;
class ContentionViews;
class DetailPane;
class EventLog;
class EventsPane;
class HelpWindow;
class HolderWatch;
class HoldsModel;
class LockMonitor;
class LocksPane;
class ServerStatus;
class TraceDialog;
class BlockersPane;

// The console's window: the connection, every lock the monitor finds (table and detail), the actions on them,
// the live event stream, and in demo mode what the simulated clients do. It only shows what it is given; the
// application decides where it connects.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    using ConnectionState = ConnectionHeader::State;

    explicit MainWindow(QWidget *parent = nullptr);

    HoldsModel *holdsModel() const { return m_demo->holdsModel(); }
    EventLog *eventLog() const { return m_demo->eventLog(); }
    LocksPane *locksPane() const { return m_locks; }
    // View › Blockers: the wait-for tree; nullptr before setLockMonitor().
    BlockersPane *blockersPane() const;
    QDockWidget *blockersDock() const { return m_blockersDock; }
    DetailPane *detailPane() const { return m_detail; }
    EventsPane *eventsPane() const { return m_events; }
    ContentionPane *contentionPane() const { return m_contention; }
    ContentionViews *contentionViews() const { return m_contentionViews; }
    ConsoleActions *console() const { return m_console; }
    // Who holds each lock and whether it is alive: one for the monitor, shared by the table, the detail pane, force
    // release and Tools › Trace clients. nullptr before setLockMonitor().
    HolderWatch *holderWatch() const;
    QAction *traceAction() const { return m_traceAction; }
    QAction *explainAction() const { return m_explainAction; }
    QAction *leaseAction() const { return m_leaseAction; }
    // Tools › Lease advice…'s view, if it is open.
    LeaseView *leaseView() const;
    // The open Explain dialog, if any (Tools › Explain a hold…, or a holder's "Explain this holder's story…").
    ExplainDialog *explainDialog() const;
    // File › Open recording… (or Replay the last hour): the newest replay window opened, if it is still open.
    ReplayWindow *replayWindow() const;
    QAction *openRecordingAction() const { return m_openRecording; }
    ReplayWindow *openReplay(const QString &path);
    // Tools › Trace clients' dialog, once opened.
    TraceDialog *traceDialog() const;

    // displayUrl as ConnectionOptions::toDisplayUrl() gives it: never with a password.
    void setConnection(const QString &displayUrl, const QString &description, bool readOnly);
    // detail: the error, for Disconnected and Failed. retryMs: for Disconnected, the connection's retryDelayMs() (the
    // header counts down to the next attempt, or says there will be none).
    void setConnectionState(
        ConnectionState state, const QString &detail = {}, int retryMs = RedisCommander::RetryUnknown);
    // The connection header's state line, as shown.
    QString connectionStateText() const { return m_header->stateText(); }
    // Where the header asks again when the next attempt is due once a countdown has run out (a connection retries
    // several times between two reports of its drop): RedisCommander::retryDelayMs() of the console's connection.
    void setRetrySource(std::function<int()> source) { m_header->setRetrySource(std::move(source)); }
    // How the connection is made ("direct", "through SSH ops@bastion", with ", TLS"), shown beside the URL so that
    // nobody releases a lock on the wrong server; detail (the SSH host key, say) is its tooltip.
    void setRoute(const QString &route, bool tunnelled, const QString &detail = {});
    QString route() const { return m_header->route(); }
    // A line under the connection, for what this window does and does not show.
    void setNote(const QString &text);
    QString note() const { return m_header->note(); }
    // Shows every lock the monitor finds; the window does not own the monitor.
    void setLockMonitor(LockMonitor *monitor, const QByteArray &ownClientId);
    // The write actions (toolbar, menu, the table's context menu).
    void setConsole(ConsoleActions *console);
    // The console's own recording of the last hour: its toggle in the File menu, its size in the status bar.
    void setRecording(ConsoleRecording *recording);
    // Before connecting elsewhere: the views of the old connection go (the session deletes what it owns).
    void clearLockMonitor();
    // The connection's colour tag (production red, ...) as a strip on the header; invalid: none.
    void setColourTag(const QColor &colour);
    void setProduction(bool production);
    // Raises the Contention dock on "hot", "stuck" or "clients", with its first row selected; "blockers": the Blockers
    // dock.
    void showContentionView(const QString &view);
    // A result of an action, for the status bar (errors stay longer).
    void showMessage(const QString &text, bool error);
    // The status bar's message as it was given: what it shows may be cut at a word, with an ellipsis (its tooltip
    // has it whole). Empty once it timed out.
    QString statusMessage() const;

public slots:
    void addEvent(const LockScope::DemoEvent &event);

signals:
    void connectRequested();
    void guidedDemoRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    // The Tools menu, and the holder watch and trace dialog behind it (mainwindowtools.cpp).
    void buildToolsMenu();
    // The console's holder watch, and its own entries in the Tools menu (Reclaim by policy), which go with it.
    void attachTools(ConsoleActions *console);
    void watchHolders(LockMonitor *monitor);
    void buildBlockersDock();
    void clearBlockers();
    void openTraceDialog();
    void openExplainDialog(const QByteArray &owner, const QByteArray &lock);
    void tick();
    void updateSummary();
    void fitToScreen();
    // On quit while this console holds locks: release them and quit, quit anyway, or stay.
    void askAboutOwnHolds();
    void restoreLayout();
    // Shows text in the status bar for timeoutMs (0: until replaced), cut at the last whole word that fits.
    void showStatus(const QString &text, int timeoutMs);
    void showHelp(HelpWindow *window);
    // Help › Keyboard shortcuts: every menu action with a key, as Markdown.
    QString shortcutsText() const;

    DemoPane *m_demo;
    QSplitter *m_split;
    LocksPane *m_locks = nullptr;
    DetailPane *m_detail = nullptr;
    EventsPane *m_events = nullptr;
    ContentionViews *m_contentionViews = nullptr;
    ContentionPane *m_contention = nullptr;
    ConsoleActions *m_console = nullptr;
    CopyActions *m_copy = nullptr;
    ServerStatus *m_server = nullptr;
    // A child of the monitor: it reads on the monitor's connection, and goes with both.
    QPointer<HolderWatch> m_holderWatch;
    QPointer<TraceDialog> m_trace;
    QPointer<BlockersPane> m_blockers; // the Blockers view, while connected
    QAction *m_traceAction = nullptr;
    QAction *m_explainAction = nullptr;
    QAction *m_explainHolder = nullptr; // the table's, while there is a recording
    QPointer<ExplainDialog> m_explainDialog;
    QPointer<ReplayWindow> m_replay;
    QPointer<LeaseView> m_leaseView;
    QAction *m_leaseAction = nullptr;
    QAction *m_openRecording = nullptr;
    QAction *m_openSharedRecording = nullptr;
    QAction *m_replayLastHour = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QMenu *m_lockMenu;
    QToolBar *m_toolBar;
    QLabel *m_placeholder;
    ConnectionHeader *m_header;
    QLabel *m_serverLabel;
    QMenu *m_fileMenu = nullptr;
    QPointer<ConsoleRecording> m_recording;
    QLabel *m_locksSummary;
    QLabel *m_summaryLabel;
    QDockWidget *m_eventsDock;
    QDockWidget *m_contentionDock;
    QDockWidget *m_blockersDock = nullptr;
    QDockWidget *m_demoDock;
    // One timer repaints every countdown; rows keep deadlines, not counters.
    QTimer m_repaint;
    int m_ticks = 0;
    QString m_displayUrl;
    QString m_statusFull; // the status bar's message whole
    bool m_quitting = false; // the person chose how to leave its holds: close for real
};

} // namespace LockScope
