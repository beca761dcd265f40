#pragma once

#include "kinds/forceguard.h"
#include "kinds/locktypes.h"
#include "ops/auditrecord.h"

#include <QByteArray>
#include <QList>

#include <functional>
#include <optional>

namespace LockScope {

class LockClient;

struct LockNow;

// A force release as the person confirmed it, made from the one reading they were shown (ops/inspect.h): what was
// shown becomes the guard (exactly those holders, or the one token of a string lock), unless an owner was named
// instead (lockscope-cli --expect-owner), and the layout that reading found chooses the script, and so whom it wakes.
// Both front-ends build one, audit it and run it here, so a lock that changed hands after it was shown is never
// deleted.
struct ForceReleasePlan
{
    QByteArray name;
    QList<QByteArray> shown; // the holders (or token) on screen when the person confirmed
    QByteArray expectOwner; // named instead of what was shown: only while this owner holds it
    LockMode kind = LockMode::Reentrant; // the script the reading's layout runs
    QString reason; // why, in the person's words: the record's "reason"

    static ForceReleasePlan fromReading(const LockNow &reading, const QByteArray &expectOwner = {});

    ForceGuard guard() const;
    bool guardedByShown() const { return expectOwner.isEmpty(); }
    // The owner named held nothing in the reading: the release stops before anything is sent, with no prompt.
    bool ownerMissing() const { return !guardedByShown() && !shown.contains(expectOwner); }
    // The record's guard fields: "guard" (shown-holders or given) with expect_holders or expect_owner.
    void describe(AuditRecord &record) const;
};

struct ForceReleaseDone
{
    AuditRecord::Outcome outcome = AuditRecord::Outcome::Failed; // Deleted, GuardFailed, AlreadyGone or Failed
    RedisError error;
    QList<QByteArray> holdersNow; // with GuardFailed: who holds it now
    QList<QByteArray> wokeVia; // Deleted: where its library's waiters were woken beyond the layout's channel
    std::optional<LockMode> kind; // the layout whose script ran: what Redis held then (ForceReleaseResult::kind)
    // GuardFailed, or Failed on another type: why what is there now is no lock (read after the refusal, to say so);
    // empty: it is a lock.
    QString noLockNow;
    // The whole audit record (ops/forcereleaserecord.h) and the sentence both front-ends print: a front-end appends
    // the one with its writer and shows the other, adding nothing to either.
    AuditRecord record;
    QString summary;
};

// What the person was shown before confirming: the holders with their counts (the record's holders_before) and the
// listeners on its release channel (-1: not read), so the summary says whom the delete woke.
struct ForceReleaseShown
{
    QList<LockHolder> holders;
    int waiters = -1;
};

namespace Ops {
// Runs the plan, reading nothing more: the script of the layout the reading found, under the plan's guard, checked in
// the script that deletes. An owner named that the reading did not show holding it stops it before anything is sent
// (GuardFailed, audited as the guard that stopped it). url: the server as the front-end shows it (never with a
// password), for the record. done runs later in the client's thread.
void forceRelease(LockClient *client, const QString &url, const ForceReleasePlan &plan, const ForceReleaseShown &shown,
    std::function<void(const ForceReleaseDone &)> done);
// The sentence for an answer (its outcome, holders now, kind and whom it woke).
QString forceReleaseSummary(const ForceReleasePlan &plan, const ForceReleaseShown &shown, const ForceReleaseDone &done);
} // namespace Ops

} // namespace LockScope
