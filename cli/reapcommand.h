#pragma once

#include "commands.h"

#include "reclaim/reappolicy.h"
#include "reclaim/reapreport.h"

#include <optional>

namespace LockScope {
class ReapWatch;
struct ReapRunDone;
} // namespace LockScope

namespace LockScope::Cli {

// reap --policy FILE [--dry-run] [--approve HASH|FILE] [--yes] [--observe MS] [--reason TEXT]: the guarded reaper
// (reclaim/). It watches the locks the policy covers for its longest verdict_for, reports every holder whose rule's
// signals all hold (JSON lines ending in report_sha256), and, once approved (on the terminal, by the report's hash or
// by the dry run's own file, or by --yes where the policy is unattended), re-checks each lock and releases those
// still as reported, one audit record each. Exit 0 when everything approved was released (or nothing was to be), 1
// when something was left alone or failed, 2 for a bad policy or usage, 4 refused.
class ReapCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void reported(const ReapReport &report);
    void run(const ReapReport &approved, const ReapReport &now);
    void print(const ReapReport &report, bool dryRun, const QList<ReapItem> &unapproved = {});

    std::optional<ReapPolicy> m_policy;
    std::optional<ReapApproval> m_approval;
    ReapWatch *m_watch = nullptr;
    bool m_dryRun = false;
};

} // namespace LockScope::Cli
