#pragma once

#include "clients/ownerdirectory.h"
#include "kinds/lockclassifier.h"
#include "liveness/renewalfigures.h"

#include <QString>
#include <QStringList>

namespace LockScope {

struct LockRecord;

// Everything known about one holder that bears on whether it is still alive. Each part is one independent signal;
// the caller fills what it has and leaves the rest unknown.
struct LivenessInput
{
    LockInfo lock; // as read now
    LockHolder holder;
    const LockRecord *record = nullptr; // the monitor's record (renewals, the hold's start); nullptr: one read only
    qint64 nowMs = 0; // monotonic
    qint64 epochMs = 0;
    OwnerPresence presence; // its connections, from a trace or a name, against CLIENT LIST
    // The process the token names, where it names one on this very machine (host and pid): whether it still runs.
    enum class Process { NotKnown, Running, Gone };
    Process process = Process::NotKnown;
    // A heartbeat key that an owner template declares for this holder.
    enum class Heartbeat { None, Fresh, Stale, Missing };
    Heartbeat heartbeat = Heartbeat::None;
    qint64 heartbeatAgeMs = -1;
    // The lock's usual hold (its p95, from completed holds watched) and how many holds that rests on; -1: not known.
    qint64 holdP95Ms = -1;
    quint64 holdSamples = 0;
    // A trace saw this owner send its unlock while the hold stayed: an unlock that failed (redisson #7272) if the
    // lease is still being renewed. Epoch ms; -1: none seen.
    qint64 unlockSeenMs = -1;
};

// The verdict on one holder: alive, likely dead, or unknown, never without its evidence. "likely dead" needs two
// independent signals that it is gone (renewals stopped, its connection closed, its process gone, its heartbeat
// stale); one alone leaves it unknown, said as such, since a paused process (a long GC, SIGSTOP) keeps its connection
// and resumes. "alive" needs something the holder did lately: renewals on time, a fresh heartbeat, its process
// running here.
struct LivenessVerdict
{
    enum class State { Unknown, Alive, LikelyDead };
    State state = State::Unknown;
    QString summary; // one line for a table, a prompt: "alive (renewing) · held 40× its usual time"
    QStringList evidence; // every signal, what was seen and when
    RenewalFigures figures;
    qint64 heldMs = -1; // how long the hold has lasted, as far as seen
    bool heldAtLeast = false; // it began before anyone watched: heldMs is a lower bound
    double heldTimesUsual = -1; // heldMs over the lock's p95 hold, where that is known and telling

    static QByteArray stateId(State state); // "alive", "likely-dead", "unknown"
    static QString stateText(State state); // for people, translated
};

LivenessVerdict judgeLiveness(const LivenessInput &input);

} // namespace LockScope
