#include "recording/timelinestate.h"

#include <QCoreApplication>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::TimelineState", text);
}
} // namespace

void TimelineState::reset(const RecordedSnapshot &snapshot)
{
    m_locks.clear();
    m_seen = snapshot.timeMs >= 0;
    m_unseenReason = m_seen ? QString() : tr("before the recording's first snapshot");
    for (const RecordedHolding &h : snapshot.holdings) {
        Lock &lock = m_locks[h.name];
        lock.kind = h.kind;
        lock.library = h.library;
        Holding &holding = lock.holders[h.owner];
        holding.count = h.count;
        holding.ttlMs = h.ttlMs;
        holding.lastEventMs = snapshot.timeMs;
    }
}

void TimelineState::apply(const RecordedEvent &e)
{
    // The events' meaning as the monitor reports them (docs/recording.md#replay): a hold begins, goes on or changes
    // count; a key that expired or was deleted took every holder with it; a lost hold is one owner's.
    if (e.type == "gap-start") {
        m_seen = false;
        m_unseenReason = tr("inside a gap in what was seen (%1)").arg(e.detail);
        return;
    }
    if (e.type == "gap-end") {
        // What changed while nobody saw is not known until the next snapshot: the holders before the gap are kept,
        // and later events correct them.
        m_seen = true;
        m_unseenReason.clear();
        return;
    }
    if (e.name.isEmpty())
        return;
    const auto hold = [&](const QByteArray &owner) {
        Lock &lock = m_locks[e.name];
        if (!e.kind.isEmpty())
            lock.kind = e.kind;
        if (!e.library.isEmpty())
            lock.library = e.library;
        lock.holders.remove(QByteArray()); // somebody holds it now
        Holding &h = lock.holders[owner];
        if (e.type == "acquired" || e.type == "owner-changed")
            h.sinceMs = e.timeMs;
        if (e.count > 0)
            h.count = e.count;
        else if (h.count == 0)
            h.count = 1;
        h.ttlMs = e.ttlMs;
        h.lastEventMs = e.timeMs;
    };
    if (e.type == "acquired" || e.type == "reentered" || e.type == "renewed") {
        hold(e.owner);
    } else if (e.type == "owner-changed") {
        if (auto it = m_locks.find(e.name); it != m_locks.end())
            it->holders.remove(e.previousOwner);
        hold(e.owner);
    } else if (e.type == "released") {
        auto it = m_locks.find(e.name);
        if (it == m_locks.end())
            return;
        if (e.owner.isEmpty()) {
            m_locks.erase(it);
        } else if (e.count > 0) {
            Holding &h = it->holders[e.owner];
            h.count = e.count;
            h.lastEventMs = e.timeMs;
        } else {
            it->holders.remove(e.owner);
            if (it->holders.isEmpty())
                m_locks.erase(it);
        }
    } else if (e.type == "expired" || e.type == "force-released") {
        m_locks.remove(e.name); // the key is gone, and every holder with it
    } else if (e.type == "lost") {
        if (auto it = m_locks.find(e.name); it != m_locks.end()) {
            it->holders.remove(e.owner);
            if (it->holders.isEmpty())
                m_locks.erase(it);
        }
    }
}

TimelineState TimelineState::at(const RecordingStore &store, const RecordedSnapshot &snapshot, qint64 timeMs,
    QString *error, const std::function<bool()> &cancelled)
{
    TimelineState state;
    state.reset(snapshot);
    EventQuery query;
    query.server = snapshot.server;
    query.sinceMs = snapshot.timeMs < 0 ? -1 : snapshot.timeMs;
    query.untilMs = timeMs;
    qint64 applied = 0;
    bool stopped = false;
    store.forEachEvent(
        query,
        [&](const RecordedEvent &e) {
            if (cancelled && (++applied & 0xfff) == 0 && cancelled()) {
                stopped = true;
                return false;
            }
            if (e.timeMs > snapshot.timeMs || snapshot.timeMs < 0)
                state.apply(e);
            return true;
        },
        error);
    if (stopped)
        *error = tr("cancelled");
    return state;
}

void TimelineState::carrySince(const TimelineState &earlier)
{
    for (auto lock = m_locks.begin(); lock != m_locks.end(); ++lock) {
        const auto before = earlier.m_locks.constFind(lock.key());
        if (before == earlier.m_locks.cend())
            continue;
        for (auto h = lock->holders.begin(); h != lock->holders.end(); ++h) {
            const auto was = before->holders.constFind(h.key());
            if (h->sinceMs < 0 && was != before->holders.cend() && was->sinceMs >= 0)
                h->sinceMs = was->sinceMs;
        }
    }
}

} // namespace LockScope
