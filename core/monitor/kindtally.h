#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>

#include <map>
#include <utility>

namespace LockScope {

struct LockRecord;

// The present locks per kind and library: how many, how many held, how many waiters they know of. Kept as records
// change, so that a metrics scrape reads a few dozen entries instead of walking every record (a million locks took
// a scrape hundreds of milliseconds of the event loop). Every change to a record's presence, kind, library, holders,
// waiters or queue goes through LockRecordStore::recount() with the share the record had before it.
class KindTally
{
public:
    struct Count
    {
        qint64 locks = 0;
        qint64 held = 0;
        qint64 waiters = 0; // known waiters summed: subscribers, or queued threads when there are more of those
    };
    using Key = std::pair<LockInfo::Kind, QByteArray>; // kind, library
    // What one record adds to its entry. Absent records add nothing.
    struct Share
    {
        bool present = false;
        LockInfo::Kind kind = LockInfo::Kind::NotALock;
        QByteArray library;
        bool held = false;
        qint64 waiters = 0;

        bool operator==(const Share &other) const
        {
            return present == other.present
                && (!present
                    || (kind == other.kind && held == other.held && waiters == other.waiters
                        && library == other.library));
        }
        bool operator!=(const Share &other) const { return !(*this == other); }
    };
    static Share shareOf(const LockRecord &record);

    // A record's share changed from before to after.
    void move(const Share &before, const Share &after);
    // Entries with at least one present lock, ordered by kind, then library.
    const std::map<Key, Count> &entries() const { return m_entries; }

private:
    void add(const Share &share, int sign);

    std::map<Key, Count> m_entries;
};

} // namespace LockScope
