#include "recording/recorder.h"

#include "base/taskrelay.h"
#include "monitor/lockmonitor.h"
#include "recording/recordingstore.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>

namespace LockScope {

Recorder::Recorder(const LockMonitor *monitor, QByteArray server, RecorderOptions options, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_server(std::move(server))
    , m_options(std::move(options))
    , m_back(new TaskRelay(this))
{
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
    });
}

Recorder::~Recorder()
{
    m_flush.stop();
    m_prune.stop();
    if (!m_thread.joinable())
        return;
    // What is gathered goes to disk before the writer stops: a clean stop loses nothing. The store closes on the
    // thread that used it, as the thread ends.
    const QList<RecordedEvent> rest = std::exchange(m_pending, {});
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
        m_back->post([this, ok, error, bytes] {
            m_bytes = bytes;
            if (ok) {
                m_flush.start();
                m_prune.start();
            }
            emit opened(ok ? QString() : error);
        });
    });
}

void Recorder::gather(const QList<RecordedEvent> &events)
{
    m_pending << events;
}

void Recorder::flush(std::function<void()> done)
{
    if (m_pending.isEmpty() && !done)
        return; // nothing to write: the writer is not woken four times a second for nothing
    const QList<RecordedEvent> batch = std::exchange(m_pending, {});
    toWriter([this, batch, done](RecordingStore &store) {
        QString error;
        const bool ok = !store.isOpen() || store.append(batch, &error);
        const qint64 bytes = store.isOpen() ? store.dataBytes() : 0;
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
