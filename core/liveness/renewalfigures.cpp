#include "liveness/renewalfigures.h"

#include "monitor/lockrecord.h"

#include <cmath>

namespace LockScope {

RenewalFigures renewalFigures(const LockRecord &record, qint64 nowMs)
{
    RenewalFigures f;
    f.transitions = record.transitions;
    if (!record.present || record.renewals == 0 || record.lastRenewalAtMs < 0)
        return f;
    f.lastRenewedMs = qMax<qint64>(0, nowMs - record.lastRenewalAtMs);
    f.periodMs = record.renewalPeriodMs();
    if (f.periodMs > 0) {
        // Tenths: a renewal a few ms behind its timer is on time, half a period late says so.
        const double overdue = double(f.lastRenewedMs - f.periodMs) / double(f.periodMs);
        f.missed = overdue <= 0 ? 0 : std::floor(overdue * 10) / 10;
    }
    return f;
}

} // namespace LockScope
