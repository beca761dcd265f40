#pragma once

#include "commands.h"
#include "kinds/forceguard.h"
#include "kinds/locktypes.h"
#include "ops/forcerelease.h"

namespace LockScope::Cli {

// release NAME --owner UUID:TID: one level, on behalf of that owner, exactly as its own unlock would.
class ReleaseCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

protected:
    bool warnsOnLowConfidence() const override { return true; }

private:
    void releaseAs(LockClient *client, const QByteArray &name, const QByteArray &owner);
};

// force-release NAME [--expect-owner UUID:TID] [--yes]: delete the lock and wake its waiters; confirmed on a
// terminal, refused without --yes elsewhere, and audited either way.
class ForceReleaseCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

protected:
    bool warnsOnLowConfidence() const override { return true; }

private:
    void showAndForceRelease(LockClient *client, const QByteArray &name, const QByteArray &expectOwner, bool confirmed);
    void forceRelease(const ForceReleasePlan &plan, const QJsonArray &before);
    // A string lock (stringforcerelease.cpp): deleted only while it holds the token shown, or --expect-owner's.
    void forceReleaseString(const QByteArray &name, const QByteArray &expectToken, bool confirmed);
};

} // namespace LockScope::Cli
