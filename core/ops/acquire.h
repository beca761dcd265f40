#pragma once

#include "kinds/locktypes.h"
#include "ops/auditrecord.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;

// A lock taken by a person at the console (or any front-end that audits it): one reading first, so that what is no
// lock at all (an application's hash) is refused before any script runs and its holders are recorded as they were,
// then the client's acquire.
struct AcquireDone
{
    AcquireResult result;
    // Refused by the reading (what is there is no lock, a bad name, read-only mode): nothing was written and there is
    // no record; the refusal is result.error.
    bool refused = false;
    // acquire, url, name, client_id, holders_before (the reading's), kind (a token holder's layout), outcome (acquired
    // or busy; a cancelled wait is busy) and result.
    AuditRecord record;
};

namespace Ops {
// done runs later in the client's thread; a waiting acquire ends when the client's does (LockClient::cancelAcquire).
// sending, when given, runs once the reading let the acquire go, just before it is sent: from then on a wait can be
// cancelled (the console shows its wait from there).
void acquire(LockClient *client, const QString &url, const AcquireRequest &request,
    std::function<void(const AcquireDone &)> done, std::function<void()> sending = {});
// The record of switching the renewal of a hold of ours on or off (watchdog-on, watchdog-off); false when there is no
// such hold of this client's to switch (nothing changed, no record).
bool setWatchdog(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner, bool on,
    AuditRecord *record);
} // namespace Ops

} // namespace LockScope
