// The main window's Tools menu and what stands behind it: the one HolderWatch of a connection (who holds each lock,
// whether it is alive), handed to every view that judges a holder, Tools › Trace clients, the console's Tools ›
// Reclaim by policy, and its recording with Tools › Explain a hold. Beside mainwindow.cpp, which builds the window
// and wires it.
#include "blockerspane.h"
#include "consoleactions.h"
#include "consolerecording.h"
#include "detailpane.h"
#include "explaindialog.h"
#include "leaseview.h"
#include "liveness/holderwatch.h"
#include "lockspane.h"
#include "mainwindow.h"
#include "models/blockersmodel.h"
#include "models/contentionviews.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "redis/redisrouter.h"
#include "replaywindow.h"
#include "tracedialog.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QStatusBar>

namespace LockScope {

namespace {
// CLIENT LIST again this often while some connection is known to speak for a holder: a holder's connection that
// closed shows within this long (HolderWatch reads nothing while it knows of none).
constexpr int kHolderPollMs = 5000;
// The Blockers view is rebuilt this often from the monitor's records (its texts only, while its shape holds).
constexpr int kBlockersRefreshMs = 2000;
} // namespace

HolderWatch *MainWindow::holderWatch() const
{
    return m_holderWatch;
}

BlockersPane *MainWindow::blockersPane() const
{
    return m_blockers;
}

TraceDialog *MainWindow::traceDialog() const
{
    return m_trace;
}

void MainWindow::buildToolsMenu()
{
    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    m_toolsMenu = tools;
    m_traceAction = tools->addAction(tr("&Trace clients…"), this, &MainWindow::openTraceDialog);
    m_traceAction->setEnabled(false); // until there is a connection to trace
    m_explainAction = tools->addAction(tr("&Explain a hold…"), this, [this] { openExplainDialog({}, {}); });
    m_explainAction->setEnabled(false); // until the console records
    m_leaseAction = tools->addAction(tr("&Lease advice…"), this, [this] {
        if (!m_recording)
            return;
        if (!m_leaseView) {
            m_leaseView = new LeaseView(m_recording->path(), this);
            m_leaseView->setAttribute(Qt::WA_DeleteOnClose);
        }
        m_leaseView->show();
        m_leaseView->raise();
    });
    m_leaseAction->setEnabled(false); // until the console records
    // File › Open recording…, after Connect…: a recording is looked at as a connection is.
    m_openRecording = new QAction(tr("Open &recording…"), this);
    m_openRecording->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(m_openRecording, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a recording"),
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
            tr("LockScope recordings (*.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            openReplay(path);
    });
    m_fileMenu->insertAction(m_fileMenu->actions().value(1), m_openRecording);
    // A team's shared recording: PostgreSQL, the password from ~/.pgpass or PGPASSWORD rather than typed here.
    m_openSharedRecording = new QAction(tr("Open a s&hared recording…"), this);
    connect(m_openSharedRecording, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(this, tr("Open a shared recording"),
            tr("The PostgreSQL database the recorders write to (the password from ~/.pgpass or PGPASSWORD):"),
            QLineEdit::Normal, QStringLiteral("postgresql://lockscope@localhost:5432/lockscope"), &ok)
                                .trimmed();
        if (ok && !url.isEmpty())
            openReplay(url);
    });
    m_fileMenu->insertAction(m_fileMenu->actions().value(2), m_openSharedRecording);
}

LeaseView *MainWindow::leaseView() const
{
    return m_leaseView;
}

ReplayWindow *MainWindow::replayWindow() const
{
    return m_replay;
}

ReplayWindow *MainWindow::openReplay(const QString &path)
{
    // A window of its own, beside the live one: last night's table next to today's.
    auto *window = new ReplayWindow(path, this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowFlag(Qt::Window);
    m_replay = window;
    window->show();
    return window;
}

void MainWindow::setRecording(ConsoleRecording *recording)
{
    m_recording = recording;
    m_fileMenu->insertAction(m_fileMenu->actions().value(1), recording->toggle());
    statusBar()->addPermanentWidget(recording->indicator());
    m_explainAction->setEnabled(true);
    m_leaseAction->setEnabled(true);
    m_replayLastHour = new QAction(tr("Replay the &last hour"), recording);
    connect(m_replayLastHour, &QAction::triggered, this, [this] {
        if (m_recording)
            openReplay(m_recording->path());
    });
    const auto actions = m_fileMenu->actions();
    m_fileMenu->insertAction(actions.value(actions.indexOf(m_openRecording) + 1), m_replayLastHour);
    if (!m_locks)
        return;
    // The selected lock's first holder, its story told from the recording.
    m_explainHolder = new QAction(tr("E&xplain this holder's story…"), recording);
    connect(m_explainHolder, &QAction::triggered, this, [this] {
        const QByteArray name = m_locks->currentLock();
        const LockRecord *r = name.isNull() ? nullptr : m_locks->model()->monitor()->record(name);
        openExplainDialog(r && !r->info.holders.isEmpty() ? r->info.holders.first().owner : QByteArray(), name);
    });
    m_locks->view()->addAction(m_explainHolder);
}

ExplainDialog *MainWindow::explainDialog() const
{
    return m_explainDialog;
}

void MainWindow::openExplainDialog(const QByteArray &owner, const QByteArray &lock)
{
    if (!m_recording)
        return;
    auto *dialog = new ExplainDialog(m_recording->path(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!owner.isEmpty() || !lock.isEmpty())
        dialog->setHolder(owner, lock);
    m_explainDialog = dialog;
    dialog->show();
}

void MainWindow::attachTools(ConsoleActions *console)
{
    if (m_holderWatch)
        console->setHolderWatch(m_holderWatch);
    // The console's action: deleted with it when the connection goes, and so gone from the menu then.
    m_toolsMenu->addAction(console->reclaimAction());
}

void MainWindow::watchHolders(LockMonitor *monitor)
{
    // Its parent is the monitor: it reads on the monitor's connection, and so may not outlive it.
    m_holderWatch = new HolderWatch(monitor->connection(), monitor);
    m_holderWatch->setMonitor(monitor);
    m_holderWatch->setStatistics(&m_contentionViews->statistics());
    // The owner templates the monitor reads home-grown locks with: their heartbeats' age and their queues.
    m_holderWatch->setStringPatterns(monitor->options().stringPatterns);
    m_holderWatch->setPollInterval(kHolderPollMs);
    m_locks->model()->setHolderWatch(m_holderWatch);
    m_detail->setHolderWatch(m_holderWatch);
    if (m_console)
        m_console->setHolderWatch(m_holderWatch);
    m_traceAction->setEnabled(true);
    // The Blockers view judges with the same watch: a child of the monitor too.
    auto *blockers = new BlockersModel(monitor, m_holderWatch, monitor);
    blockers->setRefreshInterval(kBlockersRefreshMs);
    blockers->refresh();
    m_blockers = new BlockersPane(blockers, m_blockersDock);
    delete m_blockersDock->widget();
    m_blockersDock->setWidget(m_blockers);
    connect(m_blockers, &BlockersPane::lockActivated, this, [this](const QByteArray &name) {
        if (m_locks)
            m_locks->selectLock(name);
    });
}

void MainWindow::buildBlockersDock()
{
    m_blockersDock = new QDockWidget(tr("Blockers"), this);
    m_blockersDock->setObjectName(QStringLiteral("blockersDock"));
    m_blockersDock->setWidget(new QLabel(tr("Not connected"), m_blockersDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_blockersDock);
    tabifyDockWidget(m_contentionDock, m_blockersDock);
}

void MainWindow::clearBlockers()
{
    // The pane first: its model goes with the monitor.
    delete m_blockers.data();
    m_blockersDock->setWidget(new QLabel(tr("Not connected"), m_blockersDock));
}

void MainWindow::openTraceDialog()
{
    if (!m_locks)
        return;
    if (!m_trace) {
        LockMonitor *monitor = m_locks->model()->monitor();
        // The console's own connection settings, read-only as the monitor's are: a trace only reads.
        m_trace = new TraceDialog(monitor->connection()->options(), m_holderWatch, monitor, this);
        connect(m_trace, &TraceDialog::traced, this, [this] {
            showMessage(
                tr("Trace done: the holders' connections are named in the detail pane and in Force release"), false);
        });
    }
    // Not modal: the table stays in use while a trace runs.
    m_trace->show();
    m_trace->raise();
    m_trace->activateWindow();
}

} // namespace LockScope
