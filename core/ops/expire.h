#pragma once

#include "ops/auditrecord.h"
#include "ops/forcerelease.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace LockScope {

class LockClient;
struct LockNow;

// Gentler than a delete: a lease for a lock that has none (its holder died without one, or a library that sets none,
// python-redis-lock without expire, ShedLock's lockAtMostFor unset), or one longer lease for a healthy holder that
// overruns. Made from the reading the person was shown, under the same guard a force release keeps to (exactly those
// holders, or the owner named, and the kind); never shortens the lease a lock has (docs/cli.md#expire).
struct ExpirePlan
{
    ForceReleasePlan target; // the lock, its holders shown (or the owner named) and its layout: the guard
    qint64 leaseMs = 0;
    qint64 ttlShown = -2; // the lease the reading found (-1: none)

    static ExpirePlan fromReading(const LockNow &reading, qint64 leaseMs, const QByteArray &expectOwner = {});
    // Refused before anything is sent: the layout keeps no single lease, or the lock already has at least leaseMs
    // left (nothing to give). Empty: the plan may run.
    RedisError refusal() const;
};

struct ExpireDone
{
    // Done (the lease set), GuardFailed (holders or kind not what was shown, or a longer lease came meanwhile),
    // AlreadyGone, Failed.
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed;
    RedisError error;
    QList<QByteArray> holdersNow; // GuardFailed: who holds it now
    // expire, url, name, client_id, holders_before, guard, expect_holders / expect_owner, lease_ms, ttl_before, kind
    // (a token holder's layout), holders_now (a failed guard), the outcome or the error.
    AuditRecord record;
    QString summary;
};

namespace Ops {
// Runs the plan, reading nothing more (the script checks the guard and the lease it finds); url: the server as the
// front-end shows it. Refused in read-only mode. done runs later in the client's thread.
void expire(LockClient *client, const QString &url, const ExpirePlan &plan, const QList<LockHolder> &shown,
    std::function<void(const ExpireDone &)> done);
} // namespace Ops

} // namespace LockScope
