#include "monitor/locktracker.h"

#include "kinds/locklayouts.h"

#include "monitor/locktrackerorder.h"

#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QHash>

namespace LockScope {

using namespace TrackerOrder;

namespace {
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("LockScope::LockTracker", text, disambiguation, n);
}

QString ownerText(const QByteArray &owner)
{
    return escapeBytes(owner, 120);
}

// Owner field -> count, in the hash's order.
QList<QPair<QByteArray, qint64>> holdersOf(const LockInfo &info)
{
    QList<QPair<QByteArray, qint64>> holders;
    for (const LockHolder &h : info.holders)
        holders.append({ h.owner, h.count });
    return holders;
}

qint64 countOf(const QList<QPair<QByteArray, qint64>> &holders, const QByteArray &owner, bool *found = nullptr)
{
    for (const auto &[o, c] : holders) {
        if (o == owner) {
            if (found)
                *found = true;
            return c;
        }
    }
    if (found)
        *found = false;
    return 0;
}

QList<QByteArray> queueOwners(const LockInfo &info)
{
    QList<QByteArray> owners;
    for (const auto &entry : info.queue)
        owners << entry.first;
    return owners;
}

void startHold(LockRecord &record, const LockInfo &read, qint64 nowMs)
{
    record.holdSinceMs = nowMs;
    record.leaseMs = qMax<qint64>(0, read.ttlMs);
    record.renewals = 0;
    record.lastRenewalMs = -1;
    record.watchdog = WatchdogGuess::Unknown;
    record.holdWarnings.clear();
    record.renewalWarning.clear();
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

QString LockTracker::doubleHolderWarning(const QByteArray &previousOwner)
{
    return tr("owner changed from %1 without a release: its lease ran out while it may still believe it holds the "
              "lock (possible double holder)")
        .arg(ownerText(previousOwner));
}

qint64 LockTracker::tolerance(qint64 leaseMs)
{
    // Round trips and the time between a read's send and the server's reply blur a TTL by milliseconds; a
    // watchdog renewal moves it by a third of the lease.
    return qMax<qint64>(150, leaseMs / 20);
}

void LockTracker::append(LockRecord &record, LockEvent event, QList<LockEvent> &events) const
{
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
    if (layout.idleKind() != info.kind) {
        record.seenKind = info.kind;
        record.seenConfidence = info.confidence;
        return;
    }
    // What was seen with its telling keys stays that layout while it looks like what that layout becomes when idle.
    if (record.seenKind != LockInfo::Kind::NotALock) {
        const LockLayout &seen = LockLayouts::forRecord(record.seenKind);
        if (seen.idleKind() == info.kind) {
            info.kind = record.seenKind;
            info.confidence = qMax(info.confidence, record.seenConfidence);
            if (const char *evidence = seen.idleEvidence())
                info.evidence << QCoreApplication::translate("LockScope::LockTracker", evidence);
            return;
        }
    }
    // A layout no such lock has (a "mode" field, a fencing token, a string): it is something else now.
    record.seenKind = LockInfo::Kind::NotALock;
}

QList<LockEvent> LockTracker::apply(LockRecord &record, const std::optional<LockInfo> &read, Signals &seen,
    qint64 nowMs, qint64 epochMs, bool *changed) const
{
    QList<LockEvent> events;
    const auto event = [epochMs](LockEvent::Type type, const QByteArray &owner, qint64 count, qint64 ttl,
                           const QString &detail = {}) {
        LockEvent e;
        e.timeMs = epochMs;
        e.type = type;
        e.owner = owner;
        e.count = count;
        e.ttlMs = ttl;
        e.detail = detail;
        return e;
    };
    const bool deadlinePassed = record.deadlineMs >= 0 && nowMs >= record.deadlineMs - tolerance(record.leaseMs);
    const auto before = holdersOf(record.info);

    // With keyspace events their order says how the previous hold ended. The events after the read stay in `seen`
    // for the next one; the rules below judge by all that was seen.
    const Signals all = seen;
    const bool ordered = seen.keyspaceEvents && !seen.overflow;
    const Placement at = ordered ? place(record, read, seen) : Placement {};
    const HoldEnd ended = record.present ? holdEnd(record, seen, at.end) : HoldEnd::Unseen;
    const int used = at.found ? at.position : int(seen.keyEvents.size());
    if (used > 0)
        record.lastKeyEvent = seen.keyEvents.at(used - 1).event;
    seen.keyEvents.remove(0, used);
    // A wake-up message comes right after its deletion: it goes with that deletion to the next read.
    if (std::none_of(
            seen.keyEvents.cbegin(), seen.keyEvents.cend(), [](const Signals::Seen &e) { return isEnd(e.event); }))
        seen.releaseMessage = false;
    if (seen.keyEvents.isEmpty())
        seen.overflow = false;

    const auto forcedDetail = [&all](qint64 count) {
        return all.releaseMessage
            ? tr("deleted without an unlock (%n level(s) held): its owner's unlock will fail", nullptr, int(count))
            : tr("deleted without a wake-up message: waiters sleep until their own timeout");
    };
    // The end of one holder's hold, from the order of the key's events.
    const auto endEvent = [&](const QByteArray &owner, qint64 count, qint64 ttl) {
        switch (ended) {
        case HoldEnd::Expired:
            return event(LockEvent::Type::Expired, owner, 0, ttl, tr("the lease ran out"));
        case HoldEnd::ForceReleased:
            return event(LockEvent::Type::ForceReleased, owner, 0, ttl, forcedDetail(count));
        case HoldEnd::Released:
        case HoldEnd::Unseen:
            break;
        }
        return event(LockEvent::Type::Released, owner, 0, ttl);
    };

    if (!read) {
        *changed = record.present;
        if (!record.present)
            return events;
        // How the whole hold ended, judged from what was seen on the way.
        bool cleanly = ended != HoldEnd::Expired;
        for (const auto &[owner, count] : before) {
            if (ended != HoldEnd::Unseen) {
                append(record, endEvent(owner, count, -2), events);
                continue;
            }
            LockEvent::Type type;
            QString detail;
            if (all.saw(KeyEvent::Expired) || (deadlinePassed && !all.releaseMessage && !all.saw(KeyEvent::Deleted))) {
                type = LockEvent::Type::Expired;
                detail = tr("the lease ran out");
                cleanly = false;
            } else if (!LockLayouts::forRecord(record.info.kind).capabilities().wakeChannel) {
                // A string lock's release is a plain compare-and-delete, and nobody waits on a channel: a force
                // release looks the same from outside, and leaves nobody asleep.
                type = LockEvent::Type::Released;
            } else if (all.keyspaceEvents && all.saw(KeyEvent::Deleted)) {
                // Too many events to keep in order: every unlock decrements before it deletes; a force release (or
                // a DEL) only deletes.
                const bool unlocked = all.saw(KeyEvent::HashWrite);
                type = unlocked ? LockEvent::Type::Released : LockEvent::Type::ForceReleased;
                if (!unlocked)
                    detail = forcedDetail(count);
            } else if (all.releaseMessage || !all.pubSubAvailable) {
                // Without keyspace events a force release looks like the last unlock; quick nested unlocks between
                // two reads are far more common, so this says released.
                type = LockEvent::Type::Released;
            } else {
                type = LockEvent::Type::ForceReleased;
                detail = tr("deleted without a wake-up message: waiters sleep until their own timeout");
            }
            append(record, event(type, owner, 0, -2, detail), events);
        }
        record.endedOwners.clear();
        for (const auto &holder : before)
            record.endedOwners << holder.first;
        record.endedWithRelease = cleanly;
        record.present = false;
        record.holdWarnings.clear();
        record.renewalWarning.clear();
        record.info.holders.clear();
        record.info.ttlMs = -2;
        record.deadlineMs = -1;
        return events;
    }

    const LockInfo &now = *read;
    const auto after = holdersOf(now);
    const qint64 readAt = now.readAtMs > 0 ? now.readAtMs : nowMs;
    const LockInfo previous = record.info;
    const WatchdogGuess guessBefore = record.watchdog;
    const qint64 oldDeadline = record.deadlineMs;
    const bool wasPresent = record.present;
    record.info = now;
    keepFair(record);
    record.present = true;
    record.deadlineMs = now.ttlMs >= 0 ? readAt + now.ttlMs : -1;
    if (record.firstSeenMs == 0)
        record.firstSeenMs = nowMs;

    if (!wasPresent) {
        startHold(record, now, nowMs);
        if (!seen.initial) {
            for (const auto &[owner, count] : after) {
                if (!record.endedWithRelease && !record.endedOwners.isEmpty() && !record.endedOwners.contains(owner)) {
                    const QByteArray old = record.endedOwners.first();
                    LockEvent e = event(LockEvent::Type::OwnerChanged, owner, count, now.ttlMs,
                        tr("%1 took over from %2, whose hold ended without a release")
                            .arg(ownerText(owner), ownerText(old)));
                    e.previousOwner = old;
                    append(record, e, events);
                    record.holdWarnings << doubleHolderWarning(old);
                }
                append(record, event(LockEvent::Type::Acquired, owner, count, now.ttlMs), events);
            }
        }
        record.endedOwners.clear();
        record.endedWithRelease = true;
        judgeWatchdog(record, nowMs);
        *changed = true;
        return events;
    }

    bool holderSetChanged = false, countsChanged = false;
    QList<QByteArray> removed, added;
    if (ended != HoldEnd::Unseen) {
        // The key was deleted or expired since the last read: whoever holds it now took it anew.
        for (const auto &holder : before)
            removed << holder.first;
        for (const auto &holder : after)
            added << holder.first;
    } else {
        for (const auto &[owner, count] : before) {
            bool found = false;
            const qint64 newCount = countOf(after, owner, &found);
            if (!found) {
                removed << owner;
                continue;
            }
            if (newCount > count) {
                append(record, event(LockEvent::Type::Reentered, owner, newCount, now.ttlMs), events);
                countsChanged = true;
            } else if (newCount < count) {
                append(record,
                    event(LockEvent::Type::Released, owner, newCount, now.ttlMs,
                        tr("%n level(s) still held", nullptr, int(newCount))),
                    events);
                countsChanged = true;
            }
        }
        for (const auto &[owner, count] : after) {
            bool found = false;
            countOf(before, owner, &found);
            if (!found)
                added << owner;
        }
    }
    // Readers that all changed with no deletion or expiry among the key's events in between took turns (the new ones
    // joined before the old ones left): no hold ended unseen, and no reader took over from another.
    const bool readersTookTurns = ordered && at.found && ended == HoldEnd::Unseen && previous.mode == "read"
        && now.mode == "read" && previous.kind == now.kind && LockLayouts::forRecord(now.kind).capabilities().holderSet;
    if (ended != HoldEnd::Unseen
        || (!readersTookTurns && !removed.isEmpty() && !added.isEmpty() && removed.size() == before.size())) {
        // Every holder was replaced between two reads: the key was deleted and taken again.
        holderSetChanged = true;
        bool released = false, expired = false;
        if (ended != HoldEnd::Unseen) {
            released = ended != HoldEnd::Expired;
            expired = !released;
        } else {
            // A string lock says nothing when released: a deletion seen in between is its release, and without
            // keyspace events a token that changed before the lease ran out was most likely released and taken
            // again.
            const bool stringReleased = !LockLayouts::forRecord(previous.kind).capabilities().wakeChannel
                && (all.saw(KeyEvent::Deleted)
                    || (!all.keyspaceEvents && !all.saw(KeyEvent::Expired) && !deadlinePassed));
            released = all.releaseMessage || stringReleased;
            expired = !released && (all.saw(KeyEvent::Expired) || deadlinePassed);
        }
        for (const QByteArray &owner : removed) {
            if (ended != HoldEnd::Unseen)
                append(record, endEvent(owner, countOf(before, owner), -2), events);
            else if (released)
                append(record, event(LockEvent::Type::Released, owner, 0, -2), events);
            else if (expired)
                append(record, event(LockEvent::Type::Expired, owner, 0, -2, tr("the lease ran out")), events);
        }
        startHold(record, now, nowMs);
        for (const QByteArray &owner : added) {
            const qint64 count = countOf(after, owner);
            // The previous holder may still believe it holds the lock, unless its hold ended in a release.
            if (!released && !removed.contains(owner)) {
                LockEvent e = event(LockEvent::Type::OwnerChanged, owner, count, now.ttlMs,
                    tr("%1 took over from %2 without a release").arg(ownerText(owner), ownerText(removed.first())));
                e.previousOwner = removed.first();
                append(record, e, events);
                record.holdWarnings << doubleHolderWarning(removed.first());
            }
            append(record, event(LockEvent::Type::Acquired, owner, count, now.ttlMs), events);
        }
    } else if (!removed.isEmpty() || !added.isEmpty()) {
        // Readers come and go one by one while others stay.
        holderSetChanged = true;
        for (const QByteArray &owner : removed)
            append(record, event(LockEvent::Type::Released, owner, 0, now.ttlMs), events);
        for (const QByteArray &owner : added)
            append(record, event(LockEvent::Type::Acquired, owner, countOf(after, owner), now.ttlMs), events);
        startHold(record, now, nowMs);
    }

    if (!holderSetChanged && !countsChanged && oldDeadline >= 0 && now.ttlMs >= 0) {
        const qint64 expected = oldDeadline - readAt;
        if (now.ttlMs > expected + tolerance(record.leaseMs)) {
            ++record.renewals;
            record.lastRenewalMs = nowMs;
            const QByteArray owner = after.isEmpty() ? QByteArray() : after.first().first;
            append(record, event(LockEvent::Type::Renewed, owner, countOf(after, owner), now.ttlMs), events);
        }
    }
    if (now.ttlMs > record.leaseMs)
        record.leaseMs = now.ttlMs;
    if (queueOwners(previous) != queueOwners(now)) {
        append(record,
            event(LockEvent::Type::QueueChanged, {}, 0, now.ttlMs, tr("%n waiting", nullptr, int(now.queue.size()))),
            events);
    }
    const bool judged = judgeWatchdog(record, nowMs);
    const LockInfo &shown = record.info;
    *changed = !events.isEmpty() || judged || guessBefore != record.watchdog || previous.warnings != shown.warnings
        || previous.waiters != shown.waiters || previous.kind != shown.kind || previous.mode != shown.mode
        || previous.confidence != shown.confidence;
    return events;
}

} // namespace LockScope
