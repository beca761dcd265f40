#pragma once

#include "commands.h"
#include "ops/counteraction.h"

namespace LockScope::Cli {

// add-permits NAME [--permits N], release-permit NAME --permit ID, open-latch NAME [--expect-count N] [--yes]: the
// actions on Redisson's semaphores and count-down latches (Ops::counterAction), audited like every other write.
// Opening a latch lets every waiter through at once: it is confirmed on a terminal (refused without --yes
// elsewhere) and guarded by the count shown, or the one given.
class CounterCommand : public Command
{
    Q_OBJECT
public:
    CounterCommand(CounterPlan::Action action, const QCommandLineParser &parser, ConnectionOptions connection,
        QObject *parent = nullptr);
    void start() override;

private:
    void run(const CounterPlan &plan);
    // open-latch without --expect-count: the count now, shown and confirmed, becomes the guard.

    CounterPlan::Action m_action;
};

} // namespace LockScope::Cli
