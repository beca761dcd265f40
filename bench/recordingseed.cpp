#include "recordingseed.h"

#include "benchcommon.h"
#include "recording/recordingstore.h"
#include "recordingworkload.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QMap>

namespace LockScope::Bench {

qint64 seedBig(const QString &path, qint64 events, int locks, QByteArray *middleOwner)
{
    RecordingStore store;
    QString error;
    if (!store.open(path, true, &error))
        fatal(error);
    const qint64 day = 24LL * 3600 * 1000;
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - day;
    const auto timeOf = [&](qint64 i) { return start + i * day / events; };
    QMap<QByteArray, RecordedHolding> table;
    QList<RecordedEvent> batch;
    const QByteArray server = "redis://127.0.0.1:1/0";
    for (qint64 i = 0; i < events; ++i) {
        const LockEvent e = eventAt(i, locks, timeOf(i));
        RecordedEvent row = RecordedEvent::fromLockEvent(e, server, nullptr);
        row.kind = "reentrant";
        row.library = "redisson";
        batch << row;
        if (e.type == LockEvent::Type::Released)
            table.remove(e.name);
        else
            table[e.name] = RecordedHolding { e.name, e.owner, 1, 30000, "reentrant", "redisson" };
        if (i == events / 2)
            *middleOwner = e.owner;
        if (batch.size() == 50000 || i == events - 1) {
            if (!store.append(batch, &error))
                fatal(error);
            batch.clear();
        }
        if (i % 100000 == 99999) {
            RecordedSnapshot s;
            s.server = server;
            s.timeMs = timeOf(i);
            s.holdings = table.values();
            if (!store.appendSnapshot(s, &error))
                fatal(error);
        }
    }
    return start + day / 2;
}

bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

qint64 rowsIn(const QString &path)
{
    RecordingStore store;
    QString error;
    return store.open(path, false, &error) ? store.eventCount() : -1;
}

namespace {
LockMonitor::Options idleMonitor()
{
    LockMonitor::Options options;
    options.pattern = "bench:rec:none:*"; // nothing to scan: the events are the workload
    return options;
}

RecorderOptions unbounded(const QString &path)
{
    RecorderOptions options;
    options.path = path;
    options.retainMs = -1;
    options.maxBytes = -1;
    return options;
}
} // namespace

WorkloadRecorder::WorkloadRecorder(const BenchServer &server, const QString &path)
    : m_monitor(server.options(), idleMonitor())
    , m_recorder(&m_monitor, server.url().toUtf8(), unbounded(path))
{
    QString openError = QStringLiteral("-");
    QObject::connect(&m_recorder, &Recorder::opened, [&](const QString &error) { openError = error; });
    m_recorder.start();
    m_monitor.start();
    if (!waitUntil([&] { return openError != QLatin1String("-") && m_monitor.isSnapshotComplete(); }, 60000))
        fatal(QStringLiteral("the recorder or its monitor did not start"));
    if (!openError.isEmpty())
        fatal(openError);
}

void WorkloadRecorder::send(qint64 from, qint64 to, int locks, qint64 baseMs)
{
    for (qint64 i = from; i < to; ++i)
        m_monitor.noteEvent(eventAt(i, locks, baseMs + i / 50));
}

void WorkloadRecorder::waitWritten()
{
    bool flushed = false;
    m_recorder.flush([&] { flushed = true; });
    if (!waitUntil([&] { return flushed; }, 600000))
        fatal(QStringLiteral("the recorder did not catch up"));
}

} // namespace LockScope::Bench
