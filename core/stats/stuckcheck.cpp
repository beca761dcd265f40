#include "stats/stuckcheck.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

QByteArray StuckFinding::reasonId(Reason reason)
{
    switch (reason) {
    case Reason::NeverExpires:
        return "never-expires";
    case Reason::HeldTooLong:
        return "held-too-long";
    case Reason::RenewalsStopped:
        return "renewals-stopped";
    case Reason::JammedQueue:
        return "jammed-queue";
    case Reason::DeadReaders:
        return "dead-readers";
    case Reason::WaitersWithoutHolder:
        return "waiters-without-holder";
    }
    return {};
}

QByteArray StuckFinding::problemId(Reason reason)
{
    switch (reason) {
    case Reason::JammedQueue:
        return "queue-jammed";
    case Reason::WaitersWithoutHolder:
        return "waiters-on-free-lock";
    default:
        return reasonId(reason);
    }
}

QList<StuckFinding::Reason> StuckFinding::reasons()
{
    return { Reason::NeverExpires, Reason::HeldTooLong, Reason::RenewalsStopped, Reason::JammedQueue,
        Reason::DeadReaders, Reason::WaitersWithoutHolder };
}

QByteArray StuckFinding::fixId(Fix fix)
{
    switch (fix) {
    case Fix::ForceRelease:
        return "force-release";
    case Fix::RepairQueue:
        return "repair-queue";
    case Fix::WaitForExpiry:
        return "wait-for-expiry";
    case Fix::FindHolder:
        return "find-holder";
    case Fix::WakeWaiters:
        return "wake-waiters";
    }
    return {};
}

QString StuckFinding::reasonText(Reason reason)
{
    switch (reason) {
    case Reason::NeverExpires:
        return QCoreApplication::translate("LockScope::StuckFinding", "held with no TTL: it never expires");
    case Reason::HeldTooLong:
        return QCoreApplication::translate("LockScope::StuckFinding", "held longer than the threshold");
    case Reason::RenewalsStopped:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "its watchdog stopped renewing: the holder died or hangs");
    case Reason::JammedQueue:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "the fair queue is jammed: its head's deadline passed and nobody holds it");
    case Reason::DeadReaders:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "dead readers (their timeout keys are gone) keep writers out");
    case Reason::WaitersWithoutHolder:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "waiters on a free lock: a wake-up message was missed");
    }
    return {};
}

QString StuckFinding::fixText(Fix fix)
{
    switch (fix) {
    case Fix::ForceRelease:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "force release it once you know its holder is gone");
    case Fix::RepairQueue:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "remove the dead waiters: lockscope-cli repair-queue NAME");
    case Fix::WaitForExpiry:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "its lease runs out by itself; force release only if waiting costs more");
    case Fix::FindHolder:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "ask its holder first: it may still be working; then force release");
    case Fix::WakeWaiters:
        return QCoreApplication::translate(
            "LockScope::StuckFinding", "force release publishes the wake-up message the waiters sleep through");
    }
    return {};
}

namespace {
bool queueJammed(const LockInfo &info, qint64 epochMs)
{
    return !info.queue.isEmpty() && info.holders.isEmpty() && info.queue.first().second >= 0
        && info.queue.first().second <= epochMs;
}

int waitersOf(const LockInfo &info)
{
    return qMax(qMax(info.waiters, 0), int(info.queue.size()));
}
} // namespace

// When the current hold began, as far as the evidence goes (monotonic ms): the monitor's first sight of its holders, or
// earlier where a holder carries its own time (ShedLock's lockedAt, a version 1 UUID's): "For" is then the hold's
// age, not how long the console has watched it (issue 47).
qint64 heldSinceMs(const LockRecord &record, qint64 nowMs, qint64 epochMs)
{
    qint64 since = record.holdSinceMs;
    for (const LockHolder &h : record.info.holders)
        if (h.sinceMs > 0 && h.sinceMs <= epochMs)
            since = since > 0 ? qMin(since, nowMs - (epochMs - h.sinceMs)) : nowMs - (epochMs - h.sinceMs);
    return since;
}

// When its lease was last set (renewed, or taken), as its TTL tells: the deadline less the lease. The last renewal
// the monitor saw otherwise (-1: none).
qint64 leaseSetMs(const LockRecord &record)
{
    if (record.deadlineMs >= 0 && record.leaseMs > 0)
        return record.lastRenewalMs < 0 ? record.deadlineMs - record.leaseMs
                                        : qMax(record.lastRenewalMs, record.deadlineMs - record.leaseMs);
    return record.lastRenewalMs;
}

QList<StuckFinding> findStuck(
    const LockRecord &record, qint64 nowMs, qint64 epochMs, const StuckOptions &options, qint64 freeWithWaitersSinceMs)
{
    QList<StuckFinding> found;
    if (!record.present)
        return found;
    const LockInfo &info = record.info;
    const bool held = !info.holders.isEmpty();
    using R = StuckFinding::Reason;
    using F = StuckFinding::Fix;
    const qint64 heldSince = heldSinceMs(record, nowMs, epochMs);
    if (held && info.ttlMs == -1)
        found.append({ R::NeverExpires, F::ForceRelease, heldSince });
    if (held && heldSince > 0 && nowMs - heldSince >= options.heldTooLongMs)
        found.append({ R::HeldTooLong, F::FindHolder, heldSince });
    if (held && !record.renewalWarning.isEmpty())
        found.append({ R::RenewalsStopped, F::WaitForExpiry, leaseSetMs(record) });
    if (queueJammed(info, epochMs))
        found.append({ R::JammedQueue, F::RepairQueue, -1 });
    if (std::any_of(info.holders.cbegin(), info.holders.cend(), [](const LockHolder &h) { return h.deadReader; }))
        found.append({ R::DeadReaders, F::ForceRelease, -1 });
    // A queue explains its own waiters: a free lock with a live head is about to be taken, a dead head is a jam.
    if (!held && info.queue.isEmpty() && waitersOf(info) > 0 && freeWithWaitersSinceMs >= 0
        && nowMs - freeWithWaitersSinceMs >= options.waitersGraceMs)
        found.append({ R::WaitersWithoutHolder, F::WakeWaiters, freeWithWaitersSinceMs });
    return found;
}

qint64 nextStuckCheckMs(const LockRecord &record, qint64 nowMs, qint64 epochMs, const StuckOptions &options,
    qint64 freeWithWaitersSinceMs, bool holdThreshold)
{
    if (!record.present)
        return -1;
    const LockInfo &info = record.info;
    qint64 next = -1;
    const auto consider = [&next, nowMs](qint64 at) {
        if (at > nowMs)
            next = next < 0 ? at : qMin(next, at);
    };
    if (holdThreshold && !info.holders.isEmpty() && heldSinceMs(record, nowMs, epochMs) > 0)
        consider(heldSinceMs(record, nowMs, epochMs) + options.heldTooLongMs);
    if (!info.queue.isEmpty() && info.holders.isEmpty() && info.queue.first().second > epochMs)
        consider(nowMs + (info.queue.first().second - epochMs));
    if (info.holders.isEmpty() && info.queue.isEmpty() && waitersOf(info) > 0 && freeWithWaitersSinceMs >= 0)
        consider(freeWithWaitersSinceMs + options.waitersGraceMs);
    return next;
}

} // namespace LockScope
