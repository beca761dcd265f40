#pragma once

#include "ops/auditrecord.h"
#include "redis/connectionoptions.h"

#include <QObject>

#include <functional>

namespace LockScope {

struct KeyspaceEventsDone
{
    RedisError error; // refused (read-only mode), or the first node's refusal (CONFIG denied, ...)
    // enable-keyspace-events, url, outcome done. Only a change is audited: refused in read-only mode (nothing sent) or
    // by the server (CONFIG denied: nothing changed), there is no record.
    AuditRecord record;
    bool audited = false;
};

namespace Ops {
// Switches on the keyspace notifications the monitor needs (K with h, $, z, g and x, keeping whatever else is set) on
// every master of the server connection names: the one write a monitor's user may ask for, explicitly, never the
// monitor itself (docs/design.md#the-write-path). url: the server as the front-end shows it, for the record. done runs
// later in context's thread.
void enableKeyspaceEvents(const ConnectionOptions &connection, const QString &url, QObject *context,
    std::function<void(const KeyspaceEventsDone &)> done);
} // namespace Ops

} // namespace LockScope
