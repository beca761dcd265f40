#include "lockspane.h"

#include "lockmonitor.h"
#include "locktablemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

namespace {
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
} // namespace

LocksPane::LocksPane(LockMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_model(new LockTableModel(monitor, this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(LockTableModel::SortRole);
    m_proxy->setFilterKeyColumn(LockTableModel::Name);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name (glob, e.g. orders:*)"));
    m_filter->setClearButtonEnabled(true);
    m_mode = new QLabel(this);
    m_mode->setStyleSheet(QStringLiteral("QLabel { color: #5f6368; }"));
    top->addWidget(m_filter, 1);
    top->addWidget(m_mode);
    layout->addLayout(top);

    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(LockTableModel::Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(LockTableModel::Warnings, QHeaderView::Stretch);
    m_view->setColumnWidth(LockTableModel::Name, 200);
    m_view->setColumnWidth(LockTableModel::Holders, 180);
    layout->addWidget(m_view);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterRegularExpression(QRegularExpression(
            QRegularExpression::wildcardToRegularExpression(text.isEmpty() ? QStringLiteral("*") : text)));
    });
    connect(monitor, &LockMonitor::modeChanged, this, [this] { updateSummary(); });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &LocksPane::updateSummary);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &LocksPane::updateSummary);
    updateSummary();
}

void LocksPane::repaint()
{
    if (m_proxy->rowCount() > 0)
        m_view->viewport()->update();
}

void LocksPane::updateSummary()
{
    const QString reason = m_monitor->modeReason();
    m_mode->setText(modeText(m_monitor->mode()));
    m_mode->setToolTip(reason);
    emit summaryChanged(tr("Locks: %1 · %2").arg(m_model->rowCount()).arg(modeText(m_monitor->mode())));
}

} // namespace LockScope
