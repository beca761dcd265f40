#include "monitor/locktracker.h"

#include "base/durationtext.h"
#include "kinds/locklayouts.h"
#include "monitor/holdendjudge.h"
#include "monitor/holderchangejudge.h"
#include "monitor/newholdjudge.h"
#include "monitor/takeoverjudge.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope {

namespace {
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope::LockTracker", text, disambiguation, n);
}

constexpr int kMaxKeyEvents = 64;

QList<QByteArray> queueOwners(const LockInfo &info)
{
    QList<QByteArray> owners;
    for (const auto &entry : info.queue)
        owners << entry.first;
    return owners;
}

constexpr int kMaxRenewalIntervals = 8;

QList<QByteArray> ownersOf(const LockInfo &info)
{
    QList<QByteArray> owners;
    for (const LockHolder &h : info.holders)
        owners << h.owner;
    std::sort(owners.begin(), owners.end());
    return owners;
}

// initial: the monitor's first sight of a hold that was already there, whose beginning nobody saw.
void startHold(LockRecord &record, const LockInfo &read, qint64 nowMs, bool initial = false)
{
    record.holdSinceMs = nowMs;
    record.leaseMs = qMax<qint64>(0, read.ttlMs);
    record.renewals = 0;
    record.ttlCutShort = false;
    record.lastRenewalMs = -1;
    record.lastRenewalAtMs = -1;
    record.renewalIntervals.clear();
    record.holdStartDeadlineMs = record.deadlineMs;
    record.holdStartSeen = !initial;
    // A change of hands: other holders than the last ones (the same owner taking it again is not one).
    const QList<QByteArray> owners = ownersOf(read);
    if (!owners.isEmpty()) {
        if (!record.lastOwners.isEmpty() && owners != record.lastOwners)
            ++record.transitions;
        record.lastOwners = owners;
    }
    record.watchdog = WatchdogGuess::Unknown;
    record.holdWarnings.clear();
    record.renewalWarning.clear();
}

// The key is gone: who held it is kept for whoever comes next (NewHoldJudge), and nothing of the hold is shown.
void endHold(LockRecord &record, bool cleanly)
{
    record.endedOwners.clear();
    for (const LockHolder &holder : std::as_const(record.info.holders))
        record.endedOwners << holder.owner;
    record.endedWithRelease = cleanly;
    record.present = false;
    record.holdWarnings.clear();
    record.renewalWarning.clear();
    record.info.holders.clear();
    record.info.ttlMs = -2;
    record.deadlineMs = -1;
}
} // namespace

QByteArray LockEvent::typeName(Type type)
{
    switch (type) {
    case Type::Acquired:
        return "acquired";
    case Type::Reentered:
        return "reentered";
    case Type::Released:
        return "released";
    case Type::Renewed:
        return "renewed";
    case Type::Expired:
        return "expired";
    case Type::ForceReleased:
        return "force-released";
    case Type::OwnerChanged:
        return "owner-changed";
    case Type::QueueChanged:
        return "queue-changed";
    case Type::Lost:
        return "lost";
    case Type::WakeUpMissed:
        return "wake-up-missed";
    }
    return {};
}

QByteArray watchdogGuessName(WatchdogGuess guess)
{
    switch (guess) {
    case WatchdogGuess::Likely:
        return "likely";
    case WatchdogGuess::No:
        return "no";
    case WatchdogGuess::Unknown:
        break;
    }
    return "unknown";
}

qint64 LockRecord::renewalPeriodMs() const
{
    if (renewalIntervals.isEmpty())
        return -1;
    QList<qint64> sorted = renewalIntervals;
    std::sort(sorted.begin(), sorted.end());
    return sorted.at(sorted.size() / 2);
}

qint64 LockTracker::tolerance(qint64 leaseMs)
{
    // Round trips and the time between a read's send and the server's reply blur a TTL by milliseconds; a
    // watchdog renewal moves it by a third of the lease.
    return qMax<qint64>(150, leaseMs / 20);
}

void LockTracker::append(LockRecord &record, LockEvent event, qint64 epochMs, QList<LockEvent> &events) const
{
    event.timeMs = epochMs;
    event.name = record.info.name;
    record.timeline.append(event);
    if (record.timeline.size() > m_timelineLength)
        record.timeline.remove(0, record.timeline.size() - m_timelineLength);
    events << event;
}

bool LockTracker::judgeWatchdog(LockRecord &record, qint64 nowMs) const
{
    const WatchdogGuess before = record.watchdog;
    const QString warningBefore = record.renewalWarning;
    const qint64 tol = tolerance(record.leaseMs);
    if (record.renewals > 0) {
        record.watchdog = WatchdogGuess::Likely;
    } else if (record.leaseMs > 0 && record.deadlineMs >= 0 && nowMs - record.holdSinceMs > record.leaseMs / 3 + tol) {
        // A watchdog renews every lease/3, and a lock first seen mid-hold at TTL t is renewed within t/3: a whole
        // third of the largest TTL seen with no jump means nobody renews it.
        record.watchdog = WatchdogGuess::No;
    }
    record.renewalWarning.clear();
    const qint64 remaining = record.remainingMs(nowMs);
    if (record.watchdog == WatchdogGuess::Likely && remaining >= 0 && remaining < record.leaseMs * 2 / 3 - tol) {
        record.renewalWarning = tr("renewals failing: TTL %1 ms is below 2/3 of its %2 ms lease; the holder's "
                                   "watchdog may have stopped while it still works under the lock")
                                    .arg(remaining)
                                    .arg(record.leaseMs);
    }
    return before != record.watchdog || warningBefore != record.renewalWarning;
}

bool LockTracker::observeTtl(LockRecord &record, qint64 ttlMs, qint64 nowMs) const
{
    if (!record.present)
        return false;
    record.info.ttlMs = ttlMs;
    return judgeWatchdog(record, nowMs);
}

void LockTracker::keepFair(LockRecord &record)
{
    LockInfo &info = record.info;
    if (info.kind == LockInfo::Kind::NotALock || info.kind == LockInfo::Kind::Unknown)
        return;
    const LockLayout &layout = LockLayouts::forRecord(info.kind);
    if (LockLayouts::idleKind(layout) != info.kind) {
        record.seenKind = info.kind;
        record.seenConfidence = info.confidence;
        return;
    }
    // What was seen with its telling keys stays that layout while it looks like what that layout becomes when idle.
    if (record.seenKind != LockInfo::Kind::NotALock) {
        const LockLayout &seen = LockLayouts::forRecord(record.seenKind);
        if (LockLayouts::idleKind(seen) == info.kind) {
            info.kind = record.seenKind;
            info.confidence = qMax(info.confidence, record.seenConfidence);
            if (const char *evidence = seen.recogniser().idleEvidence())
                info.evidence << QCoreApplication::translate("LockScope::LockTracker", evidence);
            return;
        }
    }
    // A layout no such lock has (a "mode" field, a fencing token, a string): it is something else now.
    record.seenKind = LockInfo::Kind::NotALock;
}

void LockTracker::Signals::note(KeyEvent event)
{
    const quint32 seq = ++lastSeq;
    const int n = int(keyEvents.size());
    if (HoldEndJudge::isWrite(event) && n >= 2 && HoldEndJudge::isWrite(keyEvents.at(n - 1).event)
        && HoldEndJudge::isWrite(keyEvents.at(n - 2).event)) {
        keyEvents.last() = { seq, event };
        return;
    }
    if (n >= kMaxKeyEvents) {
        overflow = true;
        return;
    }
    keyEvents.append({ seq, event });
}

bool LockTracker::Signals::saw(KeyEvent event) const
{
    return std::any_of(keyEvents.cbegin(), keyEvents.cend(), [event](const Seen &s) { return s.event == event; });
}

KeyEvent LockTracker::Signals::eventOf(const QByteArray &keyspaceEvent)
{
    if (keyspaceEvent == "del")
        return KeyEvent::Deleted;
    if (keyspaceEvent == "expired")
        return KeyEvent::Expired;
    return keyspaceEvent.startsWith('h') ? KeyEvent::HashWrite : KeyEvent::OtherWrite;
}

bool LockTracker::awaitsEvidence(
    const LockRecord &record, const std::optional<LockInfo> &read, const Signals &seen, qint64 nowMs) const
{
    if (!record.present)
        return false;
    if (seen.keyspaceEvents && !seen.overflow) {
        const HoldEndJudge::Placement at = HoldEndJudge::place(record, read, seen);
        return !at.found || at.endMayFollow;
    }
    if (read)
        return false;
    // A release's wake-up message travels on another connection and may land just after the read. A string lock
    // has none to wait for.
    const bool passed = record.deadlineMs >= 0 && nowMs >= record.deadlineMs - tolerance(record.leaseMs);
    const bool explained = seen.releaseMessage || seen.saw(KeyEvent::Expired) || seen.saw(KeyEvent::Deleted) || passed;
    return !explained && seen.pubSubAvailable && LockLayouts::forRecord(record.info.kind).capabilities().wakeChannel;
}

QList<LockEvent> LockTracker::apply(LockRecord &record, const std::optional<LockInfo> &read, Signals &seen,
    qint64 nowMs, qint64 epochMs, bool *changed) const
{
    QList<LockEvent> events;
    const auto file = [&](const QList<LockEvent> &judged) {
        for (const LockEvent &e : judged)
            append(record, e, epochMs, events);
    };
    const bool deadlinePassed = record.deadlineMs >= 0 && nowMs >= record.deadlineMs - tolerance(record.leaseMs);
    // With keyspace events their order says how the previous hold ended. The events after the read stay in `seen`
    // for the next one; the judgements below judge by all that was seen.
    const HoldEndJudge::Reading reading = HoldEndJudge::placeRead(record, read, seen);
    if (!read) {
        *changed = record.present;
        if (record.present) {
            const HoldEndJudge::Gone gone = HoldEndJudge::gone(record, reading, deadlinePassed);
            file(gone.judgement.events);
            endHold(record, gone.cleanly);
        }
        return events;
    }

    const LockInfo &now = *read;
    const LockInfo previous = record.info;
    const WatchdogGuess guessBefore = record.watchdog;
    const qint64 oldDeadline = record.deadlineMs;
    const bool wasPresent = record.present;
    takeRead(record, now, nowMs);
    if (!wasPresent) {
        startHold(record, now, nowMs, seen.initial);
        if (!seen.initial) {
            const Judgement judged = NewHoldJudge::judge(record, now);
            file(judged.events);
            record.holdWarnings << judged.warnings;
        }
        record.endedOwners.clear();
        record.endedWithRelease = true;
        judgeWatchdog(record, nowMs);
        *changed = true;
        return events;
    }

    bool holdersChanged = false, countsChanged = false;
    if (TakeoverJudge::applies(previous, now, reading)) {
        const Judgement judged
            = TakeoverJudge::judge(previous, now, reading, deadlinePassed, HoldEndJudge::coolDownOver(record));
        file(judged.events);
        startHold(record, now, nowMs);
        record.holdWarnings << judged.warnings;
        holdersChanged = true;
    } else {
        const HolderChangeJudge::Verdict verdict = HolderChangeJudge::judge(previous, now);
        file(verdict.judgement.events);
        if (verdict.holdersChanged)
            startHold(record, now, nowMs);
        holdersChanged = verdict.holdersChanged;
        countsChanged = verdict.countsChanged;
    }
    if (!holdersChanged && !countsChanged)
        judgeRenewal(record, now, oldDeadline, nowMs, epochMs, events);
    if (now.ttlMs > record.leaseMs)
        record.leaseMs = now.ttlMs;
    if (queueOwners(previous) != queueOwners(now))
        append(record,
            TrackerJudging::event(
                LockEvent::Type::QueueChanged, {}, 0, now.ttlMs, tr("%n waiting", nullptr, int(now.queue.size()))),
            epochMs, events);
    const bool judged = judgeWatchdog(record, nowMs);
    const LockInfo &shown = record.info;
    *changed = !events.isEmpty() || judged || guessBefore != record.watchdog || previous.warnings != shown.warnings
        || previous.waiters != shown.waiters || previous.kind != shown.kind || previous.mode != shown.mode
        || previous.confidence != shown.confidence;
    return events;
}

void LockTracker::takeRead(LockRecord &record, const LockInfo &read, qint64 nowMs)
{
    const qint64 readAt = read.readAtMs > 0 ? read.readAtMs : nowMs;
    record.info = read;
    keepFair(record);
    record.present = true;
    record.deadlineMs = read.ttlMs >= 0 ? readAt + read.ttlMs : -1;
    if (record.firstSeenMs == 0)
        record.firstSeenMs = nowMs;
}

void LockTracker::judgeRenewal(LockRecord &record, const LockInfo &read, qint64 oldDeadline, qint64 nowMs,
    qint64 epochMs, QList<LockEvent> &events) const
{
    if (oldDeadline < 0 || read.ttlMs < 0)
        return;
    const qint64 readAt = read.readAtMs > 0 ? read.readAtMs : nowMs;
    // The same holders, and a TTL well below where the previous deadline would have it: the holder cut it short.
    if (read.ttlMs + tolerance(record.leaseMs) < oldDeadline - readAt)
        record.ttlCutShort = true;
    // The same holders at the same levels, and a TTL back above where the previous deadline would have it.
    if (read.ttlMs <= oldDeadline - readAt + tolerance(record.leaseMs))
        return;
    ++record.renewals;
    record.lastRenewalMs = nowMs;
    // A renewal sets the TTL to the lease: it happened the lease before its deadline (never after this read).
    const qint64 lease = qMax(record.leaseMs, read.ttlMs);
    const qint64 at = qMin(readAt, record.deadlineMs - lease);
    const qint64 previousAt = record.lastRenewalAtMs >= 0         ? record.lastRenewalAtMs
        : record.holdStartSeen && record.holdStartDeadlineMs >= 0 ? record.holdStartDeadlineMs - lease
                                                                  : -1;
    qint64 lateMs = -1;
    if (previousAt >= 0 && at > previousAt) {
        // Against the holder's own rhythm (the median of its last intervals, two at least, whatever its library's
        // period): half a period or more past it is a gap, a pause that a longer one would turn into a lost lease.
        const qint64 usual = record.renewalIntervals.size() >= 2 ? record.renewalPeriodMs() : -1;
        if (usual > 0 && (at - previousAt) * 2 >= usual * 3)
            lateMs = at - previousAt - usual;
        record.renewalIntervals << at - previousAt;
        if (record.renewalIntervals.size() > kMaxRenewalIntervals)
            record.renewalIntervals.removeFirst();
    }
    record.lastRenewalAtMs = at;
    const QByteArray owner = read.holders.isEmpty() ? QByteArray() : read.holders.first().owner;
    LockEvent renewed
        = TrackerJudging::event(LockEvent::Type::Renewed, owner, TrackerJudging::countOf(read, owner), read.ttlMs);
    renewed.lateMs = lateMs;
    if (lateMs >= 0)
        renewed.detail = QCoreApplication::translate("LockScope::LockTracker", "renewed %1 later than its usual %2")
                             .arg(durationText(lateMs), durationText(record.renewalPeriodMs()));
    append(record, renewed, epochMs, events);
}

} // namespace LockScope
