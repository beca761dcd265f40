#include "eventspane.h"

#include "models/locktimelinemodel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

EventsPane::EventsPane(LockMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_model(new LockTimelineModel(monitor, 5000, this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1); // any column
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter events (lock, owner, event, detail)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Event filter"));
    layout->addWidget(m_filter);
    m_view = new QTableView(this);
    m_view->setAccessibleName(tr("Events"));
    m_view->setModel(m_proxy);
    m_view->verticalHeader()->hide();
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(LockTimelineModel::Lock, 180);
    m_view->setColumnWidth(LockTimelineModel::Owner, 260);
    layout->addWidget(m_view);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, m_view, [this] {
        if (m_filter->text().isEmpty())
            m_view->scrollToBottom();
    });
}

} // namespace LockScope
