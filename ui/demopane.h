#pragma once

#include "demo/demoevent.h"

#include <QSet>
#include <QTabWidget>

class QTableView;

namespace LockScope {

class EventLog;
class HoldsModel;

// In demo mode, what the simulated clients do: their events as they happen, and the holds those make, as the clients
// themselves tell it (the locks pane shows what the monitor reads from Redis). Its texts keep the translation context
// of MainWindow, which built these tabs itself before.
class DemoPane : public QTabWidget
{
    Q_OBJECT
public:
    explicit DemoPane(QWidget *parent = nullptr);

    HoldsModel *holdsModel() const { return m_holds; }
    EventLog *eventLog() const { return m_log; }
    void addEvent(const DemoEvent &event);
    // The clients waiting for a lock now.
    int waitingCount() const { return int(m_waitingClients.size()); }
    // On the window's repaint clock: the holds' lease bars count down.
    void tick();

private:
    HoldsModel *m_holds;
    QTableView *m_holdsView;
    EventLog *m_log;
    QSet<int> m_waitingClients;
};

} // namespace LockScope
