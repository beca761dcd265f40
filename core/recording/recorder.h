#pragma once

#include "recording/recordedevent.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace LockScope {

class AuditFeed;
class LockMonitor;
class RecordingStore;
class TaskRelay;

// What a recorder keeps: where, for how long, how much, and which names only as hashes.
struct RecorderOptions
{
    QString path;
    qint64 retainMs = 7LL * 24 * 3600 * 1000;
    qint64 maxBytes = 1LL << 30;
    NameRedaction redaction;
    int flushMs = 250; // a batch a quarter second: a killed recorder loses at most that
    int pruneMs = 60 * 1000;
    // The lock table is kept whole this often, and after this many events, whichever comes first: "at 03:12"
    // replays from the snapshot before it.
    int snapshotMs = 5 * 60 * 1000;
    int snapshotEvents = 100000;
    QString auditLogPath; // LockScope's own actions followed into the timeline; empty: none
    // Events handed to the writer and not yet on disk, at most: past it (a disk or a database slower than the monitor
    // for long), what is gathered is left out and recorded as a gap, and memory stays bounded. About 270 bytes an
    // event (bench_recording).
    qint64 maxBacklogEvents = 1000000;
};

// Records everything a monitor reports into a recording (recordingstore.h): every event, every renewal unsampled
// (their gaps are the evidence of pauses), and the connection's gaps as gaps. Events
// are gathered on the monitor's thread and written by a thread of the recorder's own, one transaction per batch, so a
// slow disk never holds up the monitor (or the console's window). Work goes to that thread, and its answers come
// back, through TaskRelays (a std::mutex and an eventfd), never through Qt's cross-thread events, which
// ThreadSanitizer cannot follow into an uninstrumented QtCore.
class Recorder : public QObject
{
    Q_OBJECT
public:
    Recorder(const LockMonitor *monitor, QByteArray server, RecorderOptions options, QObject *parent = nullptr);
    ~Recorder() override;

    // Opens the file on the writer thread; opened() says how that went (an empty error: recording).
    void start();
    // Writes what is gathered now; done runs (on this thread) once it is on disk.
    void flush(std::function<void()> done = {});
    // Keeps the monitor's lock table now (after what is gathered).
    void snapshot();

    qint64 written() const { return m_written.load(); }
    qint64 dropped() const { return m_droppedTotal; } // left out while the writer was behind, in all
    qint64 dataBytes() const { return m_bytes.load(); }

signals:
    void opened(const QString &error);
    void writeFailed(const QString &error);
    // The writer fell too far behind: from now until it catches up, what is gathered is left out, and a gap in the
    // recording will say where. Once a stretch.
    void fellBehind();

private:
    void gather(const QList<RecordedEvent> &events);
    // The stretch left out while the writer was behind, as a gap's two rows (none when nothing was).
    QList<RecordedEvent> droppedGap();
    // Runs task on the writer thread, with the store only that thread touches.
    void toWriter(std::function<void(RecordingStore &)> task);

    const LockMonitor *m_monitor;
    QByteArray m_server;
    RecorderOptions m_options;
    QList<RecordedEvent> m_pending;
    QTimer m_flush;
    QTimer m_prune;
    QTimer m_snapshot;
    qint64 m_sinceSnapshot = 0; // events gathered since the last snapshot
    bool m_snapshotDue = true; // the next complete pass is kept: the first, and the first after a gap
    std::unique_ptr<AuditFeed> m_audit; // the writer thread's once it runs
    TaskRelay *m_back; // this thread's: the writer's answers come back through it
    std::thread m_thread;
    std::mutex m_startMutex;
    std::condition_variable m_started;
    // The writer thread's, set under m_startMutex once it runs, gone with it.
    TaskRelay *m_writer = nullptr;
    RecordingStore *m_store = nullptr;
    std::function<void()> m_quit;
    std::atomic<qint64> m_written { 0 };
    std::atomic<qint64> m_queued { 0 }; // handed to the writer, not yet written
    qint64 m_dropped = 0; // left out since the writer fell behind, not yet said in the recording
    qint64 m_droppedTotal = 0;
    qint64 m_droppedFromMs = -1;
    qint64 m_droppedToMs = -1;
    std::atomic<qint64> m_bytes { 0 };
    qint64 m_gapSinceMs = -1; // the connection is down since (epoch ms); -1: up
};

} // namespace LockScope
