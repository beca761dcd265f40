#pragma once

#include "ops/auditrecord.h"
#include "reclaim/reapreport.h"

#include <QList>
#include <QString>

#include <functional>

namespace LockScope {

class LockClient;

// A reaper's run: what was approved (the report a person saw, or the dry run's file), what the judgement right before
// acting finds (the re-check), and why.
struct ReapRunPlan
{
    ReapReport approved;
    ReapReport now;
    QString reason;
};

struct ReapRunDone
{
    // The approved items, each with how it ended: released (and verified: gone, or a new owner), left alone because
    // it changed since the report (and how), or failed. Its hash stays the approved report's.
    ReapReport result;
    QList<ReapItem> unapproved; // what the re-check found to release that nobody approved: left alone
    QList<AuditRecord> records; // one per lock a release was sent for
    RedisError error; // refused before anything was sent (read-only mode)
    QString summary;
    bool allDone() const; // every approved item released, none failed or left alone
};

namespace Ops {
// Releases each approved item that the re-check still shows as it was approved (same kind, owner and count, every
// signal of its rule holding, within the quota), one after the other, as its library's own release would (every
// level, waking its waiters); anything else is left alone and said why. Each release is verified by a reading after
// it. done runs later in the client's thread. Refused in read-only mode.
void reap(
    LockClient *client, const QString &url, const ReapRunPlan &plan, std::function<void(const ReapRunDone &)> done);
} // namespace Ops

} // namespace LockScope
