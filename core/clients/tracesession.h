#pragma once

#include "base/rediserror.h"
#include "clients/tracefindings.h"
#include "clients/tracereader.h"
#include "redis/connectionoptions.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace LockScope {

class RedisConnection;
class RedisRouter;
class RedisValue;

// An opt-in trace: MONITOR on every master (or the one server) for a bounded time, then CLIENT LIST, giving who each
// lock holder and waiter is (TraceFindings). MONITOR copies every command the server runs to this client, which costs
// the server CPU and bandwidth while it runs: the session measures that cost (INFO cpu before and after) and stops by
// itself when its time is up. It needs the monitor right (+monitor, in @admin and @dangerous); without it the trace
// is refused, with the right named, and nothing more is sent.
//
// Each node gets two connections of the session's own, named lockscope-trace: one for MONITOR, one for INFO and
// CLIENT LIST. Neither shows in the findings, nor do the router's own connections. At the end (its time is up, or
// stop()) MONITOR is read up to a mark the session sends (INFO of a section no server has), so that every command run
// before the end counts though its line was still on its way; then MONITOR closes, and INFO cpu and CLIENT LIST are
// read. A node that cannot be reached or drops is a partial reason and the others go on; when none can be reached,
// finished() carries the error.
class TraceSession : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 maxDurationMs = 300000;
    static constexpr int defaultMaxEntries = 100000;
    static constexpr const char *connectionName = "lockscope-trace";

    // router: the deployment to trace (opened here if it is not yet); it must outlive the session. durationMs: how
    // long MONITOR runs once every node runs it (1 ms to maxDurationMs).
    TraceSession(RedisRouter *router, qint64 durationMs, QObject *parent = nullptr);
    ~TraceSession() override;

    // Before start(): at most this many sightings and as many retrier candidates are kept (default 100000).
    void setMaxEntries(int maxEntries);
    // Reads INFO (run_id, CPU) on each node, then starts MONITOR on each: started() once every node runs it.
    void start();
    // Ends early with what it has; before started(), with nothing traced.
    void stop();

    bool isRunning() const { return m_state == State::Running; }
    bool isFinished() const { return m_state == State::Finished; }
    qint64 durationMs() const { return m_durationMs; }
    // "host:port" of every node traced (once started() came): the masters, or the one server.
    QList<QByteArray> nodes() const;

signals:
    void started();
    // Exactly once. error set: nothing was traced (refused, or no node could be reached); findings are then empty.
    void finished(const LockScope::TraceFindings &findings, const LockScope::RedisError &error);

private:
    enum class State { Idle, Preparing, Running, Ending, Finished };
    struct Node
    {
        QByteArray name; // "host:port"
        ConnectionOptions options;
        RedisConnection *info = nullptr; // INFO and CLIENT LIST
        RedisConnection *monitor = nullptr;
        QSet<qint64> infoIds; // CLIENT ID of the session's own connections: left out of the listing
        qint64 monitorId = -1;
        QSet<qint64> lockscopeIds; // the router's own connections to the node: LockScope's too
        QByteArray runId;
        double cpuBeforeS = -1; // used_cpu_user + used_cpu_sys
        double cpuAfterS = -1;
        bool monitoring = false; // MONITOR answered +OK
        bool down = false;
        bool endRead = false; // the end's INFO and CLIENT LIST answered (or failed)
        RedisError error;
    };

    void beginNodes();
    void openInfo(Node *node);
    void readBefore(Node *node);
    void startMonitor(Node *node);
    void onMonitorValue(Node *node, const RedisValue &value);
    void refused(Node *node, const RedisValue &reply);
    void nodeDown(Node *node, const RedisError &error);
    void checkStarted();
    void end();
    void stopMonitor(Node *node);
    int drainDeadlineMs() const;
    void readAfter(Node *node);
    void checkEnded();
    void closeNode(Node *node);
    void finish(const RedisError &error);
    QByteArray findingsNode(const Node *node) const; // empty on a single server

    RedisRouter *m_router;
    qint64 m_durationMs;
    int m_maxEntries = defaultMaxEntries;
    State m_state = State::Idle;
    bool m_cluster = false;
    std::vector<std::unique_ptr<Node>> m_nodes;
    TraceReader m_reader;
    TraceFindings m_findings;
    QTimer m_timer; // the trace's duration
    QTimer m_deadline; // MONITOR's answer, its catching up at the end, and the end's reads, each within this
    QByteArray m_endMark; // the INFO section the end sends: its MONITOR line says everything before it was read
    QElapsedTimer m_wall;
};

} // namespace LockScope
