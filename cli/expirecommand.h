#pragma once

#include "commands.h"

namespace LockScope {
struct ExpirePlan;
}

namespace LockScope::Cli {

// expire NAME --lease MS [--expect-owner UUID:TID] [--yes] [--reason TEXT]: a lease for a lock that has none, or a
// longer one for a holder that overruns; guarded by the holders shown (or the owner named), never shortening.
class ExpireCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void expire(const ExpirePlan &plan, const LockNow &shown);
};

} // namespace LockScope::Cli
