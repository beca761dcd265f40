#pragma once

#include "commands.h"

namespace LockScope {
class TraceSession;
struct TraceFindings;
} // namespace LockScope

namespace LockScope::Cli {

// trace [--seconds N] [--json]: MONITOR on every master (or the one server) for N seconds (default 10, at most 300),
// then who sent which owner id and token, who only retries, every connection, and what the trace cost the server.
// Once MONITOR runs everywhere, one line on standard error, whatever the output mode:
//   tracing HOST:PORT for N s: MONITOR copies every command this server runs to LockScope while it runs
// (a cluster: "tracing M servers (HOST:PORT, ...) for N s: ..."): scripts and tests wait for "tracing " before they
// start what they want traced. It stops by itself; SIGINT or SIGTERM ends it early and still prints. The findings are
// kept (TraceStore) for the commands that name holders. Refused without the monitor right: exit 4, the right named.
class TraceCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void print(const TraceFindings &findings);
    QJsonObject json(const TraceFindings &findings) const;
    QString text(const TraceFindings &findings) const;

    TraceSession *m_session = nullptr;
    int m_seconds = 10;
};

} // namespace LockScope::Cli
