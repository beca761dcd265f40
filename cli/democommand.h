#pragma once

#include "commands.h"
#include "demo/demoevent.h"

namespace LockScope {
class DemoClients;
class LocalRedisServer;
} // namespace LockScope

namespace LockScope::Cli {

// demo [--locks N] [--clients N]: simulated Redisson clients printing what they do until SIGINT or SIGTERM.
// Without --url (and $LOCKSCOPE_URL) it first starts a private redis-server, and stops it at the end.
class DemoCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    bool startServer();
    void startDemo(int clients, int locks);
    void onEvent(const DemoEvent &event);
    void shutdown(const QString &reason);

    LocalRedisServer *m_server = nullptr;
    DemoClients *m_demo = nullptr;
    bool m_stopping = false;
};

} // namespace LockScope::Cli
