#include "replay/replayengine.h"

#include "base/taskrelay.h"
#include "models/contentionviews.h"
#include "recording/recordedstats.h"
#include "recording/recordingstore.h"
#include "recording/timelinestate.h"

#include <QCoreApplication>

#include <limits>

namespace LockScope {

namespace {
// Forward by at most this much, the events in between are applied to the table as it stands; further, or backward,
// it is rebuilt from the snapshot before the moment (the recorder keeps one every 5 minutes).
constexpr qint64 kIncrementalMs = 10 * 60 * 1000;

QList<ReplayRow> rowsAt(const TimelineState &state, qint64 timeMs)
{
    QList<ReplayRow> rows;
    rows.reserve(state.locks().size());
    for (auto it = state.locks().cbegin(); it != state.locks().cend(); ++it) {
        ReplayRow row;
        row.name = it.key();
        row.kind = it->kind;
        row.library = it->library;
        qint64 since = -1;
        bool sinceKnown = true;
        for (auto h = it->holders.cbegin(); h != it->holders.cend(); ++h) {
            if (!h.key().isEmpty())
                row.owners << h.key();
            row.count += h->count;
            // The TTL a hold was last seen with, run down to the moment: the lease left then.
            // Holders of one key share its lease: the shortest known one is the lock's.
            const qint64 ttl = h->ttlMs > 0 ? qMax<qint64>(0, h->ttlMs - (timeMs - h->lastEventMs)) : h->ttlMs;
            if (h == it->holders.cbegin() || (ttl >= 0 && (row.ttlMs < 0 || ttl < row.ttlMs)))
                row.ttlMs = ttl;
            if (h->sinceMs < 0)
                sinceKnown = false;
            else if (since < 0 || h->sinceMs < since)
                since = h->sinceMs;
        }
        row.heldMs = sinceKnown && since >= 0 ? timeMs - since : -1;
        rows << row;
    }
    return rows;
}
} // namespace

ReplayEngine::ReplayEngine(QObject *parent)
    : QObject(parent)
    , m_relay(new TaskRelay(this))
    , m_state(std::make_unique<TimelineState>())
{
    qRegisterMetaType<ReplayFrame>();
    qRegisterMetaType<ReplayInfo>();
    qRegisterMetaType<ReplayHistory>();
    m_thread = std::thread([this] { run(); });
}

ReplayEngine::~ReplayEngine()
{
    // What the thread is reading stops at its next few thousand events: closing a window never waits for a replay.
    m_cancel.store(true);
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_jobs.clear();
        m_wantedFrame.reset();
        m_wantedContention.reset();
    }
    m_wake.notify_all();
    m_thread.join();
}

void ReplayEngine::post(Job job)
{
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_all();
}

void ReplayEngine::open(const QString &path)
{
    post([this, path] {
        ReplayInfo info;
        info.path = path;
        m_store = std::make_unique<RecordingStore>();
        m_stateMs = -1;
        if (m_store->open(path, false, &info.error)) {
            info.servers = m_store->servers();
            info.firstMs = m_store->firstTimeMs();
            info.lastMs = m_store->lastTimeMs();
            info.events = qMax<qint64>(0, m_store->eventCount());
        } else {
            m_store.reset();
        }
        m_relay->post([this, info] {
            if (m_server.isEmpty() && !info.servers.isEmpty())
                m_server = info.servers.first();
            emit opened(info);
        });
    });
}

void ReplayEngine::setServer(const QByteArray &server)
{
    m_server = server;
}

void ReplayEngine::seek(qint64 timeMs)
{
    ++m_requested;
    {
        std::lock_guard lock(m_mutex);
        m_wantedFrame = Wanted { m_server, timeMs, m_requested };
    }
    m_wake.notify_all();
}

void ReplayEngine::requestHistory(const QByteArray &name, qint64 aroundMs)
{
    const QByteArray server = m_server;
    post([this, name, aroundMs, server] {
        ReplayHistory history;
        history.name = name;
        history.server = server;
        history.aroundMs = aroundMs;
        if (!m_store) {
            history.error = tr("no recording is open");
        } else {
            // The events before the moment (a busy lock's last hours) and a few after it: the page shows where the
            // moment stands in its history. Where either side was cut, the range says so, and a moment past it asks
            // again.
            EventQuery before;
            before.name = name;
            before.server = server;
            before.withGaps = true;
            before.untilMs = aroundMs;
            before.newestFirst = true;
            before.limit = kHistoryBefore;
            history.events = m_store->events(before, &history.error);
            std::reverse(history.events.begin(), history.events.end());
            history.fromMs = history.events.size() < kHistoryBefore ? std::numeric_limits<qint64>::min()
                                                                    : history.events.first().timeMs;
            EventQuery after = before;
            after.untilMs = -1;
            after.sinceMs = aroundMs + 1;
            after.newestFirst = false;
            after.limit = kHistoryAfter;
            const QList<RecordedEvent> later = m_store->events(after, &history.error);
            history.toMs = later.size() < kHistoryAfter ? std::numeric_limits<qint64>::max() : later.last().timeMs;
            history.events << later;
        }
        m_relay->post([this, history] { emit historyReady(history); });
    });
}

void ReplayEngine::findNextEvent(const QByteArray &name, qint64 afterMs)
{
    const QByteArray server = m_server;
    post([this, name, afterMs, server] {
        qint64 at = -1;
        if (m_store) {
            EventQuery query;
            query.name = name;
            query.server = server;
            query.sinceMs = afterMs + 1;
            query.limit = 1;
            QString error;
            const QList<RecordedEvent> next = m_store->events(query, &error);
            at = next.isEmpty() ? -1 : next.first().timeMs;
        }
        m_relay->post([this, name, at] { emit nextEventFound(name, at); });
    });
}

void ReplayEngine::requestContention(qint64 timeMs, qint64 windowMs)
{
    {
        std::lock_guard lock(m_mutex);
        m_wantedContention = std::make_tuple(timeMs, windowMs, m_server);
    }
    m_wake.notify_all();
}

ReplayFrame ReplayEngine::buildFrame(const QByteArray &server, qint64 timeMs)
{
    ReplayFrame frame;
    frame.server = server;
    frame.timeMs = timeMs;
    if (!m_store) {
        frame.error = tr("no recording is open");
        return frame;
    }
    // Forward by a little, and past no snapshot: the events in between. A snapshot passed is replayed from (it
    // corrects what a gap left uncertain, as a jump to the same moment would), and holds the state before saw begin
    // keep their start.
    const qint64 snapshotMs = m_store->snapshotTimeAt(server, timeMs);
    const bool forward = m_stateMs >= 0 && m_stateServer == server && timeMs >= m_stateMs
        && timeMs - m_stateMs <= kIncrementalMs && snapshotMs <= m_stateSnapshotMs;
    if (forward) {
        if (timeMs > m_stateMs) {
            EventQuery query;
            query.server = server;
            query.sinceMs = m_stateMs + 1;
            query.untilMs = timeMs;
            query.withGaps = true;
            qint64 applied = 0;
            const bool ok = m_store->forEachEvent(
                query,
                [this, &applied](const RecordedEvent &e) {
                    if ((++applied & 0xfff) == 0 && m_cancel.load())
                        return false;
                    m_state->apply(e);
                    return true;
                },
                &frame.error);
            if (!ok || m_cancel.load()) {
                m_stateMs = -1;
                return frame;
            }
        }
    } else {
        RecordedSnapshot snapshot;
        snapshot.server = server;
        for (const RecordedSnapshot &s : m_store->snapshotsAt(timeMs, &frame.error))
            if (s.server == server)
                snapshot = s;
        if (!frame.error.isEmpty()) {
            m_stateMs = -1;
            return frame;
        }
        TimelineState rebuilt
            = TimelineState::at(*m_store, snapshot, timeMs, &frame.error, [this] { return m_cancel.load(); });
        if (!frame.error.isEmpty()) {
            m_stateMs = -1;
            return frame;
        }
        if (m_stateMs >= 0 && m_stateServer == server && m_stateMs <= timeMs)
            rebuilt.carrySince(*m_state);
        *m_state = std::move(rebuilt);
        m_stateSnapshotMs = snapshot.timeMs;
    }
    frame.snapshotMs = m_stateSnapshotMs;
    m_stateServer = server;
    m_stateMs = timeMs;
    frame.seen = m_state->seen();
    frame.unseenReason = m_state->unseenReason();
    frame.rows = rowsAt(*m_state, timeMs);
    EventQuery recent;
    recent.server = server;
    recent.untilMs = timeMs;
    recent.withGaps = true;
    recent.newestFirst = true;
    recent.limit = kRecentEvents;
    frame.recent = m_store->events(recent, &frame.error);
    return frame;
}

void ReplayEngine::run()
{
    for (;;) {
        Job job;
        std::optional<Wanted> wanted;
        std::optional<std::tuple<qint64, qint64, QByteArray>> contention;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty() || m_wantedFrame || m_wantedContention; });
            if (m_stop)
                break;
            // Jobs first: the recording is opened before a moment of it is rebuilt.
            if (!m_jobs.empty()) {
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            } else if (m_wantedFrame) {
                wanted.swap(m_wantedFrame);
            } else {
                // The table first: contention is read once the moment has settled.
                contention.swap(m_wantedContention);
            }
        }
        if (job) {
            job();
            continue;
        }
        if (contention) {
            const auto [timeMs, windowMs, server] = *contention;
            RecordedStatistics folded;
            QString error = m_store ? QString() : tr("no recording is open");
            QList<KeyedRow> rows;
            if (m_store
                && RecordedStatistics::fold(*m_store, "*", timeMs - windowMs, timeMs, &folded, &error, server,
                    [this] { return m_cancel.load(); }))
                rows = ContentionViews::hotRows(folded.statistics, timeMs, kHotRows);
            m_relay->post([this, timeMs = timeMs, rows, error] { emit contentionReady(timeMs, rows, error); });
            continue;
        }
        ReplayFrame frame = buildFrame(wanted->server, wanted->timeMs);
        // Shown even when newer moments are pending: a slider dragged for long still shows where it passes.
        m_relay->post([this, frame = std::move(frame), sequence = wanted->sequence] {
            m_answered = qMax(m_answered, sequence);
            emit frameReady(frame);
        });
    }
    // A Qt SQL connection is closed by the thread that opened it.
    m_store.reset();
}

} // namespace LockScope
