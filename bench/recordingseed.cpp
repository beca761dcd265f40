#include "recordingseed.h"

#include "benchcommon.h"
#include "recording/recordingstore.h"
#include "recordingworkload.h"

#include <QDateTime>
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

} // namespace LockScope::Bench
