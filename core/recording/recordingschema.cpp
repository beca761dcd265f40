#include "recording/recordingschema.h"

namespace LockScope::RecordingSchema {

const QList<Step> &steps()
{
    static const QList<Step> all {
        // 1: the timeline. Lock events, gaps in what was seen, and (from 2) audit records, one row each.
        { 1,
            {
                "CREATE TABLE events (id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, server TEXT NOT NULL, "
                "type TEXT NOT NULL, name BLOB NOT NULL, owner BLOB, previous_owner BLOB, count INTEGER, "
                "ttl_ms INTEGER, late_ms INTEGER, kind TEXT, library TEXT, detail TEXT)",
                "CREATE INDEX events_by_name ON events(name, ts)",
                "CREATE INDEX events_by_time ON events(ts)",
                "CREATE INDEX events_by_owner ON events(owner, ts)",
            } },
        // 2: the lock table now and then, so that "who held what at 03:12" replays minutes of events, not the night;
        // a client's story finds the owner changes that ended its holds.
        { 2,
            {
                "CREATE TABLE snapshot_marks (ts INTEGER NOT NULL, server TEXT NOT NULL, locks INTEGER NOT NULL, "
                "PRIMARY KEY (server, ts))",
                "CREATE TABLE snapshots (ts INTEGER NOT NULL, server TEXT NOT NULL, name BLOB NOT NULL, owner BLOB, "
                "count INTEGER, ttl_ms INTEGER, kind TEXT, library TEXT)",
                "CREATE INDEX snapshots_by_time ON snapshots(server, ts)",
                // Only owner changes have a previous owner (the rest store NULL): a partial index costs the other
                // rows nothing, and "previous_owner = ?" implies it, so SQLite uses it.
                "CREATE INDEX events_by_previous_owner ON events(previous_owner, ts) WHERE previous_owner IS NOT NULL",
            } },
    };
    return all;
}

} // namespace LockScope::RecordingSchema
