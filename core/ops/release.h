#pragma once

#include "kinds/locktypes.h"
#include "ops/auditrecord.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;

// One level of an owner's hold given back, as both front-ends do it: the script (and so whom it wakes) is the one the
// lock's layout needs as Redis holds it now, and the answer comes in the audit log's words.
struct ReleaseDone
{
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed; // Released, StillHeld, NotHeld or Failed
    RedisError error;
    QString message; // NotHeld: who holds it now where the answer says, else as Redisson's own unlock words it
    QByteArray holderNow; // NotHeld, where the answer names the holder now (a string lock's token)
    LockKind kind = LockKind::Reentrant; // the release that ran
    qint64 levelsLeft = 0; // StillHeld: the owner's count now
    qint64 ttlMs = -2; // StillHeld: the lease left (-2: the lock is gone)
    QList<QByteArray> wokeVia; // Released: where its library's waiters were woken beyond the layout's channel
};

namespace Ops {
// done runs later in the client's thread.
void release(
    LockClient *client, const QByteArray &name, const QByteArray &owner, std::function<void(const ReleaseDone &)> done);
} // namespace Ops

} // namespace LockScope
