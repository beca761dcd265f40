#include "recording/recorder.h"

#include "monitor/lockmonitor.h"
#include "recording/recordingstore.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QDateTime>

namespace LockScope {

Recorder::Recorder(const LockMonitor *monitor, QByteArray server, RecorderOptions options, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_server(std::move(server))
    , m_options(std::move(options))
    , m_store(std::make_shared<RecordingStore>())
{
    m_writer = new QObject;
    m_writer->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_writer, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("recorder"));
    m_flush.setInterval(m_options.flushMs);
    connect(&m_flush, &QTimer::timeout, this, [this] { flush(); });
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
    // What is gathered goes to disk before the writer stops: a clean stop loses nothing.
    // The store is closed on the thread that used it, after the batches queued before this one (this thread waits:
    // the recorder is going).
    const QList<RecordedEvent> rest = std::exchange(m_pending, {});
    if (m_thread.isRunning()) {
        QMetaObject::invokeMethod(
            m_writer,
            [this, rest] {
                QString error;
                if (m_store->isOpen())
                    m_store->append(rest, &error);
                m_store.reset();
            },
            Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

void Recorder::start()
{
    m_thread.start();
    std::shared_ptr<RecordingStore> store = m_store;
    const RecorderOptions options = m_options;
    QPointer<Recorder> self(this);
    QMetaObject::invokeMethod(m_writer, [self, store, options] {
        QString error;
        const bool ok = store->open(options.path, true, &error);
        const qint64 bytes = ok ? store->dataBytes() : 0;
        QMetaObject::invokeMethod(
            qApp,
            [self, ok, error, bytes] {
                if (!self)
                    return;
                self->m_bytes = bytes;
                if (ok)
                    self->m_flush.start();
                emit self->opened(ok ? QString() : error);
            },
            Qt::QueuedConnection);
    });
    // Retention while running: the oldest goes, on the writer thread.
    auto *prune = new QTimer(this);
    prune->setInterval(m_options.pruneMs);
    connect(prune, &QTimer::timeout, this, [this] {
        std::shared_ptr<RecordingStore> s = m_store;
        const RecorderOptions o = m_options;
        QMetaObject::invokeMethod(m_writer, [s, o] {
            QString error;
            if (s->isOpen())
                s->prune(QDateTime::currentMSecsSinceEpoch(), o.retainMs, o.maxBytes, &error);
        });
    });
    prune->start();
}

void Recorder::gather(const QList<RecordedEvent> &events)
{
    m_pending << events;
}

void Recorder::flush(std::function<void()> done)
{
    const QList<RecordedEvent> batch = std::exchange(m_pending, {});
    std::shared_ptr<RecordingStore> store = m_store;
    QPointer<Recorder> self(this);
    QMetaObject::invokeMethod(m_writer, [self, store, batch, done] {
        QString error;
        const bool ok = !store->isOpen() || store->append(batch, &error);
        const qint64 bytes = store->isOpen() ? store->dataBytes() : 0;
        QMetaObject::invokeMethod(
            qApp,
            [self, ok, error, bytes, n = batch.size(), done] {
                if (!self)
                    return;
                self->m_bytes = bytes;
                if (ok)
                    self->m_written += n;
                else
                    emit self->writeFailed(error);
                if (done)
                    done();
            },
            Qt::QueuedConnection);
    });
}

} // namespace LockScope
