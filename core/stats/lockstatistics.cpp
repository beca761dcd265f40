#include "stats/lockstatistics.h"

#include "kinds/locknames.h"

#include <algorithm>
#include <cmath>

namespace LockScope {

QByteArray figureSourceName(FigureSource source)
{
    return source == FigureSource::Measured ? QByteArrayLiteral("measured") : QByteArrayLiteral("inferred");
}

FigureSource LockStats::acquisitionsSource() const
{
    return acquisitionsInferred ? FigureSource::Inferred : FigureSource::Measured;
}

FigureSource LockStats::holdsSource() const
{
    return holdsInferred ? FigureSource::Inferred : FigureSource::Measured;
}

FigureSource LockStats::expiriesSource() const
{
    return expiriesInferred ? FigureSource::Inferred : FigureSource::Measured;
}

QByteArray waitMethodName(WaitMethod method)
{
    switch (method) {
    case WaitMethod::FairQueue:
        return "fair-queue";
    case WaitMethod::Subscriptions:
        return "subscriptions";
    case WaitMethod::WaiterTime:
        return "waiter-time";
    case WaitMethod::None:
        break;
    }
    return "none";
}

WaitMethod LockStats::waitMethod() const
{
    if (waits.count() > 0)
        return queuedWaits ? WaitMethod::FairQueue : WaitMethod::Subscriptions;
    return waiterMs > 0 ? WaitMethod::WaiterTime : WaitMethod::None;
}

qint64 LockStats::longestWaitMs(qint64 nowMs) const
{
    qint64 since = -1;
    for (const Queued &q : queued)
        if (q.leftMs < 0 && (since < 0 || q.sinceMs < since))
            since = q.sinceMs;
    if (!listening.isEmpty() && (since < 0 || listening.first() < since))
        since = listening.first();
    return since < 0 ? -1 : qMax<qint64>(0, nowMs - since);
}

double LockStats::waitMeanMs(FigureSource *source) const
{
    if (waits.count() > 0) {
        if (source)
            *source = waitsInferred ? FigureSource::Inferred : FigureSource::Measured;
        return waits.meanMs();
    }
    if (source)
        *source = FigureSource::Inferred;
    if (acquisitions == 0)
        return waiterMs > 0 ? -1 : 0;
    return waiterMs / double(acquisitions);
}

LockStatistics::LockStatistics(Options options, qint64 startedMs)
    : m_options(options)
    , m_startedMs(startedMs)
{ }

QByteArray LockStatistics::clientOf(const QByteArray &owner)
{
    QByteArray client, token;
    if (LockNames::splitOwner(owner, &client, &token))
        return client;
    return owner;
}

LockStats &LockStatistics::entry(const QByteArray &name, const LockInfo *info, qint64 nowMs)
{
    auto it = m_locks.find(name);
    if (it == m_locks.end()) {
        if (m_locks.size() >= m_options.maxLocks + qMax(16, m_options.maxLocks / 8))
            evictLocks();
        it = m_locks.insert(name, LockStats());
        it->name = name;
        it->firstActivityMs = nowMs;
        it->sampledAtMs = nowMs;
        it->decayedAtMs = nowMs;
    }
    if (info && info->kind != LockInfo::Kind::NotALock) {
        it->kind = LockInfo::kindName(info->kind);
        it->library = info->library;
    }
    it->lastActivityMs = qMax(it->lastActivityMs, nowMs);
    return *it;
}

ClientStats &LockStatistics::clientEntry(const QByteArray &owner, qint64 nowMs)
{
    const QByteArray id = clientOf(owner);
    auto it = m_clients.find(id);
    if (it == m_clients.end()) {
        if (m_clients.size() >= m_options.maxClients + qMax(16, m_options.maxClients / 8))
            evictClients();
        it = m_clients.insert(id, ClientStats());
        it->client = id;
    }
    it->lastActivityMs = qMax(it->lastActivityMs, nowMs);
    return *it;
}

void LockStatistics::decay(LockStats &stats, qint64 nowMs) const
{
    if (nowMs <= stats.decayedAtMs)
        return;
    const double f = std::exp2(-double(nowMs - stats.decayedAtMs) / double(m_options.recentHalfLifeMs));
    stats.recentWaiterMs *= f;
    stats.recentAcquisitions *= f;
    stats.recentHeldMs *= f;
    stats.decayedAtMs = nowMs;
}

void LockStatistics::integrate(LockStats &stats, qint64 nowMs) const
{
    decay(stats, nowMs);
    if (nowMs <= stats.sampledAtMs)
        return;
    const double dt = double(nowMs - stats.sampledAtMs);
    stats.waiterMs += stats.waitersNow * dt;
    stats.recentWaiterMs += stats.waitersNow * dt;
    if (stats.held) {
        stats.heldMs += dt;
        stats.recentHeldMs += dt;
    }
    stats.sampledAtMs = nowMs;
}

void LockStatistics::startHold(LockStats &stats, const LockEvent &event, FigureSource source)
{
    // Acquired again without an end seen in between: the earlier hold's end is unknown.
    if (stats.openHolds.contains(event.owner))
        endHold(stats, event.owner, event.timeMs, source, false);
    stats.openHolds.insert(event.owner, { event.timeMs, source == FigureSource::Inferred, event.ttlMs, false });
    if (event.ttlMs > 0)
        stats.leaseMs = event.ttlMs;
    ClientStats &client = clientEntry(event.owner, event.timeMs);
    ++client.holdsOpen;
}

void LockStatistics::endHold(LockStats &stats, const QByteArray &owner, qint64 atMs, FigureSource source, bool sample)
{
    const auto it = stats.openHolds.find(owner);
    if (it == stats.openHolds.end()) {
        // Begun before watching (or before this lock was tracked): its length is not known.
        if (sample)
            ++stats.holdsFromBefore;
        return;
    }
    const LockStats::Hold hold = *it;
    stats.openHolds.erase(it);
    if (auto client = m_clients.find(clientOf(owner)); client != m_clients.end()) {
        client->holdsOpen = qMax(0, client->holdsOpen - 1);
        if (sample)
            client->holds.add(atMs - hold.sinceMs);
    }
    if (!sample)
        return;
    stats.holds.add(atMs - hold.sinceMs);
    if (hold.inferred || source == FigureSource::Inferred)
        stats.holdsInferred = true;
    // Once its lease has been seen renewed the lock is a watchdog's: its holds that end before their first renewal
    // were not taken with a fixed lease either.
    if (!hold.renewed && !stats.renewedSeen && hold.leaseMs > 0) {
        ++stats.fixedLeaseHolds;
        if ((atMs - hold.sinceMs) * 3 > hold.leaseMs * 2)
            ++stats.fixedLeaseHoldsPastTwoThirds;
    }
}

void LockStatistics::addEvent(const LockEvent &event, const LockInfo *info, FigureSource source)
{
    const qint64 at = event.timeMs;
    LockStats &stats = entry(event.name, info, at);
    integrate(stats, at);
    KindTotals &totals = m_totals[{ stats.kind, stats.library }];
    const bool inferred = source == FigureSource::Inferred;

    switch (event.type) {
    case LockEvent::Type::Acquired: {
        ++stats.acquisitions;
        ++totals.acquisitions;
        stats.recentAcquisitions += 1;
        stats.acquisitionsInferred |= inferred;
        ++clientEntry(event.owner, at).acquisitions;
        if (stats.lastEndMs >= 0 && stats.lastEndOwner != event.owner
            && at - stats.lastEndMs <= m_options.handoffWindowMs) {
            ++stats.handoffs;
            ++totals.handoffs;
            stats.handoffGaps.add(at - stats.lastEndMs);
        }
        stats.lastEndMs = -1;
        if (auto q = stats.queued.find(event.owner); q != stats.queued.end()) {
            stats.waits.add(at - q->sinceMs);
            stats.waitsInferred |= inferred;
            stats.queuedWaits = true;
            stats.queued.erase(q);
        }
        startHold(stats, event, source);
        stats.held = true;
        break;
    }
    case LockEvent::Type::Released:
        if (event.count > 0)
            break; // a nested level: the hold goes on
        ++stats.releases;
        ++totals.releases;
        endHold(stats, event.owner, at, source, true);
        stats.lastEndMs = at;
        stats.lastEndOwner = event.owner;
        break;
    case LockEvent::Type::Expired:
        ++stats.expiries;
        ++totals.expiries;
        stats.expiriesInferred |= inferred;
        ++clientEntry(event.owner, at).expiries;
        endHold(stats, event.owner, at, source, true);
        stats.lastEndMs = at;
        stats.lastEndOwner = event.owner;
        break;
    case LockEvent::Type::ForceReleased:
        ++stats.forceReleases;
        ++totals.forceReleases;
        endHold(stats, event.owner, at, source, true);
        stats.lastEndMs = at;
        stats.lastEndOwner = event.owner;
        break;
    case LockEvent::Type::OwnerChanged:
        ++stats.ownerChanges;
        ++totals.ownerChanges;
        ++clientEntry(event.owner, at).takeovers;
        // The old hold ended at some unseen moment before this: not a sample.
        if (!event.previousOwner.isEmpty())
            endHold(stats, event.previousOwner, at, source, false);
        break;
    case LockEvent::Type::Lost:
        endHold(stats, event.owner, at, source, false);
        break;
    case LockEvent::Type::Renewed:
        ++stats.renewals;
        stats.renewedSeen = true;
        // The key's lease was extended for every hold on it; the event names one holder (a read-write lock's readers
        // share the key).
        for (LockStats::Hold &hold : stats.openHolds)
            hold.renewed = true;
        if (event.lateMs >= 0) {
            ++stats.renewalGaps;
            ++totals.renewalGaps;
        }
        break;
    case LockEvent::Type::Reentered:
    case LockEvent::Type::QueueChanged:
    case LockEvent::Type::WakeUpMissed:
        break;
    }
    if (stats.openHolds.isEmpty() && event.type != LockEvent::Type::Acquired && event.type != LockEvent::Type::Renewed
        && event.type != LockEvent::Type::Reentered && event.type != LockEvent::Type::QueueChanged)
        stats.held = info && !info->holders.isEmpty();
}

void LockStatistics::observe(const QByteArray &name, const LockInfo *info, qint64 nowMs)
{
    int waiters = 0;
    if (info) {
        waiters = qMax(info->waiters, 0);
        waiters = qMax(waiters, int(info->queue.size()));
    }
    auto it = m_locks.find(name);
    if (it == m_locks.end()) {
        // Nothing contended about it yet; or the table is full, and a read alone does not push out a lock that had
        // activity (thousands of locks with a waiter each would otherwise replace each other at every poll).
        if (waiters == 0 || m_locks.size() >= qMin(m_options.maxLocks, m_options.maxObservedLocks))
            return;
        entry(name, info, nowMs);
        it = m_locks.find(name);
    } else if (info && info->kind != LockInfo::Kind::NotALock) {
        it->kind = LockInfo::kindName(info->kind);
        it->library = info->library;
    }
    LockStats &stats = *it;
    integrate(stats, nowMs);
    stats.waitersNow = waiters;
    // Gone: nobody is counted as waiting on it, and no wait is said to go on (its ends were not seen: no samples).
    if (!info)
        stats.listening.clear();
    stats.waitersMax = qMax(stats.waitersMax, waiters);
    stats.held = info && !info->holders.isEmpty();
    if (waiters > 0)
        stats.lastActivityMs = qMax(stats.lastActivityMs, nowMs);

    // A fair queue's members, from when each was first seen in it to its acquisition.
    for (auto q = stats.queued.begin(); q != stats.queued.end();) {
        const bool inQueue = info
            && std::any_of(info->queue.cbegin(), info->queue.cend(),
                [&q](const QPair<QByteArray, qint64> &e) { return e.first == q.key(); });
        if (!inQueue && q->leftMs < 0)
            q->leftMs = nowMs;
        // Its acquisition comes as an event right after the read that showed it leave; one that gave up is gone.
        if (!inQueue && nowMs - q->leftMs > m_options.handoffWindowMs)
            q = stats.queued.erase(q);
        else
            ++q;
    }
    if (info) {
        for (const auto &[owner, deadline] : info->queue) {
            Q_UNUSED(deadline)
            auto q = stats.queued.find(owner);
            if (q == stats.queued.end())
                stats.queued.insert(owner, { nowMs, -1 });
            else
                q->leftMs = -1;
        }
        observeSubscriptions(stats, *info, nowMs);
    }
}

void LockStatistics::observeSubscriptions(LockStats &stats, const LockInfo &info, qint64 nowMs) const
{
    // A queue times its waiters one by one; without one, each subscription counted is a wait, from the read that
    // first counted it to the one that counts it gone. Which of several left is not known: the oldest goes first, so
    // the sum of the waits and the longest one going on are right, and each single wait is inferred.
    if (info.queue.isEmpty() && info.waiters < 0)
        return; // not counted this time (a layout without a channel, a read that failed): nothing known
    const int subscribed = info.queue.isEmpty() ? info.waiters : 0;
    while (stats.listening.size() < subscribed)
        stats.listening.append(nowMs);
    while (stats.listening.size() > subscribed) {
        stats.waits.add(nowMs - stats.listening.takeFirst());
        stats.waitsInferred = true;
    }
}

const LockStats *LockStatistics::lock(const QByteArray &name) const
{
    const auto it = m_locks.constFind(name);
    return it == m_locks.cend() ? nullptr : &*it;
}

const ClientStats *LockStatistics::client(const QByteArray &client) const
{
    const auto it = m_clients.constFind(client);
    return it == m_clients.cend() ? nullptr : &*it;
}

QList<const LockStats *> LockStatistics::locks() const
{
    QList<const LockStats *> all;
    all.reserve(m_locks.size());
    for (const LockStats &s : m_locks)
        all << &s;
    return all;
}

QList<const ClientStats *> LockStatistics::clients() const
{
    QList<const ClientStats *> all;
    all.reserve(m_clients.size());
    for (const ClientStats &c : m_clients)
        all << &c;
    return all;
}

RecentFigures LockStatistics::recent(const LockStats &stats, qint64 nowMs) const
{
    // Brought to nowMs without changing the entry: decay, then what the current state adds since its last sample.
    const double f = nowMs > stats.decayedAtMs
        ? std::exp2(-double(nowMs - stats.decayedAtMs) / double(m_options.recentHalfLifeMs))
        : 1.0;
    const double dt = double(qMax<qint64>(0, nowMs - stats.sampledAtMs));
    const double waiterMs = stats.recentWaiterMs * f + stats.waitersNow * dt;
    const double heldMs = stats.recentHeldMs * f + (stats.held ? dt : 0.0);
    const double acquisitions = stats.recentAcquisitions * f;
    // The decayed sums weigh the past by e^(-t/tau); a constant rate r sums to r * tau * (1 - e^(-elapsed/tau)), the
    // window they are divided by, so a steady lock reads its true rate from the first seconds on.
    const double tau = double(m_options.recentHalfLifeMs) / std::log(2.0);
    const double elapsed = double(qMax<qint64>(1, nowMs - qMin(m_startedMs, stats.firstActivityMs)));
    const double window = tau * (1.0 - std::exp(-elapsed / tau));
    RecentFigures r;
    r.waiterSeconds = waiterMs / 1000.0;
    r.acquisitionsPerMinute = acquisitions * 60000.0 / window;
    r.busy = std::clamp(heldMs / window, 0.0, 1.0);
    return r;
}

QList<const LockStats *> LockStatistics::ranked(qint64 nowMs, int limit) const
{
    struct Ranked
    {
        const LockStats *stats;
        RecentFigures recent;
        qint64 p95;
    };
    std::vector<Ranked> all;
    all.reserve(m_locks.size());
    for (const LockStats &s : m_locks)
        all.push_back({ &s, recent(s, nowMs), s.holds.quantile(0.95) });
    const auto before = [](const Ranked &a, const Ranked &b) {
        // Waiter-time to a tenth of a waiter-second, so two quiet locks are told apart by their traffic.
        const qint64 wa = qRound64(a.recent.waiterSeconds * 10), wb = qRound64(b.recent.waiterSeconds * 10);
        if (wa != wb)
            return wa > wb;
        const qint64 aa = qRound64(a.recent.acquisitionsPerMinute * 10),
                     ab = qRound64(b.recent.acquisitionsPerMinute * 10);
        if (aa != ab)
            return aa > ab;
        if (a.p95 != b.p95)
            return a.p95 > b.p95;
        return a.stats->name < b.stats->name;
    };
    const size_t n = limit < 0 ? all.size() : qMin(all.size(), size_t(limit));
    std::partial_sort(all.begin(), all.begin() + qint64(n), all.end(), before);
    QList<const LockStats *> top;
    top.reserve(qsizetype(n));
    for (size_t i = 0; i < n; ++i)
        top << all[i].stats;
    return top;
}

void LockStatistics::evictLocks()
{
    // The least recently active first, sparing those held or waited on now while others can go.
    std::vector<std::pair<std::pair<bool, qint64>, QByteArray>> order;
    order.reserve(size_t(m_locks.size()));
    for (const LockStats &s : std::as_const(m_locks))
        order.push_back({ { !s.openHolds.isEmpty() || s.waitersNow > 0, s.lastActivityMs }, s.name });
    std::sort(order.begin(), order.end());
    const qsizetype excess = m_locks.size() - m_options.maxLocks + 1;
    for (qsizetype i = 0; i < excess && i < qsizetype(order.size()); ++i) {
        const LockStats &gone = m_locks.value(order[size_t(i)].second);
        for (auto h = gone.openHolds.cbegin(); h != gone.openHolds.cend(); ++h) {
            if (auto c = m_clients.find(clientOf(h.key())); c != m_clients.end())
                c->holdsOpen = qMax(0, c->holdsOpen - 1);
        }
        m_locks.remove(order[size_t(i)].second);
        ++m_evictedLocks;
    }
}

void LockStatistics::evictClients()
{
    std::vector<std::pair<std::pair<bool, qint64>, QByteArray>> order;
    order.reserve(size_t(m_clients.size()));
    for (const ClientStats &c : std::as_const(m_clients))
        order.push_back({ { c.holdsOpen > 0, c.lastActivityMs }, c.client });
    std::sort(order.begin(), order.end());
    const qsizetype excess = m_clients.size() - m_options.maxClients + 1;
    for (qsizetype i = 0; i < excess && i < qsizetype(order.size()); ++i) {
        m_clients.remove(order[size_t(i)].second);
        ++m_evictedClients;
    }
}

} // namespace LockScope
