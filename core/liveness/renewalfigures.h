#pragma once

#include <QtGlobal>

namespace LockScope {

struct LockRecord;

// A hold's renewals as numbers, from the monitor's record at monotonic nowMs: how long ago the lease was last renewed,
// the period observed between renewals, and how many periods the next one is overdue. All derive from deadlines and
// the monotonic clock, so a countdown drawn from them needs no timer of its own.
struct RenewalFigures
{
    qint64 lastRenewedMs = -1; // age of the last renewal; -1: none seen in this hold
    qint64 periodMs = -1; // -1: not observed (fewer than two renewal moments known)
    // Periods overdue past the expected renewal: 0 on time, 1 one whole period late, graded in tenths; -1 unknown
    // (no period, or nobody renews the lease).
    double missed = -1;
    int transitions = 0; // the lock's owner changes seen while watched

    bool renewing() const { return lastRenewedMs >= 0 && periodMs > 0 && missed >= 0 && missed < 1; }
    bool stopped() const { return missed >= 1; }
};

RenewalFigures renewalFigures(const LockRecord &record, qint64 nowMs);

} // namespace LockScope
