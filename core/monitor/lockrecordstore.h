#pragma once

#include "base/staggeredshards.h"
#include "monitor/kindtally.h"
#include "monitor/lockrecord.h"

#include <QList>
#include <QSet>

#include <array>
#include <deque>
#include <unordered_map>

namespace LockScope {

// Every lock the monitor knows: present ones, and vanished ones kept for their timeline up to a limit, oldest
// forgotten first. Pure like LockTracker: no Redis, no timers.
class LockRecordStore
{
public:
    LockRecordStore(int timelineLength, int goneRetention)
        : m_timelineLength(timelineLength)
        , m_goneRetention(goneRetention)
    { }

    const LockRecord *find(const QByteArray &name) const;
    LockRecord *find(const QByteArray &name);
    // The record of name, created empty (not present) when there is none.
    LockRecord &obtain(const QByteArray &name);
    bool isPresent(const QByteArray &name) const
    {
        const LockRecord *r = find(name);
        return r && r->present;
    }

    QList<QByteArray> presentNames() const;
    int presentCount() const { return m_presentCount; }
    size_t size() const;
    template <typename F> void forEach(F f) const
    {
        for (const Map &shard : m_shards)
            for (const auto &[name, record] : shard)
                f(name, record);
    }

    // After a read changed whether name is present: counts it, and queues a vanished one to be forgotten in turn.
    void notePresence(const QByteArray &name, bool wasPresent, bool present);
    // The present locks per kind and library, kept as records change: what a metrics scrape reads.
    const KindTally &kinds() const { return m_kinds; }
    // After a change to record (a read judged, waiters polled): its share of the tally was before, and is what the
    // record says now. Whoever changes a record takes KindTally::shareOf() first and calls this right after.
    void recount(const KindTally::Share &before, const LockRecord &record)
    {
        m_kinds.move(before, KindTally::shareOf(record));
    }
    // An event into the lock's own timeline (kept to its length); false when the lock is unknown.
    bool appendToTimeline(const LockEvent &event);
    // Forgets the oldest vanished locks beyond the retention limit, except those in keep (changes not yet announced).
    void forgetGone(const QSet<QByteArray> &keep);

private:
    int m_timelineLength;
    int m_goneRetention;
    // Node-based: growing it relinks nodes and never moves a record (QHash moved all 65k of them at once, a 30-50 ms
    // stall in the middle of a big scan), and views keep records' addresses while they exist. In shards by hash: one
    // map of a million records rehashed them all at once as it grew (180 ms with the window frozen, measured with
    // bench_monitor on 1M locks). The shards' shares are staggered (StaggeredShards): 256 equal shards all grew
    // within the same few pages of a scan, 50-110 ms of rehashing spread over three or four turns at 420-480k locks.
    using Map = std::unordered_map<QByteArray, LockRecord>;
    static constexpr size_t kShards = 256;
    Map &shardOf(const QByteArray &name) { return m_shards[StaggeredShards<kShards>::of(name)]; }
    const Map &shardOf(const QByteArray &name) const { return m_shards[StaggeredShards<kShards>::of(name)]; }
    std::array<Map, kShards> m_shards;
    int m_presentCount = 0;
    KindTally m_kinds;
    std::deque<QByteArray> m_goneOrder;
};

} // namespace LockScope
