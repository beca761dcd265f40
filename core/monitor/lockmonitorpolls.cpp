#include "monitor/lockmonitor.h"

#include "kinds/locknames.h"

// What the monitor makes of reads no event asked for: the TTL watch's polls of watched locks, and a fair queue found
// without its lock.
namespace LockScope {

void LockMonitor::onPolled(const TtlReadings &readings)
{
    const qint64 now = monotonicMs();
    for (auto it = readings.ttls.cbegin(); it != readings.ttls.cend(); ++it) {
        LockRecord *rec = m_store.find(it.key());
        if (!rec || !rec->present)
            continue;
        const qint64 ttl = it.value();
        const qint64 expected = rec->deadlineMs < 0 ? -1 : rec->deadlineMs - readings.sentAtMs;
        const bool consistent = (ttl == -1 && expected == -1)
            || (ttl >= 0 && expected >= 0 && qAbs(ttl - expected) <= LockTracker::tolerance(rec->leaseMs));
        if (!consistent) {
            // Renewed, re-acquired, gone or persisted: a full read tells which.
            markDirty(it.key());
            continue;
        }
        bool changed = m_tracker.observeTtl(*rec, ttl, now);
        const int w = readings.waiters.value(it.key(), -1);
        if (w >= 0 && w != rec->info.waiters) {
            rec->info.waiters = w;
            changed = true;
        }
        const int sw = readings.shardWaiters.value(it.key(), -1);
        if (sw >= 0)
            rec->info.shardWaiters = sw;
        if (changed)
            m_changed.insert(it.key());
    }
    flush();
}

bool LockMonitor::deferOrphanedQueue(const QByteArray &name, bool initial)
{
    // A holderless read is a fair queue whose lock hash is gone. Waiting for its head already: read again then.
    if (m_grace.contains(name) && !m_graceFinal.contains(name))
        return true;
    const LockRecord *r = m_store.find(name);
    if (!r || !r->present || r->info.holders.isEmpty())
        return false;
    // Held until now: the hold ended as any vanished lock's does (released, expired or force released).
    ingest(name, std::nullopt, initial);
    r = m_store.find(name);
    if (!r || r->present)
        return true; // waiting briefly for the release's wake-up message: the key is read again
    // A live head takes the lock moments after a release: only a queue still without a lock a while later is
    // orphaned, so a hand-over does not warn.
    constexpr int kOrphanGraceMs = 1000;
    waitForWakeUp(name, kOrphanGraceMs);
    return true;
}

} // namespace LockScope
