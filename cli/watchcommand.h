#pragma once

#include "commands.h"

namespace LockScope {
class LockMonitor;
}

namespace LockScope::Cli {

// watch [--pattern GLOB] [--interval MS] [--enable-keyspace-events]: follows every matching lock live and prints
// one event per line (conventions.md's event objects with --json) until SIGINT or SIGTERM. Status (the update
// mode, errors, warnings that come without an event) goes to standard error in JSON mode.
class WatchCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void startMonitor();
    void status(const QString &text) const;

    LockMonitor *m_monitor = nullptr;
    QHash<QByteArray, QStringList> m_warned; // warnings already printed per lock
};

} // namespace LockScope::Cli
