#pragma once

#include "models/keyedtablemodel.h"
#include "replay/replayframe.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

namespace LockScope {

class RecordingStore;
class TaskRelay;
class TimelineState;

// A recording replayed (docs/recording.md#replay): the lock table of one server at any moment, rebuilt on a thread of
// the engine's own from the snapshot before the moment and the events after it, so dragging a slider over a recording
// of millions of events never holds up a window. Moments asked for faster than they are rebuilt are coalesced: only
// the newest is answered. Moving forward applies only the events in between. It only reads.
class ReplayEngine : public QObject
{
    Q_OBJECT
public:
    explicit ReplayEngine(QObject *parent = nullptr);
    ~ReplayEngine() override;

    // Opens the recording on the engine's thread; opened() says what it holds (or why it cannot be read).
    void open(const QString &path);
    // The server whose table the frames show (a recording may hold several); the first one by default.
    void setServer(const QByteArray &server);
    QByteArray server() const { return m_server; }
    // The table at timeMs (epoch ms): frameReady() brings it. Only the newest of several pending moments is rebuilt.
    void seek(qint64 timeMs);
    // Whether a moment asked for is not shown yet.
    bool busy() const { return m_answered < m_requested; }
    // One lock's events on the current server around a moment, for its history page: historyReady() brings them.
    void requestHistory(const QByteArray &name, qint64 aroundMs);
    // The first event of the lock after afterMs on the current server; nextEventFound() says when (-1: none).
    void findNextEvent(const QByteArray &name, qint64 afterMs);

    // The Hot view of the window of windowMs before timeMs, folded from the recording as live statistics fold the
    // monitor's events; coalesced as moments are. contentionReady() brings it.
    void requestContention(qint64 timeMs, qint64 windowMs);

    static constexpr int kRecentEvents = 200;
    static constexpr int kHotRows = 50;
    static constexpr int kHistoryBefore = 20000;
    static constexpr int kHistoryAfter = 2000;

signals:
    void opened(const LockScope::ReplayInfo &info);
    void frameReady(const LockScope::ReplayFrame &frame);
    void historyReady(const LockScope::ReplayHistory &history);
    void nextEventFound(const QByteArray &name, qint64 timeMs);
    void contentionReady(qint64 timeMs, const QList<LockScope::KeyedRow> &rows, const QString &error);

private:
    using Job = std::function<void()>; // runs on the engine's thread
    struct Wanted
    {
        QByteArray server;
        qint64 timeMs = -1;
        quint64 sequence = 0;
    };
    void post(Job job);
    void run();
    ReplayFrame buildFrame(const QByteArray &server, qint64 timeMs);

    QByteArray m_server;
    quint64 m_requested = 0; // the moments asked for (the UI thread's count)
    quint64 m_answered = 0; // the newest of them a frame answered
    TaskRelay *m_relay;

    // Shared with the engine's thread, under m_mutex.
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_jobs;
    std::optional<Wanted> m_wantedFrame; // the newest moment asked for
    std::optional<std::tuple<qint64, qint64, QByteArray>> m_wantedContention; // its moment, window and server
    bool m_stop = false;
    std::atomic<bool> m_cancel = false; // the engine goes: what is being read stops

    // The engine's thread's own.
    std::unique_ptr<RecordingStore> m_store;
    std::unique_ptr<TimelineState> m_state;
    QByteArray m_stateServer;
    qint64 m_stateMs = -1; // the moment m_state stands at; -1: none
    qint64 m_stateSnapshotMs = -1;
    std::thread m_thread;
};

} // namespace LockScope
