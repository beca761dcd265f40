#pragma once

#include "commands.h"

namespace LockScope {
struct BlockerReport;
struct LockInfo;
class HolderWatch;
class LockScanner;
} // namespace LockScope

namespace LockScope::Cli {

// blockers [--pattern GLOB] [--json]: who waits for whom, root blockers first, each with its liveness verdict and
// what frees it; deadlocks among named waiters. Exit 0 whether or not anything blocks.
class BlockersCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void report(const QList<LockInfo> &found, const HolderWatch *watch, const LockScanner *scanner);
    void print(const BlockerReport &report);
};

} // namespace LockScope::Cli
