#pragma once

#include "clients/tracefindings.h"
#include "redis/connectionoptions.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTreeWidget;

namespace LockScope {

class HolderWatch;
class LockMonitor;
class RedisError;
class RedisRouter;
class TraceSession;

// Tools › Trace clients: MONITOR for a few seconds (TraceSession) on a connection of its own, to learn which
// connection speaks for each lock holder and who retries which lock. It says up front what MONITOR costs the server,
// counts down, stops by itself (or on Stop), then shows who holds and who retries, every connection of CLIENT LIST,
// and what the trace cost. The findings go to the console's HolderWatch (the table's Liveness, the detail pane, the
// force release dialog) and are kept for lockscope-cli (TraceStore). A refusal (no +monitor) is shown here and changes
// nothing. A read: allowed in read-only mode. Not modal: the table stays in use while it runs.
class TraceDialog : public QDialog
{
    Q_OBJECT
public:
    // options: the console's connection (the trace opens its own); monitor: who holds what now, so that a holder's
    // renewals are not shown as retries.
    TraceDialog(
        const ConnectionOptions &options, HolderWatch *watch, const LockMonitor *monitor, QWidget *parent = nullptr);
    ~TraceDialog() override;

    QSpinBox *secondsBox() const { return m_seconds; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }
    QTreeWidget *holdersView() const { return m_holders; }
    QTreeWidget *retriersView() const { return m_retriers; }
    QTreeWidget *clientsView() const { return m_clients; }
    QLabel *costLabel() const { return m_cost; }
    bool isTracing() const { return m_session != nullptr; }
    // MONITOR runs on every node (TraceSession::started() came), and has not ended.
    bool isRunning() const;
    // How many traces ended with findings since the dialog opened.
    int finishedCount() const { return m_finished; }

    void start();
    void stop();

signals:
    void traced(const LockScope::TraceFindings &findings);

protected:
    void reject() override; // closing stops a trace that runs; its findings still count

private:
    void onStarted();
    void onFinished(const TraceFindings &findings, const RedisError &error);
    void tick();
    void setRunning(bool running);
    void showFindings(const TraceFindings &findings);
    // The retriers less the holders renewing their own locks, which repeat their script as a waiter does.
    QList<TraceFindings::Retrier> waiters(const TraceFindings &findings) const;
    void dropSession();

    ConnectionOptions m_options;
    QPointer<HolderWatch> m_watch;
    QPointer<const LockMonitor> m_monitor;
    QSpinBox *m_seconds;
    QPushButton *m_start;
    QPushButton *m_stop;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTabWidget *m_tabs;
    QTreeWidget *m_holders;
    QTreeWidget *m_retriers;
    QTreeWidget *m_clients;
    QLabel *m_cost;
    RedisRouter *m_router = nullptr;
    TraceSession *m_session = nullptr;
    QTimer m_countdown;
    QElapsedTimer m_elapsed;
    qint64 m_durationMs = 0;
    int m_finished = 0;
};

} // namespace LockScope
