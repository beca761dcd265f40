#include "demopane.h"

#include "eventlog.h"
#include "holdsmodel.h"
#include "leasedelegate.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableView>

// The texts keep the context they were translated under when MainWindow built these tabs itself.

namespace LockScope {

DemoPane::DemoPane(QWidget *parent)
    : QTabWidget(parent)
    , m_holds(new HoldsModel(this))
{
    m_holdsView = new QTableView(this);
    m_holdsView->setAccessibleName(QCoreApplication::translate("LockScope::MainWindow", "Demo holds"));
    m_holdsView->setModel(m_holds);
    m_holdsView->setItemDelegateForColumn(HoldsModel::LeaseColumn, new LeaseDelegate(m_holdsView));
    m_holdsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_holdsView->setShowGrid(false);
    m_holdsView->verticalHeader()->hide();
    m_holdsView->horizontalHeader()->setSectionResizeMode(HoldsModel::OwnerColumn, QHeaderView::Stretch);
    m_log = new EventLog(this);
    addTab(m_log, QCoreApplication::translate("LockScope::MainWindow", "What the clients do"));
    addTab(m_holdsView, QCoreApplication::translate("LockScope::MainWindow", "Their holds"));
}

void DemoPane::addEvent(const DemoEvent &event)
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
}

void DemoPane::tick()
{
    if (m_holds->rowCount() > 0)
        m_holdsView->viewport()->update();
}

} // namespace LockScope
