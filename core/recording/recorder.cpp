#include "recording/recorder.h"

#include "base/taskrelay.h"
#include "monitor/lockmonitor.h"
#include "recording/auditfeed.h"
#include "recording/recordingstore.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>

#include <limits>

namespace LockScope {

Recorder::Recorder(const LockMonitor *monitor, QByteArray server, RecorderOptions options, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_server(std::move(server))
    , m_options(std::move(options))
    , m_back(new TaskRelay(this))
{
    if (!m_options.auditLogPath.isEmpty())
        m_audit = std::make_unique<AuditFeed>(m_options.auditLogPath, m_server);
    m_snapshot.setInterval(m_options.snapshotMs);
    connect(&m_snapshot, &QTimer::timeout, this, &Recorder::snapshot);
    // A complete pass is a lock table worth keeping when none is kept yet, or none since the connection came back.
    connect(m_monitor, &LockMonitor::snapshotFinished, this, [this](const RedisError &error) {
        if (!error.isError() && m_snapshotDue)
            snapshot();
    });
    m_flush.setInterval(m_options.flushMs);
    connect(&m_flush, &QTimer::timeout, this, [this] { flush(); });
    m_prune.setInterval(m_options.pruneMs);
    // Retention while running: the oldest goes, on the writer thread.
    connect(&m_prune, &QTimer::timeout, this, [this] {
        const RecorderOptions o = m_options;
        toWriter([o](RecordingStore &store) {
            QString error;
            if (store.isOpen())
                store.prune(QDateTime::currentMSecsSinceEpoch(), o.retainMs, o.maxBytes, &error);
        });
    });
    connect(m_monitor, &LockMonitor::eventsOccurred, this, [this](const QList<LockEvent> &events) {
        QList<RecordedEvent> rows;
        rows.reserve(events.size());
        for (const LockEvent &e : events) {
            const LockRecord *r = m_monitor->record(e.name);
            RecordedEvent row = RecordedEvent::fromLockEvent(e, m_server, r ? &r->info : nullptr);
            row.name = m_options.redaction.apply(row.name);
            rows << row;
        }
        gather(rows);
        m_sinceSnapshot += rows.size();
        if (m_sinceSnapshot >= m_options.snapshotEvents && !m_snapshotDue)
            snapshot();
    });
    // What could not be seen is recorded as not seen: a gap from the moment the connection went until it is back,
    // never events made up for it.
    RedisRouter *connection = m_monitor->connection();
    connect(connection, &RedisCommander::disconnected, this, [this](const RedisError &error) {
        if (m_gapSinceMs >= 0)
            return;
        m_gapSinceMs = QDateTime::currentMSecsSinceEpoch();
        RecordedEvent gap;
        gap.timeMs = m_gapSinceMs;
        gap.server = m_server;
        gap.type = "gap-start";
        gap.detail = error.message();
        gather({ gap });
    });
    connect(connection, &RedisCommander::ready, this, [this] {
        if (m_gapSinceMs < 0)
            return;
        RecordedEvent gap;
        gap.timeMs = QDateTime::currentMSecsSinceEpoch();
        gap.server = m_server;
        gap.type = "gap-end";
        gap.detail = QString::number(gap.timeMs - m_gapSinceMs);
        m_gapSinceMs = -1;
        gather({ gap });
        m_snapshotDue = true;
    });
}

Recorder::~Recorder()
{
    m_flush.stop();
    m_prune.stop();
    m_snapshot.stop();
    if (!m_thread.joinable())
        return;
    // What is gathered goes to disk before the writer stops: a clean stop loses nothing. The store closes on the
    // thread that used it, as the thread ends.
    const QList<RecordedEvent> rest = droppedGap() + std::exchange(m_pending, {});
    toWriter([this, rest](RecordingStore &store) {
        QString error;
        if (store.isOpen())
            store.append(rest, &error);
        m_quit();
    });
    m_thread.join();
}

void Recorder::toWriter(std::function<void(RecordingStore &)> task)
{
    if (!m_writer)
        return;
    m_writer->post([this, task = std::move(task)] { task(*m_store); });
}

void Recorder::start()
{
    m_thread = std::thread([this] {
        QEventLoop loop; // first: it gives this thread its event dispatcher
        TaskRelay relay;
        RecordingStore store;
        {
            std::lock_guard<std::mutex> lock(m_startMutex);
            m_writer = &relay;
            m_store = &store;
            m_quit = [&loop] { loop.quit(); };
        }
        m_started.notify_all();
        loop.exec();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    });
    {
        std::unique_lock<std::mutex> lock(m_startMutex);
        m_started.wait(lock, [this] { return m_writer != nullptr; });
    }
    const QString path = m_options.path;
    toWriter([this, path](RecordingStore &store) {
        QString error;
        const bool ok = store.open(path, true, &error);
        const qint64 bytes = ok ? store.dataBytes() : 0;
        if (ok && m_audit) {
            // Taken up after the newest audit record this recording already has.
            EventQuery last;
            last.server = m_server;
            last.types = { "audit" };
            last.newestFirst = true;
            last.limit = 1;
            QString ignored;
            const QList<RecordedEvent> newest = store.events(last, &ignored);
            // A recording without any starts from its own first event (a new one: from now), not the log's past.
            const qint64 first = store.firstTimeMs();
            m_audit->skipUntil(!newest.isEmpty() ? newest.first().timeMs
                    : first >= 0                 ? first - 1
                                                 : QDateTime::currentMSecsSinceEpoch());
        }
        m_back->post([this, ok, error, bytes] {
            m_bytes = bytes;
            if (ok) {
                m_flush.start();
                m_prune.start();
                m_snapshot.start();
                if (m_monitor->isSnapshotComplete())
                    snapshot(); // started beside a monitor already running (the console's toggle)
            }
            emit opened(ok ? QString() : error);
        });
    });
}

void Recorder::snapshot()
{
    m_snapshotDue = false;
    m_sinceSnapshot = 0;
    RecordedSnapshot table;
    table.server = m_server;
    table.timeMs = QDateTime::currentMSecsSinceEpoch();
    const qint64 now = monotonicMs();
    for (const QByteArray &name : m_monitor->lockNames()) {
        const LockRecord *r = m_monitor->record(name);
        if (!r)
            continue;
        RecordedHolding h;
        h.name = m_options.redaction.apply(name);
        h.kind = LockInfo::kindName(r->info.kind);
        h.library = r->info.library;
        h.ttlMs = r->deadlineMs < 0 ? -1 : r->remainingMs(now);
        if (r->info.holders.isEmpty()) {
            table.holdings << h; // it exists, nobody holds it (a latch, a free semaphore)
            continue;
        }
        for (const LockHolder &holder : r->info.holders) {
            h.owner = holder.owner;
            h.count = holder.count;
            table.holdings << h;
        }
    }
    flush(); // the events before it go first
    toWriter([this, table](RecordingStore &store) {
        QString error;
        if (store.isOpen() && !store.appendSnapshot(table, &error))
            m_back->post([this, error] { emit writeFailed(error); });
    });
}

void Recorder::gather(const QList<RecordedEvent> &events)
{
    m_pending << events;
}

QList<RecordedEvent> Recorder::droppedGap()
{
    if (m_dropped == 0)
        return {};
    RecordedEvent start, end;
    start.server = end.server = m_server;
    start.type = "gap-start";
    start.timeMs = m_droppedFromMs;
    start.detail = tr("the recorder fell behind what the monitor saw: %n event(s) not kept", nullptr,
        int(qMin<qint64>(m_dropped, std::numeric_limits<int>::max())));
    end.type = "gap-end";
    end.timeMs = m_droppedToMs;
    end.detail = QString::number(m_droppedToMs - m_droppedFromMs);
    m_dropped = 0;
    return { start, end };
}

void Recorder::flush(std::function<void()> done)
{
    if (m_pending.isEmpty() && !done && !m_audit)
        return; // nothing to write: the writer is not woken four times a second for nothing
    QList<RecordedEvent> gathered = std::exchange(m_pending, {});
    if (m_writer && !gathered.isEmpty() && m_queued.load() + gathered.size() > m_options.maxBacklogEvents) {
        // The writer is that far behind: these are left out rather than held in memory without end, and the
        // recording will say so as a gap (never as events made up for it).
        const bool first = m_dropped == 0;
        if (first)
            m_droppedFromMs = gathered.first().timeMs;
        m_droppedToMs = gathered.last().timeMs;
        m_dropped += gathered.size();
        m_droppedTotal += gathered.size();
        if (first)
            emit fellBehind();
        gathered.clear();
        if (!done)
            return;
    } else if (m_dropped > 0 && !gathered.isEmpty()) {
        gathered = droppedGap() + gathered;
        m_snapshotDue = true; // what was left out is corrected by the next complete pass
    }
    m_queued += gathered.size();
    toWriter([this, gathered, done](RecordingStore &store) {
        QString error;
        QList<RecordedEvent> batch = gathered;
        if (m_audit && store.isOpen())
            batch << m_audit->readNew(m_options.redaction);
        if (batch.isEmpty() && !done)
            return;
        const bool ok = !store.isOpen() || store.append(batch, &error);
        const qint64 bytes = store.isOpen() ? store.dataBytes() : 0;
        m_queued -= gathered.size();
        m_back->post([this, ok, error, bytes, n = batch.size(), done] {
            m_bytes = bytes;
            if (ok)
                m_written += n;
            else
                emit writeFailed(error);
            if (done)
                done();
        });
    });
    if (!m_writer && done)
        done(); // never started: nothing to wait for
}

} // namespace LockScope
