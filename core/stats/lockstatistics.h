#pragma once

#include "monitor/lockrecord.h"
#include "stats/holdhistogram.h"

#include <QByteArray>
#include <QHash>
#include <QList>

#include <map>

namespace LockScope {

// How a figure was obtained. Measured: from keyspace events, which time each change to the millisecond and miss
// none. Inferred: from re-scans and polls (holds shorter than the re-scan interval are missed, and times are known
// only to the interval), from samples (waiter counts are read, not announced), or by reasoning (an owner change, a
// hand-off, a wait estimated from waiter-time over acquisitions).
enum class FigureSource { Measured, Inferred };
QByteArray figureSourceName(FigureSource source); // "measured", "inferred"

// How one lock's waits were timed (issue 47). FairQueue: each queued thread from the read that first showed it in the
// queue to its acquisition (threads, to a read's interval). Subscriptions: each subscription to the lock's wake-up
// channel from the read that first counted it to the one that counted it gone, the oldest first; a subscription is a
// connection, which one JVM shares among all its threads waiting on the lock, and a waiter that gives up ends one
// too. WaiterTime: no single wait seen, only waiter-time over acquisitions (the mean, by Little's law).
enum class WaitMethod { None, FairQueue, Subscriptions, WaiterTime };
QByteArray waitMethodName(WaitMethod method); // "fair-queue", "subscriptions", "waiter-time", "none"

// What was watched of one lock: counts since watching began, distributions, and exponentially decayed figures for
// "right now" (half-life one minute by default).
struct LockStats
{
    QByteArray name;
    QByteArray kind; // LockInfo::kindName
    QByteArray library;
    qint64 firstActivityMs = 0; // epoch ms
    qint64 lastActivityMs = 0;

    quint64 acquisitions = 0;
    quint64 releases = 0; // last levels released (a hold ended cleanly)
    quint64 expiries = 0; // leases that ran out: a dead or slow holder
    quint64 forceReleases = 0;
    quint64 ownerChanges = 0; // a new owner without a release of the old one
    quint64 handoffs = 0; // another owner took it within the hand-off window of a hold's end
    quint64 renewals = 0;
    quint64 renewalGaps = 0; // renewals that came half a period or more late
    // The lease advisor's live figures (docs/recording.md#advise): the TTL the latest hold was taken with, and of the
    // holds with a fixed lease (never renewed) that ended, how many outlived two thirds of it.
    qint64 leaseMs = -1;
    quint64 fixedLeaseHolds = 0;
    quint64 fixedLeaseHoldsPastTwoThirds = 0;
    bool renewedSeen = false; // a watchdog lock: no hold of it counts as a fixed-lease one
    quint64 holdsFromBefore = 0; // holds that ended but began before watching: not in `holds`
    HoldHistogram holds; // completed holds whose start was seen
    HoldHistogram waits; // each wait seen end to end, timed as waitMethod says
    HoldHistogram handoffGaps; // from one hold's end to the next owner's acquisition

    int waitersNow = 0; // subscribed waiters or queued threads, the larger
    int waitersMax = 0;
    double waiterMs = 0; // waiters integrated over time
    double heldMs = 0; // time held while watched

    bool acquisitionsInferred = false;
    bool holdsInferred = false;
    bool expiriesInferred = false;
    bool waitsInferred = false;

    // Decayed to decayedAtMs.
    double recentWaiterMs = 0;
    double recentAcquisitions = 0;
    double recentHeldMs = 0;
    qint64 decayedAtMs = 0;

    // Live state.
    struct Hold
    {
        qint64 sinceMs = 0;
        bool inferred = false;
        qint64 leaseMs = -1; // its TTL when taken
        bool renewed = false;
    };
    QHash<QByteArray, Hold> openHolds; // owner -> when its hold was seen to begin
    bool held = false;
    qint64 sampledAtMs = 0; // when waitersNow and held were last integrated
    qint64 lastEndMs = -1;
    QByteArray lastEndOwner;
    struct Queued
    {
        qint64 sinceMs = 0;
        qint64 leftMs = -1;
    };
    QHash<QByteArray, Queued> queued; // fair queue members by owner
    // Subscriptions to the wake-up channel of a lock without a queue, by when each was first counted, oldest first.
    QList<qint64> listening;
    bool queuedWaits = false; // some sample in waits is a fair queue member's (else they are subscriptions')

    FigureSource acquisitionsSource() const;
    FigureSource holdsSource() const;
    FigureSource expiriesSource() const;
    // A fair queue's measured waits when there are any; else waiter-time over acquisitions (Little's law: the mean
    // number waiting divided by the rate they are served), inferred. -1: nothing to go by.
    double waitMeanMs(FigureSource *source = nullptr) const;
    WaitMethod waitMethod() const;
    // The longest wait going on now (the oldest queued thread or subscription still there), -1 when nobody waits.
    qint64 longestWaitMs(qint64 nowMs) const;
};

// The figures of a recent window, as of one moment: what the rankings sort by.
struct RecentFigures
{
    double waiterSeconds = 0; // waiter-time over the decayed window
    double acquisitionsPerMinute = 0;
    double busy = 0; // fraction of the window held
};

// Counts per lock kind and library since watching began, never evicted: the totals a metrics endpoint reports.
struct KindTotals
{
    quint64 acquisitions = 0;
    quint64 releases = 0;
    quint64 expiries = 0;
    quint64 forceReleases = 0;
    quint64 ownerChanges = 0;
    quint64 handoffs = 0;
    quint64 renewalGaps = 0;
};

// One client id's footprint (a Redisson client UUID, else the owner token as stored).
struct ClientStats
{
    QByteArray client;
    quint64 acquisitions = 0;
    quint64 expiries = 0; // its leases that ran out
    quint64 takeovers = 0; // it took a lock whose holder had not released it
    HoldHistogram holds;
    int holdsOpen = 0;
    qint64 lastActivityMs = 0;
};

struct StatisticsOptions
{
    int maxLocks = 10000;
    int maxClients = 10000;
    // Locks taken in on a read alone (waiters seen, no event yet): a server where thousands of locks each have a
    // waiter fills no more than this of the table.
    int maxObservedLocks = 2000;
    qint64 handoffWindowMs = 1000;
    qint64 recentHalfLifeMs = 60000;
};

// Contention statistics folded from what a LockMonitor reports: its events and its reads. Pure (no Redis, no
// timers, times passed in), so every rule is tested on its own; StatsCollector feeds it from a monitor. Memory is
// bounded: past maxLocks (maxClients) entries, the least recently active ones without open holds are dropped; the
// per-kind totals keep counting.
class LockStatistics
{
public:
    using Options = StatisticsOptions;
    explicit LockStatistics(Options options = {}, qint64 startedMs = 0);

    // info: the lock as the monitor holds it now (its kind and library), or nullptr when unknown.
    void addEvent(const LockEvent &event, const LockInfo *info, FigureSource source);
    // A read of a lock (nullptr: gone): its waiters and whether it is held, integrated over time from the previous
    // read. Only locks with activity or waiters are tracked.
    void observe(const QByteArray &name, const LockInfo *info, qint64 nowMs);

    const LockStats *lock(const QByteArray &name) const;
    const ClientStats *client(const QByteArray &client) const;
    QList<const LockStats *> locks() const;
    QList<const ClientStats *> clients() const;
    // Ranked by contention now: waiter-time in the recent window, then acquisitions per minute, then p95 hold.
    QList<const LockStats *> ranked(qint64 nowMs, int limit) const;
    RecentFigures recent(const LockStats &stats, qint64 nowMs) const;
    const std::map<std::pair<QByteArray, QByteArray>, KindTotals> &totals() const { return m_totals; }

    qint64 startedMs() const { return m_startedMs; }
    quint64 evictedLocks() const { return m_evictedLocks; }
    quint64 evictedClients() const { return m_evictedClients; }
    const Options &options() const { return m_options; }

    static QByteArray clientOf(const QByteArray &owner);

private:
    // A read's count of subscriptions to a lock's wake-up channel, as waits (WaitMethod::Subscriptions).
    void observeSubscriptions(LockStats &stats, const LockInfo &info, qint64 nowMs) const;
    LockStats &entry(const QByteArray &name, const LockInfo *info, qint64 nowMs);
    ClientStats &clientEntry(const QByteArray &owner, qint64 nowMs);
    void integrate(LockStats &stats, qint64 nowMs) const;
    void decay(LockStats &stats, qint64 nowMs) const;
    void startHold(LockStats &stats, const LockEvent &event, FigureSource source);
    void endHold(LockStats &stats, const QByteArray &owner, qint64 atMs, FigureSource source, bool sample);
    void evictLocks();
    void evictClients();

    Options m_options;
    qint64 m_startedMs;
    QHash<QByteArray, LockStats> m_locks;
    QHash<QByteArray, ClientStats> m_clients;
    std::map<std::pair<QByteArray, QByteArray>, KindTotals> m_totals;
    quint64 m_evictedLocks = 0;
    quint64 m_evictedClients = 0;
};

} // namespace LockScope
