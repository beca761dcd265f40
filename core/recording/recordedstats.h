#pragma once

#include "stats/lockstatistics.h"

#include <functional>

namespace LockScope {

class RecordingStore;

// Contention statistics of a window of a recording, folded as live statistics fold the monitor's events
// (stats/lockstatistics.h), so that `stats --db` prints what `stats` would have printed had it watched then. What a
// recording does not keep (waiters seen by polling, subscriptions) is missing from it, and said so.
struct RecordedStatistics
{
    LockStatistics statistics;
    qint64 fromMs = -1; // the window actually read (epoch ms)
    qint64 untilMs = -1;
    qint64 events = 0;
    int gaps = 0; // gaps in what was seen, inside the window

    // Folds the events of [sinceMs, untilMs] (-1: open) of locks matching pattern; false (and *error) when the
    // recording could not be read.
    // server: only its events (empty: every server's). cancelled: asked now and then; true stops the fold (and it
    // returns false).
    static bool fold(const RecordingStore &store, const QByteArray &pattern, qint64 sinceMs, qint64 untilMs,
        RecordedStatistics *out, QString *error, const QByteArray &server = {},
        const std::function<bool()> &cancelled = {});
};

} // namespace LockScope
