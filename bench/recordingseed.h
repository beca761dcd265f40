#pragma once

#include "monitor/lockmonitor.h"
#include "recording/recorder.h"

#include <functional>

#include <QString>

namespace LockScope::Bench {

// The big recording that bench_recording's questions and bench_replay's slider read: `events` of recordingworkload.h's
// events over the day before now, written in the recorder's batches with a snapshot every 100,000 events as a recorder
// keeps them. Returns the time of the middle of the day (epoch ms); middleOwner: the owner of the event there.
qint64 seedBig(const QString &path, qint64 events, int locks, QByteArray *middleOwner);

// Runs the event loop until done() or timeoutMs; false on the timeout.
bool waitUntil(const std::function<bool()> &done, int timeoutMs);
// The events a recording holds (-1: it cannot be read).
qint64 rowsIn(const QString &path);

class BenchServer;

// The recorder as lockscope-cli record runs it (a LockMonitor handing its events to a Recorder writing on its own
// thread), fed by a monitor that scans nothing: the events handed to it are the workload. Started and recording once
// constructed (fatal otherwise).
class WorkloadRecorder
{
public:
    WorkloadRecorder(const BenchServer &server, const QString &path);
    // The workload's events [from, to) (recordingworkload.h), stamped from baseMs on.
    void send(qint64 from, qint64 to, int locks, qint64 baseMs);
    // Until everything sent is on disk.
    void waitWritten();

private:
    LockMonitor m_monitor;
    Recorder m_recorder;
};

} // namespace LockScope::Bench
