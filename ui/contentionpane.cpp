#include "contentionpane.h"

#include "models/contentionviews.h"
#include "models/keyedtablemodel.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

ContentionPane::ContentionPane(ContentionViews *views, QWidget *parent)
    : QWidget(parent)
    , m_views(views)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_tabs = new QTabWidget(this);
    m_hotView = addView(views->hot(), tr("Hot"), tr("Locks ranked by contention"));
    m_stuckView = addView(views->stuck(), tr("Stuck"), tr("Stuck locks"));
    m_clientsView = addView(views->clients(), tr("Clients"), tr("Clients and their holds"));
    m_tabs->setTabToolTip(
        0, tr("Ranked by waiter-time in the last minutes, then acquisitions per minute, then p95 hold"));
    m_tabs->setTabToolTip(1, tr("What keeps a lock from being taken, and what fixes it"));
    m_tabs->setTabToolTip(2, tr("Every client id: what it holds now, and its history. Double-click to show its locks"));
    layout->addWidget(m_tabs, 1);

    auto *buttons = new QHBoxLayout;
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_show = new QPushButton(tr("Show in table"), this);
    m_fix = new QPushButton(tr("Fix…"), this);
    m_fix->setToolTip(tr("Opens the force release dialog for this lock: it shows what will be deleted first"));
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setToolTip(tr("Save what this view shows as CSV or JSON"));
    // The console's action, once it is given: until then (no console) nothing here writes.
    m_releaseClient = new QPushButton(this);
    m_releaseClient->hide();
    buttons->addWidget(m_hint, 1);
    buttons->addWidget(m_show);
    buttons->addWidget(m_fix);
    buttons->addWidget(m_releaseClient);
    buttons->addWidget(m_export);
    layout->addLayout(buttons);

    connect(m_tabs, &QTabWidget::currentChanged, this, &ContentionPane::updateButtons);
    connect(m_show, &QPushButton::clicked, this, [this] {
        const QModelIndex row = currentRow();
        const QByteArray client = row.data(KeyedTableModel::ClientRole).toByteArray();
        if (!client.isEmpty())
            emit clientActivated(client);
        else if (!row.data(KeyedTableModel::LockRole).toByteArray().isEmpty())
            emit lockActivated(row.data(KeyedTableModel::LockRole).toByteArray());
    });
    connect(m_fix, &QPushButton::clicked, this, [this] {
        const QModelIndex row = currentRow();
        emit fixRequested(
            row.data(KeyedTableModel::LockRole).toByteArray(), row.data(KeyedTableModel::ActionRole).toByteArray());
    });
    connect(m_export, &QPushButton::clicked, this, &ContentionPane::exportView);
    connect(views, &ContentionViews::refreshed, this, &ContentionPane::updateButtons);
    updateButtons();
}

QTableView *ContentionPane::addView(KeyedTableModel *model, const QString &title, const QString &accessibleName)
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(KeyedTableModel::SortRole);
    auto *view = new QTableView(m_tabs);
    view->setAccessibleName(accessibleName);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the model's ranking until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setShowGrid(false);
    // One line a row: a client id wrapped into two read as two ids (issue 47); a long one is elided in its middle,
    // where a UUID's ends still tell it apart.
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    // Figures as wide as they need; the name keeps a readable width and takes what is left.
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    view->horizontalHeader()->resizeSection(0, 240);
    view->horizontalHeader()->setStretchLastSection(true);
    connect(view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const QByteArray client = index.data(KeyedTableModel::ClientRole).toByteArray();
        if (!client.isEmpty())
            emit clientActivated(client);
        else
            emit lockActivated(index.data(KeyedTableModel::LockRole).toByteArray());
    });
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ContentionPane::updateButtons);
    m_tabs->addTab(view, title);
    return view;
}

KeyedTableModel *ContentionPane::currentModel() const
{
    const auto *view = qobject_cast<QTableView *>(m_tabs->currentWidget());
    const auto *proxy = view ? qobject_cast<QSortFilterProxyModel *>(view->model()) : nullptr;
    return proxy ? qobject_cast<KeyedTableModel *>(proxy->sourceModel()) : nullptr;
}

QModelIndex ContentionPane::currentRow() const
{
    const auto *view = qobject_cast<QTableView *>(m_tabs->currentWidget());
    return view ? view->currentIndex() : QModelIndex();
}

QByteArray ContentionPane::currentClient() const
{
    return m_clientsView->currentIndex().data(KeyedTableModel::ClientRole).toByteArray();
}

void ContentionPane::setReleaseClientAction(QAction *action)
{
    m_releaseClientAction = action;
    m_clientsView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_clientsView->addAction(action);
    // The button is the action: the same text, state and reason when it is off (read-only, no client chosen).
    const auto mirror = [this, action] {
        m_releaseClient->setText(action->text());
        m_releaseClient->setEnabled(action->isEnabled());
        m_releaseClient->setToolTip(action->toolTip());
    };
    connect(action, &QAction::changed, m_releaseClient, mirror);
    connect(m_releaseClient, &QPushButton::clicked, action, &QAction::trigger);
    // The console goes before this pane does: the button goes with it.
    connect(action, &QObject::destroyed, m_releaseClient, [this] {
        m_releaseClientAction = nullptr;
        m_releaseClient->hide();
    });
    mirror();
    updateButtons();
}

void ContentionPane::updateButtons()
{
    const QModelIndex row = currentRow();
    const QByteArray action = row.data(KeyedTableModel::ActionRole).toByteArray();
    m_show->setEnabled(row.isValid());
    // Force release is the console's one fix: the dialog it opens guards it. The others are said, not done.
    m_fix->setVisible(m_tabs->currentWidget() == m_stuckView);
    m_releaseClient->setVisible(m_releaseClientAction && m_tabs->currentWidget() == m_clientsView);
    if (const QByteArray client = currentClient(); client != m_currentClient) {
        m_currentClient = client;
        emit currentClientChanged(client);
    }
    m_fix->setEnabled(row.isValid()
        && (action == "force-release" || action == "wake-waiters" || action == "find-holder"
            || action == "wait-for-expiry"));
    if (m_tabs->currentWidget() == m_stuckView && row.isValid())
        m_hint->setText(row.siblingAtColumn(m_views->stuck()->columnCount() - 1).data().toString());
    else if (m_tabs->currentWidget() == m_clientsView && m_views->limited())
        m_hint->setText(tr("Too many locks to index their holders: what each client holds now is not counted; "
                           "double-click a client to see its locks"));
    else
        m_hint->clear();
}

QByteArray ContentionPane::exportCurrent(const QByteArray &format) const
{
    const KeyedTableModel *model = currentModel();
    if (!model)
        return {};
    return format == "json" ? model->toJson() : model->toCsv();
}

void ContentionPane::exportView()
{
    // Not the static getSaveFileName: its own event loop would run the monitor's updates inside this click.
    auto *dialog = new QFileDialog(this, tr("Export view"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({ tr("CSV (*.csv)"), tr("JSON (*.json)") });
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const QByteArray format = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? "json" : "csv";
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(exportCurrent(format)) < 0)
            m_hint->setText(tr("Could not write %1: %2").arg(path, file.errorString()));
        else
            m_hint->setText(tr("Saved %1").arg(path));
    });
    dialog->open();
}

} // namespace LockScope
