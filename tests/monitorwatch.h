#pragma once

#include "monitor/lockmonitor.h"

#include <QSignalSpy>
#include <QTest>

namespace LockScope::Test {

// Small SCAN pages (several rounds), quick re-scans and TTL polls: a live test sees changes within a poll or two.
inline LockMonitor::Options fastMonitorOptions(const QByteArray &pattern)
{
    LockMonitor::Options o;
    o.pattern = pattern;
    o.scanCount = 50;
    o.rescanIntervalMs = 200;
    o.ttlPollIntervalMs = 100;
    return o;
}

// A LockMonitor under test with every event it reported, and waits that poll with a deadline.
class MonitorWatch
{
public:
    MonitorWatch(const ConnectionOptions &options, LockMonitor::Options monitorOptions)
        : monitor(options, monitorOptions)
    {
        QObject::connect(
            &monitor, &LockMonitor::eventsOccurred, [this](const QList<LockEvent> &batch) { events << batch; });
        QObject::connect(
            &monitor, &LockMonitor::errorOccurred, [this](const RedisError &error) { errors << error.toString(); });
    }

    // Starts and waits for the first snapshot and the update mode.
    bool start(int timeoutMs = 20000)
    {
        QSignalSpy snapshot(&monitor, &LockMonitor::snapshotFinished);
        monitor.start();
        bool ok = false;
        [&] {
            QTRY_COMPARE_WITH_TIMEOUT(snapshot.size(), 1, timeoutMs);
            QTRY_VERIFY_WITH_TIMEOUT(monitor.mode() != LockEventFeed::Mode::Starting, timeoutMs);
            ok = !snapshot.first().first().value<RedisError>().isError();
        }();
        return ok;
    }

    // The first event of this type for this lock after index `from`, or -1.
    int find(LockEvent::Type type, const QByteArray &name, int from = 0) const
    {
        for (int i = from; i < events.size(); ++i)
            if (events.at(i).type == type && events.at(i).name == name)
                return i;
        return -1;
    }

    bool waitFor(LockEvent::Type type, const QByteArray &name, int from = 0, int timeoutMs = 60000)
    {
        bool found = false;
        [&] { QTRY_VERIFY_WITH_TIMEOUT((found = find(type, name, from) >= 0), timeoutMs); }();
        return found;
    }

    QList<LockEvent::Type> typesFor(const QByteArray &name) const
    {
        QList<LockEvent::Type> types;
        for (const LockEvent &e : events)
            if (e.name == name)
                types << e.type;
        return types;
    }

    LockMonitor monitor;
    QList<LockEvent> events;
    QStringList errors;
};

} // namespace LockScope::Test
