#pragma once

#include "kinds/locktypes.h"
#include "ops/auditrecord.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;

// A repair as both front-ends audit it: the report, and its record (repair-queue, url, name, client_id, removed: the
// owners taken out of the queue, the outcome or the error). A repair that found nothing dead wrote nothing and has no
// record (audited false).
struct RepairQueueDone
{
    FairQueueReport report;
    AuditRecord record;
    bool audited = false;
};

// Fair-queue inspection and repair (docs/protocol/fair.md#queue-repair): what support staff use on a jammed fair
// lock, through the client's checks and publish mode. done runs later in the client's thread.
namespace Ops {
// The fair queue of name, each waiter checked for a passed deadline and for listeners on its channel in both pub/sub
// namespaces; a waiter nobody listened for is read again recheckMs later (< 0: the client's fairListenerRecheckMs)
// and is silent only if still nobody listens.
void inspectFairQueue(
    LockClient *client, const QByteArray &name, std::function<void(const FairQueueReport &)> done, int recheckMs = -1);
// Removes the orphaned (stale or silent) waiters found by a fresh inspection (give-up semantics) and wakes the new
// head; with dryRun it only reports what it would remove. Refused in read-only mode (a dry run is not) and, a dry run
// included, where the client's checkTarget refuses LockAction::RepairQueue.
void repairFairQueue(LockClient *client, const QByteArray &name, bool dryRun,
    std::function<void(const FairQueueReport &)> done, int recheckMs = -1);

// repairFairQueue() (not a dry run), with its record. url: the server as the front-end shows it.
void repairQueue(LockClient *client, const QString &url, const QByteArray &name,
    std::function<void(const RepairQueueDone &)> done, int recheckMs = -1);
} // namespace Ops

} // namespace LockScope
