#include "mainwindow.h"

#include "auditlogview.h"
#include "confirmguard.h"
#include "consoleactions.h"
#include "contentionpane.h"
#include "copyactions.h"
#include "detailpane.h"
#include "eventlog.h"
#include "eventspane.h"
#include "holdsmodel.h"
#include "leasedelegate.h"
#include "lockspane.h"
#include "models/contentionviews.h"
#include "models/locktablemodel.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"
#include "serverstatus.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QFrame>
#include <QHBoxLayout>
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
    , m_holds(new HoldsModel(this))
{
    setWindowTitle(tr("LockScope"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 4);
    layout->setSpacing(6);
    m_header = buildHeader();
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
    m_demoDock->setWidget(buildDemoPane());
    addDockWidget(Qt::BottomDockWidgetArea, m_demoDock);
    tabifyDockWidget(m_eventsDock, m_demoDock);
    m_contentionDock = new QDockWidget(tr("Contention"), this);
    m_contentionDock->setObjectName(QStringLiteral("contentionDock"));
    m_contentionDock->setWidget(new QLabel(tr("No statistics yet"), m_contentionDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_contentionDock);
    tabifyDockWidget(m_eventsDock, m_contentionDock);
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
    connect(m_holds, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateSummary);
    connect(m_holds, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateSummary);
    setConnectionState(ConnectionState::Starting);
    updateSummary();
    fitToScreen();
    restoreLayout();
}

QWidget *MainWindow::buildDemoPane()
{
    auto *tabs = new QTabWidget(this);
    m_holdsView = new QTableView(tabs);
    m_holdsView->setAccessibleName(tr("Demo holds"));
    m_holdsView->setModel(m_holds);
    m_holdsView->setItemDelegateForColumn(HoldsModel::LeaseColumn, new LeaseDelegate(m_holdsView));
    m_holdsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_holdsView->setShowGrid(false);
    m_holdsView->verticalHeader()->hide();
    m_holdsView->horizontalHeader()->setSectionResizeMode(HoldsModel::OwnerColumn, QHeaderView::Stretch);
    m_log = new EventLog(tabs);
    tabs->addTab(m_log, tr("What the clients do"));
    tabs->addTab(m_holdsView, tr("Their holds"));
    return tabs;
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
    if (m_locks)
        settings.setValue(QStringLiteral("window/locksHeader"), m_locks->view()->horizontalHeader()->saveState());
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
    ConfirmGuard::install(box); // Return and Enter cancel: quitting is chosen with a click or its mnemonic
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
        QTimer::singleShot(0, this, [this] { m_split->setSizes({ m_split->width() * 2 / 3, m_split->width() / 3 }); });
    }
    m_locks->view()->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/locksHeader")).toByteArray());
    connect(m_locks, &LocksPane::summaryChanged, m_locksSummary, &QLabel::setText);
    connect(m_locks, &LocksPane::currentLockChanged, m_detail, &DetailPane::setLock);
    m_events = new EventsPane(monitor, m_eventsDock);
    delete m_eventsDock->widget();
    m_eventsDock->setWidget(m_events);
    m_contentionViews = new ContentionViews(monitor, this);
    m_contention = new ContentionPane(m_contentionViews, m_contentionDock);
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

void MainWindow::setColourTag(const QColor &colour)
{
    m_header->setStyleSheet(colour.isValid()
            ? QStringLiteral("QFrame#connectionHeader { border-left: 6px solid %1; }").arg(colour.name())
            : QString());
}

void MainWindow::showContentionView(const QString &view)
{
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

void MainWindow::showMessage(const QString &text, bool error)
{
    statusBar()->showMessage(error ? QStringLiteral("⚠ ") + text : text, error ? 15000 : 6000);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
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
    view->addAction(m_demoDock->toggleViewAction());
    view->addAction(m_toolBar->toggleViewAction());
    view->addAction(tr("&Audit log…"), this, [this] {
        auto *log = new AuditLogView(this);
        log->setAttribute(Qt::WA_DeleteOnClose);
        log->open();
    });
    view->addAction(tr("&Clear demo log"), this, [this] {
        m_log->clear();
        updateSummary();
    });

    QMenu *demo = menuBar()->addMenu(tr("&Demo"));
    QAction *guided = demo->addAction(tr("&Guided demo…"), this, &MainWindow::guidedDemoRequested);
    guided->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About LockScope"), this, [this] {
        QMessageBox::about(this, tr("About LockScope"),
            tr("<h3>LockScope %1</h3><p>A monitor and console for Redisson-style distributed locks in Redis.</p>"
               "<p>Lease countdowns are computed from the time of the last acquire or renewal plus the lease, "
               "on a monotonic clock.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

QWidget *MainWindow::buildHeader()
{
    auto *frame = new QFrame(this);
    frame->setObjectName(QStringLiteral("connectionHeader"));
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    QPalette palette = frame->palette();
    palette.setColor(QPalette::Window, palette.color(QPalette::Base));
    frame->setPalette(palette);

    auto *layout = new QVBoxLayout(frame);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(4);
    auto *top = new QHBoxLayout;
    top->setSpacing(10);
    m_stateLabel = new QLabel(frame);
    m_urlLabel = new QLabel(frame);
    QFont urlFont = m_urlLabel->font();
    urlFont.setBold(true);
    urlFont.setPointSizeF(urlFont.pointSizeF() * 1.15);
    m_urlLabel->setFont(urlFont);
    m_urlLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readOnlyBadge = new QLabel(tr("read-only"), frame);
    m_readOnlyBadge->setStyleSheet(QStringLiteral(
        "QLabel { color: white; background: #6a1b9a; border-radius: 4px; padding: 1px 6px; font-weight: bold; }"));
    m_readOnlyBadge->hide();
    m_routeLabel = new QLabel(frame);
    m_routeLabel->setAccessibleName(tr("Connected through"));
    m_routeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_routeLabel->hide();
    top->addWidget(m_stateLabel);
    top->addWidget(m_urlLabel);
    top->addWidget(m_routeLabel);
    top->addWidget(m_readOnlyBadge);
    top->addStretch(1);
    layout->addLayout(top);

    m_descriptionLabel = new QLabel(frame);
    m_descriptionLabel->setWordWrap(true);
    layout->addWidget(m_descriptionLabel);
    m_noteLabel = new QLabel(frame);
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setStyleSheet(QStringLiteral("QLabel { color: #5f6368; }"));
    m_noteLabel->hide();
    layout->addWidget(m_noteLabel);
    return frame;
}

void MainWindow::setConnection(const QString &displayUrl, const QString &description, bool readOnly)
{
    m_displayUrl = displayUrl;
    m_urlLabel->setText(displayUrl);
    m_descriptionLabel->setText(description);
    m_readOnlyBadge->setVisible(readOnly);
    setWindowTitle(displayUrl.isEmpty() ? tr("LockScope") : tr("LockScope — %1").arg(displayUrl));
}

void MainWindow::setRoute(const QString &route, bool tunnelled, const QString &detail)
{
    m_routeLabel->setText(route);
    m_routeLabel->setToolTip(detail);
    // A tunnel stands out: the URL it shows (127.0.0.1, say) means that address as the SSH host sees it.
    m_routeLabel->setStyleSheet(tunnelled
            ? QStringLiteral("QLabel { color: white; background: #00695c; border-radius: 4px; padding: 1px 6px; "
                             "font-weight: bold; }")
            : QStringLiteral("QLabel { color: #5f6368; }"));
    m_routeLabel->setVisible(!route.isEmpty());
}

QString MainWindow::route() const
{
    return m_routeLabel->text();
}

void MainWindow::setConnectionState(ConnectionState state, const QString &detail, int retryMs)
{
    m_connectionState = state;
    m_connectionError = detail.section(QLatin1Char('\n'), 0, 0);
    m_retryAt = retryMs >= 0 ? QDeadlineTimer(retryMs) : QDeadlineTimer(QDeadlineTimer::Forever);
    m_retryKnown = retryMs != RedisCommander::RetryUnknown;
    if (state == ConnectionState::Disconnected || state == ConnectionState::Failed) {
        if (!m_disconnectedSince.isValid())
            m_disconnectedSince = QDateTime::currentDateTime();
    } else if (state == ConnectionState::Connected) {
        m_disconnectedSince = {};
    }
    if (m_locks)
        m_locks->setStale(m_disconnectedSince);
    updateConnectionLabel();
    m_stateLabel->setToolTip(detail);
    if (!detail.isEmpty())
        statusBar()->showMessage(m_connectionError);
    else
        statusBar()->clearMessage();
}

QString MainWindow::connectionStateText() const
{
    return m_stateLabel->text();
}

void MainWindow::updateConnectionLabel()
{
    QString text;
    QString color;
    switch (m_connectionState) {
    case ConnectionState::Starting:
        text = tr("connecting…");
        color = QStringLiteral("#ef6c00");
        break;
    case ConnectionState::Connected:
        text = tr("connected");
        color = QStringLiteral("#2e7d32");
        break;
    case ConnectionState::Disconnected:
        // The countdown ran out while still disconnected: the connection has set its next attempt since.
        if (m_retryKnown && !m_retryAt.isForever() && m_retryAt.hasExpired() && m_retrySource) {
            const int next = m_retrySource();
            if (next >= 0)
                m_retryAt = QDeadlineTimer(next);
            else if (next == RedisCommander::NoRetry)
                m_retryAt = QDeadlineTimer(QDeadlineTimer::Forever);
        }
        // What went wrong, and what happens next: a countdown to the next attempt, or that none will be made.
        if (!m_retryKnown)
            text = tr("disconnected: %1; reconnecting").arg(m_connectionError);
        else if (m_retryAt.isForever())
            text = tr("disconnected: %1; not retrying").arg(m_connectionError);
        else if (m_retryAt.hasExpired())
            text = tr("disconnected: %1; reconnecting now").arg(m_connectionError);
        else
            text = tr("disconnected: %1; retrying in %2 s")
                       .arg(m_connectionError)
                       .arg((m_retryAt.remainingTime() + 999) / 1000);
        color = m_retryAt.isForever() && m_retryKnown ? QStringLiteral("#c62828") : QStringLiteral("#ef6c00");
        break;
    case ConnectionState::Failed:
        text = m_connectionError.isEmpty() ? tr("failed: not retrying")
                                           : tr("failed: %1; not retrying").arg(m_connectionError);
        color = QStringLiteral("#c62828");
        break;
    }
    m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2").arg(color, text.toHtmlEscaped()));
}

QString MainWindow::note() const
{
    return m_noteLabel->text();
}

void MainWindow::setNote(const QString &text)
{
    m_noteLabel->setText(text);
    m_noteLabel->setVisible(!text.isEmpty());
}

void MainWindow::addEvent(const DemoEvent &event)
{
    m_holds->applyEvent(event);
    m_log->addEvent(event);
    switch (event.kind) {
    case DemoEvent::Kind::Waiting:
        m_waitingClients.insert(event.client);
        break;
    case DemoEvent::Kind::Acquired:
    case DemoEvent::Kind::GaveUp:
    case DemoEvent::Kind::Failed:
        m_waitingClients.remove(event.client);
        break;
    default:
        break;
    }
    updateSummary();
}

void MainWindow::tick()
{
    if (m_connectionState == ConnectionState::Disconnected && !m_retryAt.isForever())
        updateConnectionLabel(); // the countdown to the next attempt
    if (m_locks)
        m_locks->repaint();
    if (m_detail && ++m_ticks % 5 == 0)
        m_detail->refresh();
    if (m_holds->rowCount() > 0)
        m_holdsView->viewport()->update();
}

void MainWindow::updateSummary()
{
    const int holds = m_holds->rowCount();
    if (holds > 0 || m_log->eventCount() > 0)
        m_demoDock->show();
    m_summaryLabel->setVisible(m_log->eventCount() > 0);
    m_summaryLabel->setText(
        tr("Demo: %1 holds · %2 waiting · %3 events").arg(holds).arg(m_waitingClients.size()).arg(m_log->eventCount()));
}

} // namespace LockScope
