#pragma once

#include "commands.h"

namespace LockScope {
struct ClientPlan;
}

namespace LockScope::Cli {

// release-client UUID|UUID:TID [--pattern GLOB] [--dry-run] [--yes] [--even-if-alive] [--reason TEXT]: every hold,
// read hold, token and fair-queue place of one client, released as each library would, guarded by what was shown.
class ReleaseClientCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void report(const ClientPlan &plan, bool dryRun, bool ran);
    void run(const ClientPlan &plan);
};

} // namespace LockScope::Cli
