#pragma once

#include "ops/auditrecord.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;

// One action on a Redisson semaphore or count-down latch (docs/protocol/semaphores.md#actions), as both front-ends
// ask for it: the script that runs is the one Redisson's own call would run, it acts only while the name still holds
// an integer string, and "open" only while the latch still holds the count the person saw.
struct CounterPlan
{
    enum class Action {
        AddPermits, // a semaphore's (plain or expirable): permits more are free, its waiters told
        ReleasePermit, // an expirable semaphore's permit permitId: given back as its holder's release would
        Open, // a count-down latch: deleted and "0" published, every waiter goes on
    };
    Action action = Action::AddPermits;
    QByteArray name;
    qint64 permits = 1; // AddPermits
    QByteArray permitId; // ReleasePermit
    QByteArray countShown; // Open: the count the person saw, the guard (empty: none)

    QString actionName() const; // the audit record's action: "add-permits", "release-permit", "open-latch"
    // The record's own fields: permits, permit, expect_count.
    void describe(AuditRecord &record) const;
};

struct CounterDone
{
    // Done (permits added), Released / NotHeld (a permit), Deleted / GuardFailed / AlreadyGone (open), Failed.
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed;
    RedisError error; // Failed: why (read-only, nothing there for add-permits, not a counter, the server's error)
    QByteArray value; // the count now (add-permits, release-permit, a failed guard) or the count it had (open)
    QByteArray channel; // where the waiters were told
};

namespace Ops {
// Runs the plan through the client (its read-only check, its publish command); done runs later in its thread.
void counterAction(LockClient *client, const CounterPlan &plan, std::function<void(const CounterDone &)> done);
} // namespace Ops

} // namespace LockScope
