#pragma once

#include "ops/auditrecord.h"
#include "ops/inspect.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <functional>

namespace LockScope {

class LockClient;

// One thing a client holds or waits for, found by one pass over the locks (Ops::findClientHolds): its hold of a lock
// (every level), a read hold, a token it holds (a string lock, a sorted set's member), or its place in a fair queue.
// The reading of that pass is its guard: the release script of the layout it found, for exactly that owner.
struct ClientItem
{
    enum class What { Hold, ReadHold, Token, QueueEntry };
    What what = What::Hold;
    QByteArray owner; // the field, token or queue member as stored
    qint64 count = 1; // the levels held (a queue entry, a token: 1)
    LockNow reading; // the lock as the pass found it
    // Set by the front-end from its holder watch before it runs the plan: the holder's verdict is alive (renewing,
    // its connection there). Such an item is refused unless the person insists (ClientPlan::insist).
    bool alive = false;
    QString liveness; // the verdict's summary, for the report

    // After the run: how it ended (Released, NotHeld, StillHeld for a hold taken again since, Deleted for a queue
    // entry removed, Failed), and why.
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed;
    RedisError error;

    static QByteArray whatId(What what); // "hold", "read-hold", "token", "queue-entry"
    // What a holder of this reading holds: a token (a string lock's, a sorted set's member), a read hold, or a hold.
    static What holdOf(const LockNow &reading);
    QByteArray name() const { return reading.name; }
};

struct ClientPlan
{
    QByteArray client; // a client UUID (every thread of it) or one owner "UUID:TID"
    QList<ClientItem> items;
    RedisError error; // the pass failed
    QStringList partial; // nodes the pass could not see (their items are not in the plan)
    bool insist = false; // release holders judged alive all the same (lockscope-cli --even-if-alive)
    QString reason;
};

struct ClientDone
{
    ClientPlan plan; // with each item's outcome
    RedisError error; // refused before anything was sent (read-only mode, alive holders without insist)
    // release-client, url, client (the id asked for), items (each with name, what, owner, count, kind where its
    // holders are tokens, outcome, result), outcome (done when every item ended as shown, else failed with the first
    // item's error), reason.
    AuditRecord record;
    QString summary;
};

namespace Ops {
// Whether owner (a hash field, a token, a queue member) belongs to client: the owner itself, its write half
// ("UUID:TID:write"), or for a bare client UUID every "UUID:..." of it.
bool ownedBy(const QByteArray &owner, const QByteArray &client);
// One pass over every lock matching pattern on every master (what list reads): each hold, read hold, token and fair
// queue entry of client. done runs later in the client's thread.
void findClientHolds(LockClient *client, const QByteArray &clientId, const QByteArray &pattern,
    std::function<void(const ClientPlan &)> done);
// One item, as its library's own release would give it back (every level of a hold on its reading, the owner checked
// by the script each time; a queue place given up as its waiter would); done with the item's outcome.
void releaseHold(LockClient *client, const QString &url, ClientItem item, std::function<void(const ClientItem &)> done);
// Releases the plan's items as each library's own release would (every level of a hold, waking its waiters; a queue
// entry given up, its new head told), each only while it is as the plan found it; one audit record for the whole.
// Refused in read-only mode, and while an item's holder is alive unless plan.insist.
void releaseClient(
    LockClient *client, const QString &url, const ClientPlan &plan, std::function<void(const ClientDone &)> done);
} // namespace Ops

} // namespace LockScope
