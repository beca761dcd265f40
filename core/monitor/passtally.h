#pragma once

#include <QList>
#include <QSet>

namespace LockScope {

class LockRecordStore;
struct LockRecord;

// What the full pass under way met: the present locks it read (a lock it did not meet may be gone, and is read again
// by name), and the keys events touched while it ran (it may deliver what it read before the event). Which pass met
// a lock last is stamped on its record (LockRecord::seenInPass) and the present ones are counted as the pass goes: a
// set of a million names built and emptied each pass was tens of megabytes and a stall at the pass's end, and a pass
// that met every lock (the first, and most re-scans) does not walk a million records to find none (170 ms
// with the window frozen).
class PassTally
{
public:
    // topologyEpoch: the slot map the pass starts with; keys may have moved past it if it changed.
    void begin(quint64 topologyEpoch);
    quint64 epoch() const { return m_epoch; }
    // The pass read this lock.
    void met(LockRecord &record);
    // A read (the pass's or another) found the lock come or go.
    void presenceChanged(const LockRecord &record, bool present);
    void touched(const QByteArray &name) { m_touched.insert(name); }
    // At the pass's end: the present locks it did not meet.
    QList<QByteArray> unmet(const LockRecordStore &store) const;
    // At the pass's end: the keys touched while it ran.
    QSet<QByteArray> takeTouched() { return std::exchange(m_touched, {}); }

private:
    quint32 m_number = 0;
    quint64 m_epoch = 0;
    int m_seenPresent = 0; // present records this pass has met
    QSet<QByteArray> m_touched;
};

} // namespace LockScope
