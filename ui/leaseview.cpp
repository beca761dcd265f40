#include "leaseview.h"

#include "base/taskrelay.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"
#include "replay/leaseadvicemodel.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

namespace {
QTableView *table(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}
} // namespace

LeaseView::LeaseView(QString recordingPath, QWidget *parent)
    : QDialog(parent)
    , m_path(std::move(recordingPath))
    , m_window(new QComboBox(this))
    , m_refresh(new QPushButton(tr("&Refresh"), this))
    , m_locks(new LeaseAdviceModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_clients(new LeaseClientsModel(this))
    , m_verdicts(new QLabel(this))
    , m_status(new QLabel(this))
    , m_relay(new TaskRelay(this))
{
    setWindowTitle(tr("Lease advice"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *windowLabel = new QLabel(tr("&Holds of:"), this);
    windowLabel->setBuddy(m_window);
    m_window->addItem(tr("the last 15 minutes"), qint64(15 * 60 * 1000));
    m_window->addItem(tr("the last hour"), qint64(3600 * 1000));
    m_window->addItem(tr("all of the recording"), qint64(-1));
    m_window->setCurrentIndex(1);
    top->addWidget(windowLabel);
    top->addWidget(m_window);
    top->addStretch(1);
    layout->addLayout(top);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_sorted->setSourceModel(m_locks);
    m_sorted->setSortRole(LeaseAdviceModel::SortRole);
    m_locksView = table(m_sorted, split);
    m_locksView->setSortingEnabled(true);
    m_locksView->sortByColumn(LeaseAdviceModel::Verdicts, Qt::DescendingOrder);
    m_locksView->setColumnWidth(LeaseAdviceModel::Name, 260);
    split->addWidget(m_locksView);
    auto *detail = new QWidget(split);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    m_verdicts->setWordWrap(true);
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detailLayout->addWidget(m_verdicts);
    m_clientsView = table(m_clients, detail);
    m_clientsView->setColumnWidth(LeaseClientsModel::Client, 300);
    detailLayout->addWidget(m_clientsView);
    split->addWidget(detail);
    layout->addWidget(split, 1);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_refresh, QDialogButtonBox::ActionRole);
    m_refresh->setDefault(true); // it only reads
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_refresh, &QPushButton::clicked, this, &LeaseView::refresh);
    connect(m_window, &QComboBox::currentIndexChanged, this, &LeaseView::refresh);
    connect(m_locksView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LeaseView::onLockSelected);
    layout->addWidget(buttons);
    resize(1000, 600);
    refresh();
}

LeaseView::~LeaseView()
{
    if (m_worker.joinable())
        m_worker.join(); // the advisor reads an hour of events in well under a second (bench_recording)
}

void LeaseView::refresh()
{
    if (m_worker.joinable()) {
        m_refreshPending = true; // one reading at a time: the window chosen meanwhile is read next
        return;
    }
    m_refreshPending = false;
    if (!QFile::exists(m_path)) {
        showAdvice({}, tr("There is no recording yet (%1): turn on File › Record the last hour.").arg(m_path));
        return;
    }
    m_refresh->setEnabled(false);
    m_status->setText(tr("Reading the recording…"));
    const qint64 windowMs = m_window->currentData().toLongLong();
    m_worker = std::thread([this, windowMs, path = m_path] {
        RecordingStore store;
        QString error;
        LeaseAdvice advice;
        if (store.open(path, false, &error)) {
            const qint64 last = store.lastTimeMs();
            const qint64 since = windowMs > 0 && last >= 0 ? last - windowMs : -1;
            LeaseAdvice::advise(store, QByteArray("*"), since, -1, &advice, &error);
        }
        m_relay->post([this, advice, error] {
            m_worker.join();
            if (m_refreshPending)
                refresh(); // what is shown would not be the window chosen
            else
                showAdvice(advice, error);
        });
    });
}

void LeaseView::showAdvice(const LeaseAdvice &advice, const QString &error)
{
    m_refresh->setEnabled(true);
    const QByteArray selected = m_locksView->currentIndex().data(LeaseAdviceModel::NameRole).toByteArray();
    m_locks->setAdvice(advice);
    m_clients->setClients({});
    m_verdicts->clear();
    int flagged = 0;
    for (const LeaseAdvice::Lock &l : advice.locks)
        flagged += l.verdicts.isEmpty() ? 0 : 1;
    if (!error.isEmpty())
        m_status->setText(error);
    else if (advice.locks.isEmpty())
        m_status->setText(tr("No holds recorded in that window."));
    else
        m_status->setText(tr("%n lock(s) held", nullptr, int(advice.locks.size())) + QLatin1String(", ")
            + tr("%n with advice", nullptr, flagged) + QLatin1String(" — ")
            + tr("from %1 to %2, from the console's recording %3")
                  .arg(QDateTime::fromMSecsSinceEpoch(advice.fromMs).toString(QStringLiteral("HH:mm:ss")),
                      QDateTime::fromMSecsSinceEpoch(advice.untilMs).toString(QStringLiteral("HH:mm:ss")), m_path));
    // The lock looked at before the refresh, looked at again.
    for (int r = 0; r < m_sorted->rowCount() && !selected.isEmpty(); ++r)
        if (m_sorted->index(r, 0).data(LeaseAdviceModel::NameRole).toByteArray() == selected)
            m_locksView->selectRow(r);
    emit advised();
}

void LeaseView::onLockSelected()
{
    const QModelIndexList rows = m_locksView->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        m_clients->setClients({});
        m_verdicts->clear();
        return;
    }
    const QByteArray name = rows.first().data(LeaseAdviceModel::NameRole).toByteArray();
    for (const LeaseAdvice::Lock &l : m_locks->advice().locks) {
        if (l.name != name)
            continue;
        m_clients->setClients(l.clients);
        QStringList lines;
        for (const LeaseAdvice::Verdict &v : l.verdicts)
            lines << v.text;
        m_verdicts->setText(lines.isEmpty() ? tr("%1: nothing to change.").arg(escapeBytes(name))
                                            : tr("%1: %2").arg(escapeBytes(name), lines.join(QStringLiteral("; "))));
    }
}

} // namespace LockScope
