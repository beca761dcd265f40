#pragma once

#include "redis/connectionoptions.h"

#include <QObject>

#include <memory>
#include <vector>

class QSocketNotifier;

namespace LockScope {
class LockClient;
struct AcquireResult;
} // namespace LockScope

namespace LockScope::Bench {

struct HandoffWorkerOptions
{
    ConnectionOptions connection;
    QByteArray name;
    qint64 leaseMs = 10000;
    double seconds = 2;
};

// One contender of bench_handoff, in its own process with its own client id. It connects, says "ready",
// waits for "go" on stdin, then acquires (waiting on pub/sub), releases at once and repeats until its time is
// up. It prints its events when done, "<kind> <ns>" per line on the CLOCK_MONOTONIC clock every process shares:
//   W  acquire() called        A  acquire reply arrived, lock held        R  release about to be sent
// Nothing is printed while measuring, so writing the log costs the contest nothing.
class HandoffWorker : public QObject
{
    Q_OBJECT
public:
    explicit HandoffWorker(HandoffWorkerOptions options, QObject *parent = nullptr);
    ~HandoffWorker() override;

    void start();

private:
    struct Event
    {
        char kind;
        qint64 ns;
    };

    void onStdin();
    void acquireNext();
    void onAcquired(const AcquireResult &result);
    void finish();

    HandoffWorkerOptions m_options;
    std::unique_ptr<LockClient> m_client;
    QSocketNotifier *m_stdin = nullptr;
    QByteArray m_input;
    QByteArray m_token;
    bool m_started = false;
    bool m_abandoned = false;
    qint64 m_deadlineNs = 0;
    std::vector<Event> m_events;
};

// --worker mode of bench_handoff.
int runHandoffWorker(const HandoffWorkerOptions &options);

} // namespace LockScope::Bench
