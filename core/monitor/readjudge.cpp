#include "monitor/readjudge.h"

#include "kinds/keyglob.h"

namespace LockScope {

namespace {
constexpr int kNotLocksLimit = 100000;

bool mayCreateLock(const QByteArray &event)
{
    // Redisson creates a lock hash with HINCRBY or HSET, and a foreign writer may set the TTL afterwards.
    return event.startsWith('h') || event == "expire" || event == "persist" || event == "rename_to"
        || event == "restore" || event == "copy_to";
}

QList<QByteArray> owners(const LockInfo &info)
{
    QList<QByteArray> list;
    for (const LockHolder &h : info.holders)
        list << h.owner;
    return list;
}
} // namespace

ReadJudge::ReadJudge(QByteArray pattern, int timelineLength)
    : m_pattern(std::move(pattern))
    , m_tracker(timelineLength)
{ }

bool ReadJudge::matchesPattern(const QByteArray &name) const
{
    // The server's own glob rules, on the bytes: a key an event names is in when a SCAN MATCH would have found it.
    return m_pattern == "*" || globMatch(m_pattern, name);
}

bool ReadJudge::noteTouch(
    const QByteArray &name, const LockRecord *record, LockEventFeed::Touch touch, const QByteArray &event, bool auxKey)
{
    using Touch = LockEventFeed::Touch;
    const bool known = record && record->present;
    if (!known) {
        if (!matchesPattern(name))
            return false;
        if (touch == Touch::Changed && !auxKey) {
            if (!mayCreateLock(event))
                return false;
            if (event.startsWith('h') && m_notLocks.contains(name))
                return false; // a user hash being written to: read once, not on every write
        }
        if (touch != Touch::Changed || !event.startsWith('h'))
            m_notLocks.remove(name);
        if ((touch == Touch::Expired || touch == Touch::Deleted) && !record)
            return false; // gone, and never a lock we knew
    }
    if (touch == Touch::ReleaseMessage)
        m_pending[name].releaseMessage = true;
    else if (!auxKey) // the order of the key's own events is evidence; an aux key's only says "read it again"
        m_pending[name].note(LockTracker::Signals::eventOf(event));
    return true;
}

void ReadJudge::noteNotLocks(const QList<QByteArray> &names)
{
    if (m_notLocks.size() + names.size() > kNotLocksLimit)
        m_notLocks.clear();
    for (const QByteArray &name : names)
        m_notLocks.insert(name);
}

void ReadJudge::readSent(const QByteArray &name)
{
    // Events that arrived before the read was sent happened before the server ran it.
    const auto seen = m_pending.find(name);
    if (seen != m_pending.end())
        seen->sentSeq = seen->lastSeq;
    // A read held for its events is superseded by this one: judged later, with this read's send point, the older
    // picture would be placed after events it never saw (a reader seen leaving and coming back).
    m_held.remove(name);
}

ReadJudge::Verdict ReadJudge::judge(
    const QByteArray &name, LockRecord &record, const Read &read, Feeds feeds, qint64 nowMs, qint64 epochMs)
{
    Verdict verdict;
    LockTracker::Signals seen = m_pending.value(name);
    const quint32 sentSeq = seen.sentSeq;
    if (!read.refreshed)
        seen.sentSeq = 0; // a pass's read: when it was sent is not known
    seen.initial = read.initial;
    seen.pubSubAvailable = feeds.pubSubAvailable;
    seen.keyspaceEvents = feeds.keyspaceEvents;
    if (!read.synced && !m_graceFinal.contains(name) && m_tracker.awaitsEvidence(record, read.info, seen, nowMs)) {
        if (seen.keyspaceEvents) {
            // The read came back before the events that led to it (they travel on the feed's connection).
            verdict.outcome = Outcome::HoldForFeeds;
            verdict.ticket = ++m_syncTicket;
            m_held.insert(name, HeldRead { read, verdict.ticket });
        } else if (!m_grace.contains(name)) {
            verdict.outcome = Outcome::WaitForWakeUp;
            waitForWakeUp(name, nowMs + kWakeUpGraceMs);
        } else {
            verdict.outcome = Outcome::Waiting;
        }
        return verdict;
    }
    m_held.remove(name);
    m_graceFinal.remove(name);
    m_grace.remove(name);
    // Renewals seen during this hold vouch for a lock its shape alone made low confidence (classify knows one read).
    std::optional<LockInfo> input = read.info;
    if (input && record.present && record.renewals > 0 && owners(*input) == owners(record.info))
        corroborateByRenewals(*input);
    verdict.events = m_tracker.apply(record, input, seen, nowMs, epochMs, &verdict.changed);
    if (!m_attributions.isEmpty())
        attribute(name, record, verdict.events, nowMs);
    if (record.present && record.renewals > 0 && record.info.confidence == LockInfo::Confidence::Low) {
        corroborateByRenewals(record.info);
        verdict.changed = true;
    }
    // What came after the read waits for the next one (already asked for: those events marked the key dirty).
    if (seen.keyEvents.isEmpty() && !seen.releaseMessage) {
        m_pending.remove(name);
    } else {
        seen.sentSeq = sentSeq;
        m_pending.insert(name, seen);
    }
    return verdict;
}

std::optional<ReadJudge::Read> ReadJudge::takeHeld(const QByteArray &name, quint64 ticket)
{
    const auto it = m_held.find(name);
    if (it == m_held.end() || it->ticket != ticket)
        return std::nullopt; // a later read was judged, or is held in its place
    const Read read = it->read;
    m_held.erase(it);
    return read;
}

ReadJudge::Orphan ReadJudge::orphanedQueue(const QByteArray &name, const LockRecord *record) const
{
    if (m_grace.contains(name) && !m_graceFinal.contains(name))
        return Orphan::Defer;
    if (!record || !record->present || record->info.holders.isEmpty())
        return Orphan::Judge;
    // Held until now: the hold ended as any vanished lock's does (released, expired or force released).
    return Orphan::EndHold;
}

QList<QByteArray> ReadJudge::graceOver(qint64 nowMs, qint64 *nextMs)
{
    QList<QByteArray> over;
    *nextMs = -1;
    for (auto it = m_grace.begin(); it != m_grace.end();) {
        if (it.value() <= nowMs) {
            m_graceFinal.insert(it.key());
            over << it.key();
            it = m_grace.erase(it);
        } else {
            *nextMs = *nextMs < 0 ? it.value() : qMin(*nextMs, it.value());
            ++it;
        }
    }
    return over;
}

ReadJudge::Polls ReadJudge::judgePolls(LockRecordStore &records, const TtlReadings &readings, qint64 nowMs) const
{
    Polls polls;
    for (auto it = readings.ttls.cbegin(); it != readings.ttls.cend(); ++it) {
        LockRecord *record = records.find(it.key());
        if (!record || !record->present)
            continue;
        const qint64 ttl = it.value();
        const qint64 expected = record->deadlineMs < 0 ? -1 : record->deadlineMs - readings.sentAtMs;
        const bool consistent = (ttl == -1 && expected == -1)
            || (ttl >= 0 && expected >= 0 && qAbs(ttl - expected) <= LockTracker::tolerance(record->leaseMs));
        if (!consistent) {
            polls.reread << it.key();
            continue;
        }
        bool changed = m_tracker.observeTtl(*record, ttl, nowMs);
        // The listeners on its release channel; a queued waiter counts whether or not it listens there (a fair
        // lock's waiters each listen on a channel of their own, and its release channel has nobody: issue 47).
        int w = readings.waiters.value(it.key(), -1);
        if (w >= 0)
            w = qMax(w, int(record->info.queue.size()));
        if (w >= 0 && w != record->info.waiters) {
            const KindTally::Share share = KindTally::shareOf(*record);
            record->info.waiters = w;
            records.recount(share, *record);
            changed = true;
        }
        const int sw = readings.shardWaiters.value(it.key(), -1);
        if (sw >= 0)
            record->info.shardWaiters = sw;
        if (changed)
            polls.changed << it.key();
    }
    return polls;
}

void ReadJudge::attributeNextEnd(const QByteArray &name, const QString &detail, qint64 untilMs)
{
    if (detail.isEmpty())
        m_attributions.remove(name);
    else
        m_attributions.insert(name, { detail, untilMs });
}

void ReadJudge::attribute(const QByteArray &name, LockRecord &record, QList<LockEvent> &events, qint64 nowMs)
{
    const auto it = m_attributions.find(name);
    if (it == m_attributions.end())
        return;
    if (it->untilMs < nowMs) {
        m_attributions.erase(it);
        return;
    }
    // The ends of holds this read judged: the tracker appended them to the timeline in the same order.
    bool used = false;
    const qsizetype first = record.timeline.size() - events.size();
    for (qsizetype i = 0; i < events.size(); ++i) {
        LockEvent &e = events[i];
        const bool end = e.type == LockEvent::Type::ForceReleased || e.type == LockEvent::Type::Expired
            || (e.type == LockEvent::Type::Released && e.count == 0);
        if (!end)
            continue;
        e.type = LockEvent::Type::ForceReleased;
        e.detail = it->detail;
        if (first >= 0 && first + i < record.timeline.size())
            record.timeline[first + i] = e;
        used = true;
    }
    if (used)
        m_attributions.erase(it);
}

} // namespace LockScope
