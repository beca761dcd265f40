#include "recording/explainer.h"

#include "recording/recordingstore.h"
#include "recording/timelinestate.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Explainer", text);
}

QString when(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString lasting(qint64 ms)
{
    if (ms < 1000)
        return QCoreApplication::translate("LockScope::Explainer", "%1 ms").arg(ms);
    if (ms < 60000)
        return QCoreApplication::translate("LockScope::Explainer", "%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    return QCoreApplication::translate("LockScope::Explainer", "%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
}

QString text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes);
}

const QList<QByteArray> kHoldTypes { "acquired", "reentered", "renewed", "released", "expired", "force-released",
    "owner-changed", "lost" };

// The newest event of owner's own holds (as owner, or as the owner a change replaced) at or before untilMs.
std::optional<RecordedEvent> newestOf(const RecordingStore &store, const ExplainRequest &r, QString *error)
{
    EventQuery q;
    q.owner = r.owner;
    q.name = r.lock;
    q.untilMs = r.aroundMs;
    q.types = kHoldTypes;
    q.newestFirst = true;
    q.limit = 1;
    const QList<RecordedEvent> found = store.events(q, error);
    return found.isEmpty() ? std::nullopt : std::optional(found.first());
}

// Whose hold of the lock ended last, not by its own release (the hold an error is about), else whose ended at all.
QByteArray lastEndedOwner(const RecordingStore &store, const ExplainRequest &r, QString *error)
{
    EventQuery q;
    q.name = r.lock;
    q.untilMs = r.aroundMs;
    q.types = { "expired", "force-released", "owner-changed", "lost", "released", "acquired" };
    q.newestFirst = true;
    q.limit = 200;
    QByteArray released, acquiredBefore;
    bool endSeen = false;
    for (const RecordedEvent &e : store.events(q, error)) {
        if (e.type == "owner-changed")
            return e.previousOwner;
        if ((e.type == "expired" || e.type == "force-released" || e.type == "lost") && !e.owner.isEmpty())
            return e.owner;
        if (e.type == "expired" || e.type == "force-released")
            endSeen = true; // the holder is the one that acquired before it
        else if (e.type == "released" && released.isEmpty())
            released = e.owner;
        else if (e.type == "acquired" && endSeen)
            return e.owner;
    }
    return released;
}

struct AuditSeen
{
    qint64 timeMs;
    QJsonObject record;
};
} // namespace

HoldStory Explainer::explain(const RecordingStore &store, const ExplainRequest &request, QString *error)
{
    HoldStory s;
    s.owner = request.owner;
    s.lock = request.lock;
    s.aroundMs = request.aroundMs;
    ExplainRequest r = request;
    if (r.owner.isEmpty()) {
        if (r.lock.isEmpty()) {
            s.notFound = tr("the message names neither a holder nor a lock: give --owner or --lock");
            return s;
        }
        r.owner = lastEndedOwner(store, r, error);
        if (r.owner.isEmpty()) {
            s.notFound = tr("the recording has no hold of %1 that ended%2")
                             .arg(text(r.lock), r.aroundMs >= 0 ? tr(" before %1").arg(when(r.aroundMs)) : QString());
            return s;
        }
        s.owner = r.owner;
    }
    const std::optional<RecordedEvent> newest = newestOf(store, r, error);
    if (!newest) {
        s.notFound = r.lock.isEmpty() ? tr("nothing of %1 is in the recording").arg(text(r.owner))
                                      : tr("nothing of %1 on %2 is in the recording").arg(text(r.owner), text(r.lock));
        return s;
    }
    s.lock = newest->name;
    s.server = newest->server;

    // Where the hold began: the owner's newest acquire (or takeover) of that lock before its newest event.
    EventQuery startQuery;
    startQuery.name = s.lock;
    startQuery.owner = r.owner;
    startQuery.server = s.server;
    startQuery.types = { "acquired", "owner-changed" };
    startQuery.untilMs = newest->timeMs;
    startQuery.newestFirst = true;
    startQuery.limit = 20;
    qint64 from = -1;
    for (const RecordedEvent &e : store.events(startQuery, error)) {
        if (e.owner == r.owner) {
            from = e.timeMs;
            break;
        }
    }
    const bool heldBefore = from < 0;
    if (heldBefore)
        from = qMax(store.firstTimeMs(), newest->timeMs - 24LL * 3600 * 1000);

    EventQuery walkQuery;
    walkQuery.name = s.lock;
    walkQuery.server = s.server;
    walkQuery.sinceMs = from;
    walkQuery.untilMs = r.aroundMs >= 0 ? r.aroundMs + 60000 : -1;
    walkQuery.withGaps = true;
    walkQuery.limit = 500000;
    const QList<RecordedEvent> events = store.events(walkQuery, error);

    TimelineState state;
    RecordedSnapshot seed;
    seed.server = s.server;
    seed.timeMs = from - 1;
    if (heldBefore)
        seed.holdings << RecordedHolding { s.lock, r.owner, 1, -2, {}, {} };
    state.reset(seed);
    QList<qint64> beats; // the acquire, then each renewal
    QList<AuditSeen> audits;
    bool aroundTaken = r.aroundMs < 0;
    const auto takeAround = [&] {
        s.holdersAround = state.locks().value(s.lock).holders.keys();
        s.holdersAround.removeAll(QByteArray());
        s.aroundSeen = state.seen();
        aroundTaken = true;
    };
    for (const RecordedEvent &e : events) {
        if (!aroundTaken && e.timeMs > r.aroundMs)
            takeAround();
        state.apply(e);
        if (e.type == "audit") {
            audits << AuditSeen { e.timeMs, QJsonDocument::fromJson(e.detail.toUtf8()).object() };
            continue;
        }
        if (s.endType.isEmpty()) {
            const bool mine = e.owner == r.owner;
            if ((e.type == "acquired" || e.type == "owner-changed") && mine) {
                s.acquiredMs = e.timeMs;
                s.kind = e.kind;
                s.library = e.library;
                s.leaseMs = e.ttlMs > 0 ? e.ttlMs : s.leaseMs;
                beats = { e.timeMs };
            } else if (e.type == "renewed" && mine) {
                ++s.renewals;
                s.lastRenewalMs = e.timeMs;
                beats << e.timeMs;
                s.leaseMs = qMax(s.leaseMs, e.ttlMs);
                if (s.kind.isEmpty()) {
                    s.kind = e.kind;
                    s.library = e.library;
                }
            } else if ((e.type == "released" && mine && e.count <= 0) || e.type == "expired"
                || e.type == "force-released" || (e.type == "lost" && mine)
                || (e.type == "owner-changed" && e.previousOwner == r.owner)) {
                s.endType = e.type;
                s.endMs = e.timeMs;
                if (e.type == "owner-changed") {
                    s.nextOwner = e.owner;
                    s.nextMs = e.timeMs;
                }
            }
        } else if (s.nextOwner.isEmpty() && (e.type == "acquired" || e.type == "owner-changed") && e.owner != r.owner) {
            s.nextOwner = e.owner;
            s.nextMs = e.timeMs;
        }
    }
    if (!aroundTaken)
        takeAround();
    s.found = true;
    if (heldBefore)
        s.acquiredMs = -1;

    // The usual beat: the median interval (a watchdog renews every lease / 3); without two, the lease's third.
    QList<qint64> intervals;
    for (int i = 1; i < beats.size(); ++i)
        intervals << beats[i] - beats[i - 1];
    if (intervals.size() >= 2) {
        QList<qint64> sorted = intervals;
        std::sort(sorted.begin(), sorted.end());
        s.renewalPeriodMs = sorted[sorted.size() / 2];
    } else if (s.leaseMs > 0 && s.renewals > 0) {
        s.renewalPeriodMs = s.leaseMs / 3;
    }
    if (s.renewalPeriodMs > 0) {
        for (int i = 0; i < intervals.size(); ++i)
            if (intervals[i] * 2 > s.renewalPeriodMs * 3)
                s.gaps << HoldStory::Gap { beats[i + 1], intervals[i],
                    int(qRound(double(intervals[i]) / double(s.renewalPeriodMs))) - 1 };
        // An expiry is the last gap: the renewals that never came before the lease ran out.
        if (s.endType == "expired" && !beats.isEmpty())
            s.gaps << HoldStory::Gap { s.endMs, s.endMs - beats.last(),
                qMax(1, int((s.endMs - beats.last()) / s.renewalPeriodMs)) };
    }
    // LockScope's own action at the end, when there was one: who, and why.
    if (!s.endType.isEmpty()) {
        for (const AuditSeen &a : audits) {
            if (qAbs(a.timeMs - s.endMs) > 10000)
                continue;
            s.endAction = a.record.value(QStringLiteral("action")).toString();
            s.endBy = a.record.value(QStringLiteral("user")).toString() + QLatin1Char('@')
                + a.record.value(QStringLiteral("host")).toString();
            s.endReason = a.record.value(QStringLiteral("reason")).toString();
        }
    }

    // The story, in order.
    const QString owner = text(s.owner), lock = text(s.lock);
    s.story << (s.acquiredMs >= 0
            ? tr("%1 acquired %2 at %3%4")
                  .arg(owner, lock, when(s.acquiredMs),
                      s.leaseMs > 0 ? tr(" (lease %1)").arg(lasting(s.leaseMs)) : QString())
            : tr("%1 held %2 from before the recording's window (from %3)").arg(owner, lock, when(from)));
    if (s.renewals > 0)
        s.story << QCoreApplication::translate(
            "LockScope::Explainer", "renewed %n time(s)%1, the last at %2", nullptr, s.renewals)
                       .arg(s.renewalPeriodMs > 0 ? tr(", every %1").arg(lasting(s.renewalPeriodMs)) : QString(),
                           when(s.lastRenewalMs));
    for (const HoldStory::Gap &g : s.gaps) {
        if (g.atMs == s.endMs && s.endType == "expired")
            continue; // told with the end
        s.story << QCoreApplication::translate("LockScope::Explainer",
            "renewal gap of %1 at %2: %n renewal(s) missed, a pause the holder survived", nullptr, g.missed)
                       .arg(lasting(g.gapMs), when(g.atMs));
    }
    if (s.endType == "expired" && s.renewals == 0 && s.acquiredMs >= 0) {
        // Nobody was meant to renew it: a fixed lease (lock(leaseTime), tryLock with a lease, a SET PX token).
        s.story << tr(
            "never renewed (a fixed lease): it ran out at %1, %2 after the acquire, with the work still going")
                       .arg(when(s.endMs), lasting(s.endMs - s.acquiredMs));
    } else if (s.endType == "expired") {
        const qint64 since = beats.isEmpty() ? -1 : s.endMs - beats.last();
        s.story << (since >= 0 ? tr("no renewal after %1: the lease ran out at %2, %3 later (a pause of at least that: "
                                    "a GC, a frozen process, a lost network)")
                                     .arg(when(beats.last()), when(s.endMs), lasting(since))
                               : tr("the lease ran out at %1").arg(when(s.endMs)));
        if (!s.endAction.isEmpty())
            s.story << tr("LockScope's %1 by %2 cut the lease short%3")
                           .arg(s.endAction, s.endBy,
                               s.endReason.isEmpty() ? QString() : tr(" (reason: %1)").arg(s.endReason));
    } else if (s.endType == "force-released") {
        s.story << (s.endAction.isEmpty()
                ? tr("force-released at %1: deleted by something other than LockScope (no audit record)")
                      .arg(when(s.endMs))
                : tr("force-released at %1 by %2 with LockScope's %3%4")
                      .arg(when(s.endMs), s.endBy, s.endAction,
                          s.endReason.isEmpty() ? QString() : tr(" (reason: %1)").arg(s.endReason)));
    } else if (s.endType == "released") {
        s.story << tr("released by its holder at %1").arg(when(s.endMs));
    } else if (s.endType == "owner-changed") {
        s.story << tr("taken over at %1 without a release seen").arg(when(s.endMs));
    } else if (s.endType == "lost") {
        s.story << tr("lost at %1: the hold vanished under its holder").arg(when(s.endMs));
    } else {
        s.story << tr("still held when the recording ends");
    }
    if (!s.nextOwner.isEmpty())
        s.story << (s.endMs >= 0 ? tr("%1 took the lock %2 later, at %3")
                                       .arg(text(s.nextOwner), lasting(s.nextMs - s.endMs), when(s.nextMs))
                                 : tr("%1 took the lock at %2").arg(text(s.nextOwner), when(s.nextMs)));
    if (r.aroundMs >= 0) {
        QStringList holders;
        for (const QByteArray &h : s.holdersAround)
            holders << text(h);
        s.story << (!s.aroundSeen
                ? tr("at %1 (the error) nothing was seen: a gap in the recording").arg(when(r.aroundMs))
                : holders.isEmpty()
                ? tr("at %1 (the error) nobody held it").arg(when(r.aroundMs))
                : tr("at %1 (the error) it was held by %2").arg(when(r.aroundMs), holders.join(QStringLiteral(", "))));
    }

    // What it means.
    const bool unlock = request.unlockFailed;
    if (s.endType == "expired" && s.renewals == 0 && s.acquiredMs >= 0) {
        s.meaning = tr("the work outlived its fixed lease, which ran out at %1; whatever it did after that ran without "
                       "the lock%2: a longer lease, or the watchdog (no lease), would have kept it")
                        .arg(when(s.endMs), unlock ? tr(", and its unlock found the hold gone") : QString());
    } else if (s.endType == "expired") {
        s.meaning = tr("the holder stopped renewing and its lease ran out at %1; whatever it did after that ran "
                       "without the lock%2")
                        .arg(when(s.endMs), unlock ? tr(", and its unlock found the hold gone") : QString());
    } else if (s.endType == "force-released") {
        s.meaning
            = tr("the lock was taken from its holder at %1 by a force release%2")
                  .arg(when(s.endMs), unlock ? tr("; its unlock came after and found nothing of its own") : QString());
    } else if (s.endType == "released") {
        s.meaning = unlock ? tr("the hold was already released by its own unlock at %1: this unlock was one too many")
                                 .arg(when(s.endMs))
                           : tr("the hold ended with its own release at %1").arg(when(s.endMs));
    } else if (s.endType == "owner-changed") {
        s.meaning = tr("another owner took the lock at %1 while this one believed it held it").arg(when(s.endMs));
    } else if (s.endType == "lost") {
        s.meaning = tr("the hold vanished at %1 before its holder released it").arg(when(s.endMs));
    } else {
        s.meaning = unlock ? tr("the recording shows the hold still there: the unlock came from another thread or "
                                "client than the one holding it (a Redisson lock belongs to its thread)")
                           : tr("the hold goes on");
    }
    return s;
}

QStringList HoldStory::lines() const
{
    if (!found)
        return { notFound };
    QStringList out;
    for (const QString &line : story)
        out << QStringLiteral("  • ") + line;
    out << QCoreApplication::translate("LockScope::HoldStory", "What it means: %1.").arg(meaning);
    return out;
}

QJsonObject HoldStory::toJson() const
{
    QJsonObject o { { QStringLiteral("source"), QStringLiteral("recording") }, { QStringLiteral("found"), found } };
    if (!found) {
        o.insert(QStringLiteral("reason"), notFound);
        return o;
    }
    o.insert(QStringLiteral("server"), text(server));
    o.insert(QStringLiteral("name"), text(lock));
    o.insert(QStringLiteral("owner"), text(owner));
    if (!kind.isEmpty())
        o.insert(QStringLiteral("kind"), text(kind));
    if (!library.isEmpty())
        o.insert(QStringLiteral("library"), text(library));
    o.insert(QStringLiteral("acquired"), acquiredMs >= 0 ? QJsonValue(iso(acquiredMs)) : QJsonValue());
    o.insert(QStringLiteral("lease_ms"), leaseMs);
    o.insert(QStringLiteral("renewals"), renewals);
    o.insert(QStringLiteral("renewal_period_ms"), renewalPeriodMs);
    QJsonArray gapArray;
    for (const Gap &g : gaps)
        gapArray.append(QJsonObject { { QStringLiteral("at"), iso(g.atMs) }, { QStringLiteral("ms"), g.gapMs },
            { QStringLiteral("missed"), g.missed } });
    o.insert(QStringLiteral("gaps"), gapArray);
    QJsonObject end { { QStringLiteral("event"), endType.isEmpty() ? QJsonValue() : QJsonValue(text(endType)) } };
    if (endMs >= 0)
        end.insert(QStringLiteral("at"), iso(endMs));
    if (!endAction.isEmpty()) {
        end.insert(QStringLiteral("action"), endAction);
        end.insert(QStringLiteral("by"), endBy);
        if (!endReason.isEmpty())
            end.insert(QStringLiteral("reason"), endReason);
    }
    o.insert(QStringLiteral("end"), end);
    if (!nextOwner.isEmpty())
        o.insert(QStringLiteral("next"),
            QJsonObject { { QStringLiteral("owner"), text(nextOwner) }, { QStringLiteral("at"), iso(nextMs) },
                { QStringLiteral("after_ms"), endMs >= 0 ? nextMs - endMs : -1 } });
    if (aroundMs >= 0) {
        QJsonArray holders;
        for (const QByteArray &h : holdersAround)
            holders.append(text(h));
        o.insert(QStringLiteral("at_error"),
            QJsonObject { { QStringLiteral("at"), iso(aroundMs) }, { QStringLiteral("seen"), aroundSeen },
                { QStringLiteral("holders"), holders } });
    }
    o.insert(QStringLiteral("story"), QJsonArray::fromStringList(story));
    o.insert(QStringLiteral("meaning"), meaning);
    return o;
}

} // namespace LockScope
