#pragma once

#include "monitor/lockrecord.h"

#include <QList>
#include <QString>

namespace LockScope {

// Something that keeps a lock from being taken, and what fixes it. Judged from what every layout reports (holders,
// TTL, queue, waiters, the monitor's renewal watch), never from the kind: a layout with no queue has no jammed queue.
struct StuckFinding
{
    enum class Reason {
        NeverExpires, // held, with no TTL: if its holder died it is held for ever
        HeldTooLong, // held past the threshold by the same holders
        RenewalsStopped, // a watchdog lock whose renewals stopped: its holder died or hangs
        JammedQueue, // a fair queue whose head's deadline passed with nobody holding: every fair acquire waits
        DeadReaders, // readers whose timeout keys are gone: they block writers until the hash expires
        WaitersWithoutHolder, // waiters on a free lock for a while: a wake-up message was missed
    };
    enum class Fix {
        ForceRelease, // once its holder is known to be gone
        RepairQueue, // remove the dead waiters (lockscope-cli repair-queue)
        WaitForExpiry, // the lease ends by itself; force release only if waiting costs more
        FindHolder, // ask its owner first: it may still be working
        WakeWaiters, // a force release publishes the wake-up message they wait for
    };
    Reason reason = Reason::NeverExpires;
    Fix fix = Fix::ForceRelease;
    // Monotonic ms since when, as far as the evidence goes: a hold's start (the holders' own time where they carry it,
    // else the monitor's first sight), the lease's last setting (its deadline less its lease); -1: unknown.
    qint64 sinceMs = -1;

    static QByteArray reasonId(Reason reason); // "never-expires", "held-too-long", ...
    // The same in the words of lockscope-cli stuck and the metrics' problem label (conventions.md): "queue-jammed"
    // for JammedQueue, "waiters-on-free-lock" for WaitersWithoutHolder, the others as reasonId.
    static QByteArray problemId(Reason reason);
    static QList<Reason> reasons(); // every reason, in declaration order
    static QByteArray fixId(Fix fix); // "force-release", "repair-queue", ...
    static QString reasonText(Reason reason);
    static QString fixText(Fix fix);
};

struct StuckOptions
{
    qint64 heldTooLongMs = 10 * 60 * 1000;
    qint64 waitersGraceMs = 5000; // waiters on a free lock this long are stuck, not between a release and an acquire
};

// The findings for one lock at monotonic nowMs and epoch epochMs. freeWithWaitersSinceMs: when the lock was first
// seen free with waiters (monotonic; -1: it is not).
QList<StuckFinding> findStuck(const LockRecord &record, qint64 nowMs, qint64 epochMs, const StuckOptions &options,
    qint64 freeWithWaitersSinceMs = -1);
// When time alone may add a finding to this lock (monotonic ms), or -1: only a change to the lock can. Without
// holdThreshold, leaves out the moment a hold passes heldTooLongMs (a caller that follows holds in the order they
// began keeps those in a queue of its own).
qint64 nextStuckCheckMs(const LockRecord &record, qint64 nowMs, qint64 epochMs, const StuckOptions &options,
    qint64 freeWithWaitersSinceMs = -1, bool holdThreshold = true);

} // namespace LockScope
