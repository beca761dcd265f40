#include "recording/recordedstats.h"

#include "kinds/keyglob.h"
#include "kinds/locklayouts.h"
#include "monitor/lockrecord.h"
#include "recording/recordingstore.h"

#include <QCoreApplication>

namespace LockScope {

namespace {
LockInfo::Kind kindOf(const QByteArray &id)
{
    for (const LockLayout *layout : LockLayouts::all())
        if (layout->id() == id)
            return layout->kind();
    return LockInfo::Kind::Unknown;
}
} // namespace

bool RecordedStatistics::fold(const RecordingStore &store, const QByteArray &pattern, qint64 sinceMs, qint64 untilMs,
    RecordedStatistics *out, QString *error, const QByteArray &server, const std::function<bool()> &cancelled)
{
    out->fromMs = sinceMs >= 0 ? sinceMs : store.firstTimeMs();
    out->untilMs = untilMs >= 0 ? untilMs : store.lastTimeMs();
    out->statistics = LockStatistics({}, out->fromMs);
    EventQuery query;
    query.sinceMs = sinceMs;
    query.untilMs = untilMs;
    query.server = server;
    LockInfo info;
    bool stopped = false;
    qint64 read = 0;
    const bool done = store.forEachEvent(
        query,
        [&](const RecordedEvent &row) {
            if (cancelled && (++read & 0xfff) == 0 && cancelled()) {
                stopped = true;
                return false;
            }
            if (row.type == "gap-start") {
                ++out->gaps;
                return true;
            }
            LockEvent e;
            if (row.name.isEmpty() || !globMatch(pattern, row.name) || !row.toLockEvent(&e))
                return true;
            info.name = row.name;
            info.kind = kindOf(row.kind);
            info.library = row.library;
            out->statistics.addEvent(e, &info, FigureSource::Measured);
            ++out->events;
            return true;
        },
        error);
    if (stopped)
        *error = QCoreApplication::translate("LockScope::TimelineState", "cancelled");
    return done && !stopped;
}

} // namespace LockScope
