#pragma once

#include "monitor/lockeventfeed.h"
#include "monitor/lockrecordstore.h"
#include "monitor/locktracker.h"
#include "monitor/ttlwatch.h"

#include <QHash>
#include <QSet>

#include <optional>

namespace LockScope {

// What a read of one key means for its record, and when to read a key at all: which events ask for a read, what
// each read is judged with (the key's events since the last read), whether a read can be judged now or must wait
// for the evidence that explains it (the feeds' events, or a wake-up message still on its way), and the judgement
// itself (LockTracker, plus renewals vouching for a low-confidence lock and a console's own force release). It holds
// what it waits for but no timer and no connection: LockMonitor sends the reads, arms the timer and asks the feeds
// to catch up, and tests call it with crafted reads and events.
class ReadJudge
{
public:
    // A vanished key with no explanation waits this long for its wake-up message.
    static constexpr int kWakeUpGraceMs = 250;
    // A fair queue found without its lock waits this long for its head to take the lock.
    static constexpr int kOrphanGraceMs = 1000;

    ReadJudge(QByteArray pattern, int timelineLength);

    // An event named the key: whether it asks for a read. What it says about the key (a keyspace event's place in
    // order, a wake-up message) is kept for that read's judgement.
    bool noteTouch(const QByteArray &name, const LockRecord *record, LockEventFeed::Touch touch,
        const QByteArray &event, bool auxKey);
    // Hashes a read found to be user data: further writes to them ask for no read.
    void noteNotLocks(const QList<QByteArray> &names);
    // A read of the key is being sent: the events noted so far happened before it, and a read held for its events
    // is superseded by this one.
    void readSent(const QByteArray &name);
    // Nothing to judge about a key the monitor never knew: what was noted about it goes.
    void forget(const QByteArray &name) { m_pending.remove(name); }

    struct Read
    {
        std::optional<LockInfo> info; // nullopt: the key is gone, or no longer a lock
        bool initial = false; // the first snapshot's
        bool refreshed = false; // a read of named keys, whose send point is known (readSent)
        bool synced = false; // the feeds delivered all they had before it: judge it with what there is
    };
    struct Feeds
    {
        bool keyspaceEvents = false;
        bool pubSubAvailable = true;
    };
    enum class Outcome {
        Judged,
        HoldForFeeds, // held (ticket): judge it again once every feed has delivered what it had
        WaitForWakeUp, // the key waits kWakeUpGraceMs for a wake-up message, then is read again
        Waiting, // already waiting for its wake-up message
    };
    struct Verdict
    {
        Outcome outcome = Outcome::Judged;
        QList<LockEvent> events;
        bool changed = false; // anything a view shows
        quint64 ticket = 0; // HoldForFeeds: for takeHeld()
    };
    Verdict judge(
        const QByteArray &name, LockRecord &record, const Read &read, Feeds feeds, qint64 nowMs, qint64 epochMs);
    // A read held for its events, once the feeds caught up; nullopt when a later read was judged or held instead.
    std::optional<Read> takeHeld(const QByteArray &name, quint64 ticket);

    // A holderless read: a fair queue whose lock hash is gone.
    enum class Orphan {
        Judge, // no hold to end: judge the read as it is
        Defer, // already waiting for the queue's head: read again then
        EndHold, // held until now: judge the lock gone first, then wait kOrphanGraceMs (a live head takes it at once)
    };
    Orphan orphanedQueue(const QByteArray &name, const LockRecord *record) const;

    // The key waits for a wake-up message until untilMs; then read again, and judged with what there is.
    void waitForWakeUp(const QByteArray &name, qint64 untilMs) { m_grace.insert(name, untilMs); }
    // The keys whose wait is over by nowMs, to be read again; *nextMs: when the next wait ends, -1 when none does.
    QList<QByteArray> graceOver(qint64 nowMs, qint64 *nextMs);
    // Reads held or keys waiting: what settle() waits for.
    bool isWaiting() const { return !m_held.isEmpty() || !m_grace.isEmpty(); }

    // A round of TTL polls of the watched locks. reread: a TTL that does not match the deadline (renewed,
    // re-acquired, gone or persisted: a full read tells which); changed: the watchdog guess, a warning or the waiters
    // changed.
    struct Polls
    {
        QList<QByteArray> reread;
        QList<QByteArray> changed;
    };
    Polls judgePolls(LockRecordStore &records, const TtlReadings &readings, qint64 nowMs) const;

    // The next end of name's hold is told as a force release with this detail (empty: take it back), until untilMs.
    void attributeNextEnd(const QByteArray &name, const QString &detail, qint64 untilMs);

private:
    bool matchesPattern(const QByteArray &name) const;
    void attribute(const QByteArray &name, LockRecord &record, QList<LockEvent> &events, qint64 nowMs);

    QByteArray m_pattern;
    LockTracker m_tracker;
    QHash<QByteArray, LockTracker::Signals> m_pending; // seen since the key's last read
    struct Attribution
    {
        QString detail;
        qint64 untilMs = 0; // monotonic
    };
    QHash<QByteArray, Attribution> m_attributions;
    QSet<QByteArray> m_notLocks; // hashes read and found to be user data
    QSet<QByteArray> m_graceFinal; // read as gone once already, with no sign of how: this read decides
    QHash<QByteArray, qint64> m_grace; // waiting briefly for a wake-up message that may still be on its way
    struct HeldRead
    {
        Read read;
        quint64 ticket = 0;
    };
    QHash<QByteArray, HeldRead> m_held; // with keyspace events: reads waiting for the events that explain them
    quint64 m_syncTicket = 0;
};

} // namespace LockScope
