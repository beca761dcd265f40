#pragma once

#include "recording/recordingstore.h"

#include <QMap>

#include <functional>

namespace LockScope {

// The lock table of one server at a moment, rebuilt from a recording: its last snapshot before the moment, then every
// event after it in order. What it cannot know it says: a moment inside a gap in what was seen, or before the first
// snapshot, is not seen.
class TimelineState
{
public:
    struct Holding
    {
        qint64 count = 0;
        qint64 ttlMs = -2; // as last recorded (a snapshot's, or the event's)
        qint64 sinceMs = -1; // epoch ms its hold was seen to begin; -1: before what the recording saw
        qint64 lastEventMs = -1;
    };
    struct Lock
    {
        QByteArray kind;
        QByteArray library;
        QMap<QByteArray, Holding> holders; // by owner; an empty owner: a lock that exists with nobody holding it
    };

    // Starts from a snapshot (timeMs -1: none, so nothing is known before the first event).
    void reset(const RecordedSnapshot &snapshot);
    void apply(const RecordedEvent &event);
    const QMap<QByteArray, Lock> &locks() const { return m_locks; }
    // Whether the moment replayed to is inside what was seen: after a snapshot and outside a gap.
    bool seen() const { return m_seen; }
    QString unseenReason() const { return m_unseenReason; }

    // Replays store's recording of server up to timeMs (both from its last snapshot). cancelled: asked now and then;
    // true stops the replay (with *error set).
    static TimelineState at(const RecordingStore &store, const RecordedSnapshot &snapshot, qint64 timeMs,
        QString *error, const std::function<bool()> &cancelled = {});
    // Holds a snapshot began (their start unknown to it) that an earlier state of the same server saw begin: their
    // start, from it.
    void carrySince(const TimelineState &earlier);

private:
    QMap<QByteArray, Lock> m_locks;
    bool m_seen = false;
    QString m_unseenReason;
};

} // namespace LockScope
