#include "consolewriteflow.h"

#include "liveness/holderwatch.h"

namespace LockScope {

ConsoleWriteFlow::ConsoleWriteFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
    const QAction *action, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_monitor(monitor)
    , m_window(window)
    , m_connection(std::move(connection))
    , m_action(action)
    , m_audit(window, [this](const QString &text) { emit message(text, true); })
{ }

void ConsoleWriteFlow::setHolderWatch(HolderWatch *watch)
{
    m_watch = watch;
}

} // namespace LockScope
