#pragma once

#include "commands.h"
#include "kinds/forceguard.h"
#include "kinds/locktypes.h"
#include "ops/forcerelease.h"
#include "ops/inspect.h"
#include "ops/release.h"

namespace LockScope::Cli {

// release NAME --owner UUID:TID: one level, on behalf of that owner, exactly as its own unlock would.
class ReleaseCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void released(const ReleaseDone &r, const QByteArray &owner);
};

// force-release NAME [--expect-owner UUID:TID] [--yes]: delete the lock and wake its waiters (a string lock: its
// token is the holder); confirmed on a terminal, refused without --yes elsewhere, and audited either way.
class ForceReleaseCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void forceRelease(const ForceReleasePlan &plan, const LockNow &shown);
};

} // namespace LockScope::Cli
