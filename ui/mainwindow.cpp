#include "mainwindow.h"

#include "auditlogview.h"
#include "confirmguard.h"
#include "consoleactions.h"
#include "consolerecording.h"
#include "contentionpane.h"
#include "copyactions.h"
#include "detailpane.h"
#include "eventlog.h"
#include "eventspane.h"
#include "helpwindow.h"
#include "holdsmodel.h"
#include "liveness/holderwatch.h"
#include "lockspane.h"
#include "models/contentionviews.h"
#include "models/locktablemodel.h"
#include "models/locktexts.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"
#include "serverstatus.h"
#include "stats/statscollector.h"
#include "tracedialog.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace LockScope {

namespace {
constexpr int repaintIntervalMs = 100;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("LockScope"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 4);
    layout->setSpacing(6);
    m_header = new ConnectionHeader(this);
    layout->addWidget(m_header);
    m_split = new QSplitter(Qt::Horizontal, central);
    m_split->setObjectName(QStringLiteral("locksSplit"));
    m_split->setChildrenCollapsible(false);
    m_placeholder = new QLabel(tr("Connecting…"), m_split);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_split->addWidget(m_placeholder);
    layout->addWidget(m_split, 1);
    setCentralWidget(central);

    m_eventsDock = new QDockWidget(tr("Events"), this);
    m_eventsDock->setObjectName(QStringLiteral("eventsDock"));
    m_eventsDock->setWidget(new QLabel(tr("No events yet"), m_eventsDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_eventsDock);
    m_demoDock = new QDockWidget(tr("Demo clients"), this);
    m_demoDock->setObjectName(QStringLiteral("demoDock"));
    m_demo = new DemoPane(this);
    m_demoDock->setWidget(m_demo);
    addDockWidget(Qt::BottomDockWidgetArea, m_demoDock);
    tabifyDockWidget(m_eventsDock, m_demoDock);
    m_contentionDock = new QDockWidget(tr("Contention"), this);
    m_contentionDock->setObjectName(QStringLiteral("contentionDock"));
    m_contentionDock->setWidget(new QLabel(tr("No statistics yet"), m_contentionDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_contentionDock);
    tabifyDockWidget(m_eventsDock, m_contentionDock);
    buildBlockersDock();
    m_eventsDock->raise();
    m_demoDock->hide();

    m_toolBar = addToolBar(tr("Actions"));
    m_toolBar->setObjectName(QStringLiteral("actionsToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    buildMenus();

    m_serverLabel = new QLabel(this);
    m_locksSummary = new QLabel(this);
    m_summaryLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_serverLabel);
    statusBar()->addPermanentWidget(m_locksSummary);
    statusBar()->addPermanentWidget(m_summaryLabel);

    connect(&m_repaint, &QTimer::timeout, this, &MainWindow::tick);
    m_repaint.start(repaintIntervalMs);
    connect(m_demo->holdsModel(), &QAbstractItemModel::rowsInserted, this, &MainWindow::updateSummary);
    connect(m_demo->holdsModel(), &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateSummary);
    setConnectionState(ConnectionState::Starting);
    updateSummary();
    fitToScreen();
    restoreLayout();
}

void MainWindow::fitToScreen()
{
    // 1280x820 where there is room; on a smaller screen its available area (less the task bar), less the frame's
    // title bar and borders, so that the status bar stays on screen.
    const QSize wanted(1280, 820);
    const QScreen *where = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!where) {
        resize(wanted);
        return;
    }
    const QRect room = where->availableGeometry();
    const QSize frame(16, 48);
    resize(wanted.boundedTo(room.size() - frame));
    move(room.topLeft() + QPoint(frame.width() / 2, frame.height() - 8));
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    // The layout of a demo session showed the Demo clients tab; on a real server it would stay, empty (issue 47). It
    // comes back by itself once a simulated client does something.
    if (m_demo->holdsModel()->rowCount() == 0 && m_demo->eventLog()->eventCount() == 0)
        m_demoDock->hide();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_quitting && m_console && !m_console->ownHolds().isEmpty()) {
        event->ignore();
        askAboutOwnHolds();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/split"), m_split->saveState());
    if (m_locks) {
        settings.setValue(QStringLiteral("window/locksHeader"), m_locks->view()->horizontalHeader()->saveState());
        settings.setValue(QStringLiteral("window/locksHeaderColumns"), m_locks->chosenColumns());
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::askAboutOwnHolds()
{
    const QHash<QByteArray, QByteArray> holds = m_console->ownHolds();
    QStringList names;
    for (auto it = holds.cbegin(); it != holds.cend(); ++it)
        names << escapeBytes(it.key(), 120);
    names.sort();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Quit LockScope"),
        tr("This console holds %n lock(s): %1.", nullptr, int(holds.size())).arg(names.join(QStringLiteral(", ")))
            + QLatin1Char('\n')
            + tr("Release them before quitting? Otherwise each is held until its lease runs out (its watchdog stops "
                 "with "
                 "the console), and waiters wait that long."),
        QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *release = box->addButton(tr("&Release and quit"), QMessageBox::AcceptRole);
    QPushButton *leave = box->addButton(tr("&Quit without releasing"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setEscapeButton(QMessageBox::Cancel);
    ConfirmGuard::install(box); // Return and Enter cancel: quitting is chosen with a click (or Tab and Space)
    connect(box, &QMessageBox::buttonClicked, this, [this, box, release, leave](QAbstractButton *button) {
        if (button == leave) {
            m_quitting = true;
            close();
        } else if (button == release) {
            showMessage(tr("Releasing this console's locks before quitting…"), false);
            m_console->releaseOwnHolds([this](int failed) {
                if (failed > 0) {
                    showMessage(tr("%n lock(s) could not be released; not quitting", nullptr, failed), true);
                    return;
                }
                m_quitting = true;
                close();
            });
        }
        Q_UNUSED(box)
    });
    box->open();
}

void MainWindow::setLockMonitor(LockMonitor *monitor, const QByteArray &ownClientId)
{
    if (m_locks)
        return;
    m_locks = new LocksPane(monitor, m_split);
    m_locks->model()->setOwnClientId(ownClientId);
    m_detail = new DetailPane(monitor, m_split);
    m_detail->setOwnClientId(ownClientId);
    delete m_placeholder;
    m_placeholder = nullptr;
    m_split->addWidget(m_locks);
    m_split->addWidget(m_detail);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);
    QSettings settings;
    if (!m_split->restoreState(settings.value(QStringLiteral("window/split")).toByteArray())) {
        // Once laid out: sizes given to a splitter that has no width yet are lost.
        // The table gets what its columns need on a 1280-pixel screen (Waiters, Age and Warnings in view); the detail
        // pane, which wraps, gives way (issue 47).
        QTimer::singleShot(0, this, [this] {
            m_split->setSizes({ m_split->width() * 72 / 100, m_split->width() * 28 / 100 });
        });
    }
    m_locks->restoreHeader(settings.value(QStringLiteral("window/locksHeader")).toByteArray(),
        settings.value(QStringLiteral("window/locksHeaderColumns"), 0).toInt());
    connect(m_locks, &LocksPane::summaryChanged, m_locksSummary, &QLabel::setText);
    connect(m_locks, &LocksPane::currentLockChanged, m_detail, &DetailPane::setLock);
    m_events = new EventsPane(monitor, m_eventsDock);
    delete m_eventsDock->widget();
    m_eventsDock->setWidget(m_events);
    m_contentionViews = new ContentionViews(monitor, this);
    watchHolders(monitor);
    m_contention = new ContentionPane(m_contentionViews, m_contentionDock);
    // The detail pane says how long the selected lock's waiters waited, from the same statistics as the Hot view.
    m_detail->setWaitsSource([views = m_contentionViews](const QByteArray &name) {
        const LockStats *stats = views->statistics().lock(name);
        return stats ? LockTexts::waitsText(*stats, StatsCollector::nowMs()) : QString();
    });
    delete m_contentionDock->widget();
    m_contentionDock->setWidget(m_contention);
    connect(m_contention, &ContentionPane::lockActivated, this, [this](const QByteArray &name) {
        if (m_locks)
            m_locks->selectLock(name);
    });
    connect(m_contention, &ContentionPane::clientActivated, this, [this](const QByteArray &client) {
        if (m_locks)
            m_locks->showClient(QString::fromUtf8(client));
    });
    connect(m_contention, &ContentionPane::fixRequested, this, [this](const QByteArray &name, const QByteArray &) {
        // The one fix the console does: the force release dialog, which shows what will be deleted and guards it.
        if (!m_locks || !m_console)
            return;
        m_locks->selectLock(name);
        if (m_locks->currentLock() == name && m_console->forceReleaseAction()->isEnabled())
            m_console->forceReleaseAction()->trigger();
        else
            showMessage(tr("%1 is not in the table now (filtered out, or gone)").arg(escapeBytes(name, 200)), true);
    });
    m_server = new ServerStatus(monitor->connection(), this);
    connect(m_server, &ServerStatus::changed, m_serverLabel, [this](const QString &text) {
        m_serverLabel->setText(text);
        m_serverLabel->setToolTip(m_server->details());
    });
}

void MainWindow::setConsole(ConsoleActions *console)
{
    m_console = console;
    for (QAction *action : console->actions()) {
        m_toolBar->addAction(action);
        m_lockMenu->addAction(action);
        if (m_locks)
            m_locks->view()->addAction(action);
    }
    // Semaphores' and latches' own actions: in the lock menu and the table's menu, not on the toolbar.
    for (QAction *action : console->counterActions()) {
        m_lockMenu->addAction(action);
        if (m_locks)
            m_locks->view()->addAction(action);
    }
    if (m_locks) {
        connect(m_locks, &LocksPane::currentLockChanged, console, &ConsoleActions::setCurrentLock);
        auto *showClient = new QAction(tr("Show this &client's locks"), this);
        connect(showClient, &QAction::triggered, this, [this] {
            const QModelIndex current = m_locks->view()->currentIndex();
            const QStringList ids = current.data(LockTableModel::ClientIdsRole).toStringList();
            if (!ids.isEmpty())
                m_locks->showClient(ids.first());
        });
        m_locks->view()->addAction(showClient);
        // Copy what a ticket or a terminal needs: the name as printed, the owners, the equivalent command.
        auto *separator = new QAction(this);
        separator->setSeparator(true);
        m_locks->view()->addAction(separator);
        m_copy = new CopyActions(
            m_locks, m_locks->model()->monitor(), [this] { return m_displayUrl; }, this);
        for (QAction *action : m_copy->actions())
            m_locks->view()->addAction(action);
    }
    if (m_contention) { // the Clients view's release-client: the console's action, on the client chosen there
        m_contention->setReleaseClientAction(console->releaseClientAction());
        connect(m_contention, &ContentionPane::currentClientChanged, console, &ConsoleActions::setCurrentClient);
        console->setCurrentClient(m_contention->currentClient());
    }
    attachTools(console); // its judge, and its entries in the Tools menu
    connect(console, &ConsoleActions::message, this, &MainWindow::showMessage);
    connect(console, &ConsoleActions::ownHoldsChanged, this, [this](const QHash<QByteArray, QByteArray> &tokens) {
        if (m_locks)
            m_locks->model()->setOwnHolds(tokens);
        if (m_detail)
            m_detail->setOwnHolds(tokens);
    });
    connect(console, &ConsoleActions::acquired, this, [this](const QByteArray &name) {
        if (m_locks)
            m_locks->chooseLock(name);
    });
    connect(console, &ConsoleActions::ownWatchdogsChanged, this, [this](const QHash<QByteArray, bool> &watchdogs) {
        if (m_locks)
            m_locks->model()->setOwnWatchdogs(watchdogs);
        if (m_detail)
            m_detail->setOwnWatchdogs(watchdogs);
    });
}

void MainWindow::clearLockMonitor()
{
    if (m_recording) {
        m_fileMenu->removeAction(m_recording->toggle());
        delete m_recording.data(); // before the monitor it records (and with it the table's Explain action)
    }
    m_explainAction->setEnabled(false);
    if (m_console) {
        for (QAction *action : m_console->actions()) {
            m_toolBar->removeAction(action);
            m_lockMenu->removeAction(action);
        }
        for (QAction *action : m_console->counterActions())
            m_lockMenu->removeAction(action);
        // It points at the session's client and monitor, which go right after this.
        delete std::exchange(m_console, nullptr);
    }
    delete std::exchange(m_copy, nullptr); // it points at the locks pane and the monitor
    // Both point at the monitor and the statistics, which go with the old connection.
    delete m_trace.data();
    clearBlockers();
    delete m_holderWatch.data();
    m_traceAction->setEnabled(false);
    delete std::exchange(m_locks, nullptr);
    delete std::exchange(m_detail, nullptr);
    delete std::exchange(m_server, nullptr);
    m_events = nullptr;
    delete m_eventsDock->widget();
    m_eventsDock->setWidget(new QLabel(tr("No events yet"), m_eventsDock));
    m_contention = nullptr;
    delete m_contentionDock->widget();
    m_contentionDock->setWidget(new QLabel(tr("No statistics yet"), m_contentionDock));
    delete std::exchange(m_contentionViews, nullptr);
    m_placeholder = new QLabel(tr("Connecting…"), m_split);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_split->addWidget(m_placeholder);
    m_locksSummary->clear();
    m_serverLabel->clear();
}

void MainWindow::setProduction(bool production)
{
    m_header->setProduction(production);
}

void MainWindow::setColourTag(const QColor &colour)
{
    m_header->setColourTag(colour);
}

void MainWindow::showContentionView(const QString &view)
{
    if (view == QLatin1String("blockers")) {
        m_blockersDock->show();
        m_blockersDock->raise();
        return;
    }
    if (!m_contention)
        return;
    m_contentionDock->show();
    m_contentionDock->raise();
    const int tab = view == QLatin1String("stuck") ? 1 : view == QLatin1String("clients") ? 2 : 0;
    m_contention->tabs()->setCurrentIndex(tab);
    auto *table = qobject_cast<QTableView *>(m_contention->tabs()->currentWidget());
    if (table && table->model()->rowCount() > 0)
        table->selectRow(0);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileMenu = file;
    QAction *connectAction = file->addAction(tr("&Connect…"), this, &MainWindow::connectRequested);
    connectAction->setShortcut(QKeySequence::Open);
    connectAction->setIcon(QIcon(QStringLiteral(":/icons/connect.svg")));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_lockMenu = menuBar()->addMenu(tr("&Lock"));
    QAction *findAction = m_lockMenu->addAction(tr("&Find a lock…"), this, [this] {
        if (m_locks)
            m_locks->focusFilter();
    });
    findAction->setShortcut(QKeySequence::Find);
    m_lockMenu->addSeparator();

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_eventsDock->toggleViewAction());
    view->addAction(m_contentionDock->toggleViewAction());
    view->addAction(m_blockersDock->toggleViewAction());
    view->addAction(m_demoDock->toggleViewAction());
    view->addAction(m_toolBar->toggleViewAction());
    view->addAction(tr("&Audit log…"), this, [this] {
        auto *log = new AuditLogView(this);
        log->setAttribute(Qt::WA_DeleteOnClose);
        log->open();
    });
    view->addAction(tr("&Clear demo log"), this, [this] {
        m_demo->eventLog()->clear();
        updateSummary();
    });

    buildToolsMenu();

    QMenu *demo = menuBar()->addMenu(tr("&Demo"));
    QAction *guided = demo->addAction(tr("&Guided demo…"), this, &MainWindow::guidedDemoRequested);
    guided->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(
        tr("&User guide"), this, [this] { showHelp(new HelpWindow(HelpWindow::Page::UserGuide, this)); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard shortcuts"), this,
        [this] { showHelp(new HelpWindow(tr("Keyboard shortcuts"), shortcutsText(), this)); });
    help->addAction(tr("lockscope-cli &reference"), this,
        [this] { showHelp(new HelpWindow(HelpWindow::Page::CliReference, this)); });
    help->addSeparator();
    help->addAction(tr("&About LockScope"), this, [this] {
        QMessageBox::about(this, tr("About LockScope"),
            tr("<h3>LockScope %1</h3><p>A monitor and console for Redisson-style distributed locks in Redis.</p>"
               "<p>Lease countdowns are computed from the time of the last acquire or renewal plus the lease, "
               "on a monotonic clock.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::setConnection(const QString &displayUrl, const QString &description, bool readOnly)
{
    m_displayUrl = displayUrl;
    m_header->setConnection(displayUrl, description, readOnly);
    setWindowTitle(displayUrl.isEmpty() ? tr("LockScope") : tr("LockScope — %1").arg(displayUrl));
}

void MainWindow::setRoute(const QString &route, bool tunnelled, const QString &detail)
{
    m_header->setRoute(route, tunnelled, detail);
}

void MainWindow::setConnectionState(ConnectionState state, const QString &detail, int retryMs)
{
    m_header->setState(state, detail, retryMs);
    if (m_locks)
        m_locks->setStale(m_header->disconnectedSince());
    if (!detail.isEmpty())
        showStatus(m_header->error(), 0);
    else
        statusBar()->clearMessage();
}

void MainWindow::setNote(const QString &text)
{
    m_header->setNote(text);
}

void MainWindow::addEvent(const DemoEvent &event)
{
    m_demo->addEvent(event);
    updateSummary();
}

void MainWindow::tick()
{
    m_header->tick();
    if (m_locks)
        m_locks->repaint();
    if (m_detail && ++m_ticks % 5 == 0)
        m_detail->refresh();
    m_demo->tick();
}

void MainWindow::updateSummary()
{
    const int holds = m_demo->holdsModel()->rowCount();
    const int events = m_demo->eventLog()->eventCount();
    if (holds > 0 || events > 0)
        m_demoDock->show();
    m_summaryLabel->setVisible(events > 0);
    m_summaryLabel->setText(
        tr("Demo: %1 holds · %2 waiting · %3 events").arg(holds).arg(m_demo->waitingCount()).arg(events));
}

} // namespace LockScope
