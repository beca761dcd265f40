#include "lockspane.h"

#include "kinds/locklayouts.h"
#include "lockfilterproxy.h"
#include "models/locktablemodel.h"
#include "models/locktexts.h"
#include "monitor/lockmonitor.h"
#include "ttldelegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace LockScope {

namespace {
// A context menu (or any popup) is open: the action it starts acts on the rows as they were when it opened.
bool menuOpen()
{
    return QApplication::activePopupWidget() != nullptr;
}

constexpr int kSortedRowLimit = 20000;
constexpr int kEndedRetentionMs = 5000;
// Gone rows kept while the pointer rests on the table, at most: a pointer left there for hours over a table of
// short-lived locks would otherwise keep every one of them. Past it they all go, in one batch.
constexpr int kEndedUnderPointer = 200;
// Columns fitted to what they show, each up to a width that keeps every column, Waiters, Age and some of Warnings
// included, in view without a horizontal scroll on a 1280-pixel screen (issue 47; a longer name, kind or holder is
// elided, its tooltip whole).
struct FittedColumn
{
    int column;
    int maxWidth;
};
constexpr FittedColumn kFittedColumns[] = { { LockTableModel::Name, 190 }, { LockTableModel::Kind, 105 },
    { LockTableModel::Mode, 45 }, { LockTableModel::Holders, 140 }, { LockTableModel::Watchdog, 75 } };

QString modeText(LockEventFeed::Mode mode)
{
    switch (mode) {
    case LockEventFeed::Mode::KeyspaceEvents:
        return LocksPane::tr("live: keyspace events");
    case LockEventFeed::Mode::PubSubPolling:
        return LocksPane::tr("live: wake-up messages + periodic re-scan");
    case LockEventFeed::Mode::Polling:
        return LocksPane::tr("periodic re-scan only");
    case LockEventFeed::Mode::Starting:
        break;
    }
    return LocksPane::tr("scanning…");
}

// A gone lock's row, kept a moment to say how it ended: greyed and in italics, in every column.
class EndedRowDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(LockTableModel::EndedRole).toBool()) {
            option->font.setItalic(true);
            const QColor grey = option->palette.color(QPalette::Disabled, QPalette::Text);
            option->palette.setColor(QPalette::Text, grey);
            option->palette.setColor(QPalette::HighlightedText, grey.lighter(150));
        }
    }
};

// A client combo that lists the client ids present when it opens: counting 100k rows once per click, not per batch.
class ClientCombo : public QComboBox
{
public:
    using QComboBox::QComboBox;
    std::function<void()> beforePopup;
    void showPopup() override
    {
        if (beforePopup)
            beforePopup();
        // The list as wide as its longest entry, not as the narrow box.
        view()->setMinimumWidth(view()->sizeHintForColumn(0) + 24);
        QComboBox::showPopup();
    }
};
} // namespace

LocksPane::LocksPane(LockMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_model(new LockTableModel(monitor, this))
    , m_proxy(new LockFilterProxy(m_model, this))
    , m_autoFrom(LockTableModel::ColumnCount)
{

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name (glob, e.g. orders:*)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Lock name filter"));
    m_kind = new QComboBox(this);
    m_kind->setAccessibleName(tr("Lock kind filter"));
    m_kind->addItem(tr("All kinds"), QString());
    for (const LockInfo::Kind kind : LockLayouts::listedKinds())
        m_kind->addItem(LockTexts::kindText(kind), QString::fromLatin1(LockInfo::kindName(kind)));
    auto *client = new ClientCombo(this);
    client->beforePopup = [this] { fillClients(); };
    m_client = client;
    m_client->setAccessibleName(tr("Client filter: one client's whole footprint"));
    m_client->addItem(tr("All clients"), QString());
    // As wide as a short client id, whatever is chosen: a whole UUID with its count squeezed the name filter (issue
    // 47). The list that drops down is as wide as its longest entry, and the choice's tooltip is whole.
    m_client->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_client->setMinimumContentsLength(14);
    m_client->view()->setTextElideMode(Qt::ElideNone);
    connect(m_client, &QComboBox::currentIndexChanged, m_client,
        [this] { m_client->setToolTip(m_client->currentIndex() > 0 ? m_client->currentText() : QString()); });
    m_mode = new QLabel(this);
    m_mode->setForegroundRole(QPalette::PlaceholderText);
    top->addWidget(m_filter, 1);
    top->addWidget(m_kind);
    top->addWidget(m_client);
    top->addWidget(m_mode);
    layout->addLayout(top);
    m_stale = new QLabel(this);
    m_stale->setObjectName(QStringLiteral("staleNotice"));
    m_stale->setStyleSheet(QStringLiteral("QLabel { color: #c62828; }"));
    m_stale->setWordWrap(true);
    m_stale->hide();
    layout->addWidget(m_stale);

    m_view = new QTableView(this);
    m_view->setAccessibleName(tr("Locks"));
    // Before setModel(): this must run before the view's and its selection model's own handlers, which move a single
    // selection whose row goes onto the next row, and with it the detail pane and the next force release.
    connect(m_proxy, &QAbstractItemModel::rowsAboutToBeRemoved, this,
        [this](const QModelIndex &, int first, int last) { onRowsLeaving(first, last); });
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new EndedRowDelegate(m_view));
    m_view->setItemDelegateForColumn(LockTableModel::Ttl, new TtlDelegate(m_view));
    // A lock that goes stays a few seconds, greyed and saying how it ended, and while it is the one chosen: the row
    // under the person's eyes does not vanish, and a lock taken and released every second keeps its row. No gone row
    // goes while the pointer is on the table or a menu is open: every row below it would move up between the moment
    // the pointer arrives and the click, and a right-click on orders:42 copied orders:43's owner (issue 47).
    m_model->setEndedRetention(kEndedRetentionMs, [this](const QByteArray &name) {
        return name == m_chosen
            || ((m_view->viewport()->underMouse() || menuOpen()) && m_model->endedCount() <= kEndedUnderPointer);
    });
    // Unsorted while the first snapshot streams in (each batch would go to its places in a layout change of the whole
    // table); sorted by name once it is complete. The header's click sorts in LockFilterModel, a slice at a time.
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_proxy->sort(-1);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 12);
    // A dock pulled up takes the window's height from the table: three whole rows, the header and a horizontal
    // scroll bar stay, or the table is nothing to act on.
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height()
        + 3 * m_view->verticalHeader()->defaultSectionSize() + m_view->horizontalScrollBar()->sizeHint().height()
        + 2 * m_view->frameWidth());
    m_view->horizontalHeader()->setSectionResizeMode(LockTableModel::Warnings, QHeaderView::Stretch);
    m_view->setColumnWidth(LockTableModel::Name, 170);
    m_view->setColumnWidth(LockTableModel::Kind, 80);
    m_view->setColumnWidth(LockTableModel::Mode, 45);
    m_view->setColumnWidth(LockTableModel::Holders, 170);
    m_view->setColumnWidth(LockTableModel::Count, 48);
    m_view->setColumnWidth(LockTableModel::Ttl, 90);
    m_view->setColumnWidth(LockTableModel::Watchdog, 75);
    m_view->setColumnWidth(LockTableModel::Waiters, 58);
    m_view->setColumnWidth(LockTableModel::Age, 60);
    m_view->installEventFilter(this);
    // A column shown or hidden from the header's own menu (a right-click on it).
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu *menu = headerMenu();
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->horizontalHeader()->mapToGlobal(at));
    });
    layout->addWidget(m_view);

    // Once typing pauses, not on every key: each glob typed is matched against every row.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(200);
    connect(m_filter, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this] { m_proxy->setNameGlob(m_filter->text()); });
    const auto sortOnce = [this] {
        // A sorted table keeps its order beside the rows (about 80 bytes a row), and a big one takes seconds to sort
        // in the background: a big table stays in scan order (new rows at the bottom) until someone clicks a header.
        if (m_model->rowCount() <= kSortedRowLimit)
            m_view->sortByColumn(LockTableModel::Name, Qt::AscendingOrder);
    };
    if (monitor->isSnapshotComplete())
        sortOnce();
    else
        connect(monitor, &LockMonitor::snapshotFinished, this, sortOnce, Qt::SingleShotConnection);
    // The main columns fit what they show: once the first snapshot is in, and again as rows come, a moment after.
    m_fitColumns.setSingleShot(true);
    m_fitColumns.setInterval(500);
    connect(&m_fitColumns, &QTimer::timeout, this, &LocksPane::fitColumns);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, &m_fitColumns, qOverload<>(&QTimer::start));
    connect(monitor, &LockMonitor::snapshotFinished, this, &LocksPane::fitColumns);
    connect(
        m_kind, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setKind(m_kind->currentData().toString()); });
    connect(m_client, &QComboBox::currentIndexChanged, this,
        [this] { m_proxy->setClientId(m_client->currentData().toString()); });
    // A click makes its row current first and selects it after; the arrow keys do both at once.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &LocksPane::noteChoice);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LocksPane::noteChoice);
    // The chosen lock back in view (acquired again, or a filter that passes it once more): selected again.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &LocksPane::reselectChosen);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &LocksPane::reselectChosen);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &LocksPane::reselectChosen);
    connect(monitor, &LockMonitor::modeChanged, this, &LocksPane::updateSummary);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &LocksPane::updateSummary);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &LocksPane::updateSummary);
    auto *watch = new QTimer(this);
    connect(watch, &QTimer::timeout, this, &LocksPane::updateWatched);
    watch->start(1000);
    updateSummary();
}

void LocksPane::fitColumns()
{
    // Measured over the first rows only (the header's precision): a million rows are not all measured.
    m_view->horizontalHeader()->setResizeContentsPrecision(200);
    for (const auto &[column, maxWidth] : kFittedColumns) {
        // sizeHintForColumn() is public in QAbstractItemView (QTableView only narrows its access).
        const QAbstractItemView *view = m_view;
        const int wanted = qMax(view->sizeHintForColumn(column), m_view->horizontalHeader()->sectionSizeHint(column));
        // Never narrower than a person made it.
        if (wanted > m_view->columnWidth(column))
            m_view->setColumnWidth(column, qMin(wanted, maxWidth));
    }
    fitOptionalColumns(); // wider columns may leave no room for them
}

void LocksPane::chooseLock(const QByteArray &name)
{
    if (name.isEmpty())
        return;
    setChosen(name);
    const int row = m_model->rowOf(name);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->fromTable(m_model->index(row, 0));
    if (!index.isValid()) {
        // Its row is not in the table yet: nothing else stays highlighted meanwhile, since the actions now act on it.
        const QScopedValueRollback following(m_following, true);
        m_view->selectionModel()->clear();
        return;
    }
    reselectChosen();
    m_view->scrollTo(index);
}

void LocksPane::setChosen(const QByteArray &name)
{
    m_chosen = name;
    m_proxy->filterModel()->setPinned(name);
    emit currentLockChanged(m_chosen);
}

void LocksPane::noteChoice()
{
    const QModelIndex current = m_view->currentIndex();
    // Only a row the person selects (a click, the arrow keys, selectLock()) is a choice. An invalid current is none
    // (the chosen row went: a reset, a filter's new rows), and neither is a current without a selection: a table
    // without a current one takes its first row as current, unselected, when it gets focus back.
    if (m_following || !current.isValid() || !m_view->selectionModel()->isRowSelected(current.row(), {}))
        return;
    const QByteArray name = current.data(LockTableModel::NameRole).toByteArray();
    if (name.isEmpty() || name == m_chosen)
        return;
    setChosen(name);
}

void LocksPane::onRowsLeaving(int first, int last)
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || current.row() < first || current.row() > last)
        return;
    // Nothing is selected in its place: what the person sees selected is what they chose.
    const QScopedValueRollback following(m_following, true);
    m_view->selectionModel()->clear();
}

void LocksPane::reselectChosen()
{
    if (m_chosen.isEmpty())
        return;
    const int row = m_model->rowOf(m_chosen);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->fromTable(m_model->index(row, 0));
    if (!index.isValid() || m_view->selectionModel()->isRowSelected(index.row(), {}))
        return;
    const QScopedValueRollback following(m_following, true);
    m_view->setCurrentIndex(index);
}

void LocksPane::selectLock(const QByteArray &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->fromTable(m_model->index(row, 0));
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
    }
}

void LocksPane::showClient(const QString &clientId)
{
    fillClients();
    int at = m_client->findData(clientId);
    if (at < 0) {
        m_client->addItem(clientId, clientId);
        at = m_client->count() - 1;
    }
    m_client->setCurrentIndex(at);
}

void LocksPane::fillClients()
{
    QHash<QString, int> counts;
    for (int row = 0; row < m_model->rowCount(); ++row)
        for (const QString &id : m_model->index(row, 0).data(LockTableModel::ClientIdsRole).toStringList())
            ++counts[id];
    const QString current = m_client->currentData().toString();
    QSignalBlocker block(m_client);
    m_client->clear();
    m_client->addItem(tr("All clients"), QString());
    QStringList ids = counts.keys();
    std::sort(ids.begin(), ids.end(), [&counts](const QString &a, const QString &b) {
        return counts.value(a) != counts.value(b) ? counts.value(a) > counts.value(b) : a < b;
    });
    for (const QString &id : std::as_const(ids))
        m_client->addItem(tr("%1 (%n lock(s))", nullptr, counts.value(id)).arg(id), id);
    m_client->setCurrentIndex(qMax(0, m_client->findData(current)));
}

void LocksPane::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void LocksPane::repaint()
{
    if (m_proxy->rowCount() > 0)
        m_view->viewport()->update();
}

void LocksPane::setStale(const QDateTime &since)
{
    if (!since.isValid()) {
        if (!m_stale->isHidden()) {
            m_view->setPalette(m_livePalette);
            m_stale->hide();
            updateSummary();
        }
        return;
    }
    if (m_stale->isHidden()) {
        m_livePalette = m_view->palette();
        QPalette grey = m_livePalette;
        grey.setColor(QPalette::Active, QPalette::Text, grey.color(QPalette::Disabled, QPalette::Text));
        grey.setColor(QPalette::Inactive, QPalette::Text, grey.color(QPalette::Disabled, QPalette::Text));
        m_view->setPalette(grey);
    }
    // A server never reached has no rows "as last read", and nothing is being scanned (issue 47).
    m_stale->setText(neverRead()
            ? tr("Not connected since %1: nothing has been read from this server yet.")
                  .arg(QLocale().toString(since.time(), QLocale::LongFormat))
            : tr("Disconnected since %1: the rows below are as last read then, and their TTLs may be over.")
                  .arg(QLocale().toString(since.time(), QLocale::LongFormat)));
    m_stale->show();
    updateSummary();
}

QString LocksPane::updateModeText() const
{
    return m_mode->text();
}

bool LocksPane::isStale() const
{
    return !m_stale->isHidden();
}

QString LocksPane::staleText() const
{
    return isStale() ? m_stale->text() : QString();
}

void LocksPane::updateWatched()
{
    if (!isVisible() || m_proxy->rowCount() == 0)
        return;
    const int first = qMax(0, m_view->rowAt(0));
    int last = m_view->rowAt(m_view->viewport()->height() - 1);
    if (last < 0)
        last = m_proxy->rowCount() - 1;
    QList<QByteArray> names;
    for (int row = first; row <= last && row < first + 500; ++row)
        names << m_proxy->index(row, 0).data(LockTableModel::NameRole).toByteArray();
    m_monitor->setWatched(names);
}

bool LocksPane::neverRead() const
{
    return !m_monitor->isSnapshotComplete() && m_model->rowCount() == 0;
}

void LocksPane::updateSummary()
{
    const QString mode = isStale() && neverRead() ? tr("not connected") : modeText(m_monitor->mode());
    m_mode->setText(mode);
    m_mode->setToolTip(m_monitor->modeReason());
    emit summaryChanged(tr("Locks: %1 · %2").arg(m_model->presentCount()).arg(mode));
}

} // namespace LockScope
