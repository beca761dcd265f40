#pragma once

#include "kinds/locktypes.h"
#include "ops/auditrecord.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;
struct LockNow;

// One level of an owner's hold given back, as both front-ends do it: the script (and so whom it wakes) is the one the
// lock's layout needs as the action's one reading found it (ops/inspect.h), and the answer comes in the audit log's
// words, with the whole audit record and the sentence that says what happened. A front-end appends the record with its
// writer and prints the summary; it adds nothing to either.
struct ReleaseDone
{
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed; // Released, StillHeld, NotHeld or Failed
    RedisError error;
    QString message; // NotHeld: who holds it now where the answer says, else as Redisson's own unlock words it
    QByteArray holderNow; // NotHeld, where the answer names the holder now (a string lock's token)
    LockMode kind = LockMode::Reentrant; // the release that ran
    qint64 levelsLeft = 0; // StillHeld: the owner's count now
    qint64 ttlMs = -2; // StillHeld: the lease left (-2: the lock is gone)
    QList<QByteArray> wokeVia; // Released: where its library's waiters were woken beyond the layout's channel
    int listeners = -1; // the connections on its release channel just before (LockNow::listeners): whom it woke
    // release, url, name, client_id, owner, holders_before (read just before, with counts), kind (a token
    // holder's layout), outcome and result.
    AuditRecord record;
    QString summary; // "released orders:42 for <owner>; waiters woken"; NotHeld: message; Failed: the error
};

// Several levels of one hold given back as one action (the console's "release all levels", a client's holds on close):
// one reading, then the owner's release script until the hold is free or levels are given back. Each level is its own
// audit record, as each is a write of its own.
struct ReleaseLevelsDone
{
    QList<ReleaseDone> levels; // in order; the last says how it ended
    const ReleaseDone &last() const { return levels.last(); }
};

namespace Ops {
// url: the server as the front-end shows it (never with a password), for the record. done runs later in the client's
// thread.
void release(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner,
    std::function<void(const ReleaseDone &)> done);
// levels < 0: until the server says it is free (a hold whose count was never read).
void releaseLevels(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner, int levels,
    std::function<void(const ReleaseLevelsDone &)> done);
// The same on a reading the front-end made (Ops::inspect with LockAction::Release) and showed: it is the one reading.
void releaseLevels(LockClient *client, const QString &url, const LockNow &reading, const QByteArray &owner, int levels,
    std::function<void(const ReleaseLevelsDone &)> done);
} // namespace Ops

} // namespace LockScope
