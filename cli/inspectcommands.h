#pragma once

#include "commands.h"
#include "kinds/lockclassifier.h"

namespace LockScope::Cli {

// list [--pattern GLOB]: one snapshot of every lock whose name matches; a table, or a JSON array of locks.
class ListCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;
};

// show NAME: one lock in full (holders, TTL, waiters, queue, readers, evidence, warnings); exit 1 when it is not one.
class ShowCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;
};

// The lock object of conventions.md, plus "evidence" and "warnings".
QJsonObject lockJson(const LockInfo &lock, qint64 nowMs);

} // namespace LockScope::Cli
