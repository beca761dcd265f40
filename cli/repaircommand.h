#pragma once

#include "commands.h"
#include "kinds/locktypes.h"

namespace LockScope::Cli {

// repair-queue NAME [--dry-run] [--yes] [--recheck MS]: list a fair lock's waiters, and remove those that are dead
// (deadline passed, or nobody listening on their wake-up channel in two looks MS apart) as if they had given up;
// the new head is woken.
class RepairQueueCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void report(const FairQueueReport &r, bool dryRun);
    void repair(LockClient *client, int recheckMs);
};

} // namespace LockScope::Cli
