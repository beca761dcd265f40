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
    // The action's reading (inspectCounter) already judged the name: it is not read again before the script, whose
    // guards (an integer string still there, the count shown) keep to what it showed.
    bool judged = false;

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
    // The whole audit record (the action, url, name, client_id, the plan's own fields, count_now, the outcome) and the
    // sentence both front-ends print; a front-end appends the one with its writer and shows the other.
    AuditRecord record;
    QString summary;
};

// A counter as Redis holds it now, for a person about to act on it (open-latch's prompt shows its count, which then
// guards the action).
struct CounterNow
{
    RedisError error; // the read failed, or what is there is not what the action applies to (the reason show gives)
    bool exists = false;
    QByteArray value; // the count
};

namespace Ops {
// The action's one reading: refuses, as the action would, what the action does not apply to, with the count it found.
// done runs later.
void inspectCounter(LockClient *client, const CounterPlan &plan, std::function<void(const CounterNow &)> done);
// Runs the plan through the client (its read-only check, its publish command); url: the server as the front-end
// shows it (never with a password), for the record. done runs later in the client's thread.
void counterAction(
    LockClient *client, const QString &url, const CounterPlan &plan, std::function<void(const CounterDone &)> done);
// The sentence for an answer.
QString counterSummary(const CounterPlan &plan, const CounterDone &done);
} // namespace Ops

} // namespace LockScope
