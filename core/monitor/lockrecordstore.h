#pragma once

#include "monitor/lockrecord.h"

#include <QList>
#include <QSet>

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
    size_t size() const { return m_records.size(); }
    template <typename F> void forEach(F f) const
    {
        for (const auto &[name, record] : m_records)
            f(name, record);
    }

    // After a read changed whether name is present: counts it, and queues a vanished one to be forgotten in turn.
    void notePresence(const QByteArray &name, bool wasPresent, bool present);
    // An event into the lock's own timeline (kept to its length); false when the lock is unknown.
    bool appendToTimeline(const LockEvent &event);
    // Forgets the oldest vanished locks beyond the retention limit, except those in keep (changes not yet announced).
    void forgetGone(const QSet<QByteArray> &keep);

private:
    int m_timelineLength;
    int m_goneRetention;
    // Node-based: growing it relinks nodes and never moves a record (QHash moved all 65k of them at once, a 30-50 ms
    // stall in the middle of a big scan), and views keep records' addresses while they exist.
    std::unordered_map<QByteArray, LockRecord> m_records;
    int m_presentCount = 0;
    std::deque<QByteArray> m_goneOrder;
};

} // namespace LockScope
