#include "mainwindow.h"

#include "eventlog.h"
#include "holdsmodel.h"
#include "leasedelegate.h"
#include "lockspane.h"

#include <QApplication>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

namespace {
constexpr int repaintIntervalMs = 100;

QLabel *caption(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.1);
    label->setFont(font);
    return label;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_holds(new HoldsModel(this))
{
    setWindowTitle(tr("LockScope"));
    buildMenus();

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(10, 10, 10, 6);
    layout->setSpacing(8);
    layout->addWidget(buildHeader());

    auto *splitter = new QSplitter(Qt::Vertical, central);
    splitter->setChildrenCollapsible(false);

    m_tabs = new QTabWidget(splitter);
    auto *holdsPane = new QWidget(m_tabs);
    auto *holdsLayout = new QVBoxLayout(holdsPane);
    holdsLayout->setContentsMargins(0, 0, 0, 0);
    m_holdsCaption = caption(tr("Live holds"), holdsPane);
    holdsLayout->addWidget(m_holdsCaption);
    m_holdsView = new QTableView(holdsPane);
    m_holdsView->setModel(m_holds);
    m_holdsView->setItemDelegateForColumn(HoldsModel::LeaseColumn, new LeaseDelegate(m_holdsView));
    m_holdsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_holdsView->setAlternatingRowColors(true);
    m_holdsView->setShowGrid(false);
    m_holdsView->setWordWrap(false);
    m_holdsView->verticalHeader()->hide();
    m_holdsView->verticalHeader()->setDefaultSectionSize(m_holdsView->fontMetrics().height() + 14);
    QHeaderView *header = m_holdsView->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionResizeMode(HoldsModel::OwnerColumn, QHeaderView::Stretch);
    m_holdsView->setColumnWidth(HoldsModel::NameColumn, 170);
    m_holdsView->setColumnWidth(HoldsModel::ClientColumn, 200);
    m_holdsView->setColumnWidth(HoldsModel::CountColumn, 70);
    m_holdsView->setColumnWidth(HoldsModel::LeaseColumn, 170);
    holdsLayout->addWidget(m_holdsView);

    auto *logPane = new QWidget(splitter);
    auto *logLayout = new QVBoxLayout(logPane);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(caption(tr("Event log"), logPane));
    m_log = new EventLog(logPane);
    logLayout->addWidget(m_log);

    m_tabs->addTab(holdsPane, tr("Demo holds"));
    splitter->addWidget(m_tabs);
    splitter->addWidget(logPane);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    m_locksSummary = new QLabel(this);
    statusBar()->addPermanentWidget(m_locksSummary);
    m_summaryLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_summaryLabel);

    connect(&m_repaint, &QTimer::timeout, this, &MainWindow::tick);
    m_repaint.start(repaintIntervalMs);
    connect(m_holds, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateSummary);
    connect(m_holds, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateSummary);
    setConnectionState(ConnectionState::Starting);
    updateSummary();
    resize(1180, 760);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Clear event log"), this, [this] {
        m_log->clear();
        updateSummary();
    });

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
    top->addWidget(m_stateLabel);
    top->addWidget(m_urlLabel);
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

void MainWindow::setConnectionState(ConnectionState state, const QString &detail)
{
    QString text;
    QString color;
    switch (state) {
    case ConnectionState::Starting:
        text = tr("connecting…");
        color = QStringLiteral("#ef6c00");
        break;
    case ConnectionState::Connected:
        text = tr("connected");
        color = QStringLiteral("#2e7d32");
        break;
    case ConnectionState::Disconnected:
        text = tr("disconnected, retrying");
        color = QStringLiteral("#ef6c00");
        break;
    case ConnectionState::Failed:
        text = tr("failed");
        color = QStringLiteral("#c62828");
        break;
    }
    m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2").arg(color, text.toHtmlEscaped()));
    m_stateLabel->setToolTip(detail);
    if (!detail.isEmpty())
        statusBar()->showMessage(detail.section(QLatin1Char('\n'), 0, 0));
    else
        statusBar()->clearMessage();
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

void MainWindow::setLockMonitor(LockMonitor *monitor)
{
    if (m_locks)
        return;
    m_locks = new LocksPane(monitor, m_tabs);
    connect(m_locks, &LocksPane::summaryChanged, m_locksSummary, &QLabel::setText);
    m_tabs->insertTab(0, m_locks, tr("All locks"));
    m_tabs->setCurrentIndex(0);
}

void MainWindow::tick()
{
    if (m_locks)
        m_locks->repaint();
    if (m_holds->rowCount() > 0)
        m_holdsView->viewport()->update();
}

void MainWindow::updateSummary()
{
    const int holds = m_holds->rowCount();
    m_holdsCaption->setText(tr("Live holds (%1)").arg(holds));
    m_summaryLabel->setText(tr("Holds: %1 · Clients waiting: %2 · Events: %3")
                                .arg(holds)
                                .arg(m_waitingClients.size())
                                .arg(m_log->eventCount()));
}

} // namespace LockScope
