#include "recording/recordedstats.h"

#include "kinds/keyglob.h"
#include "kinds/locklayouts.h"
#include "monitor/lockrecord.h"
#include "recording/recordingstore.h"

#include <QHash>

#include <optional>

namespace LockScope {

namespace {
std::optional<LockEvent::Type> typeOf(const QByteArray &name)
{
    static const QHash<QByteArray, LockEvent::Type> types = [] {
        QHash<QByteArray, LockEvent::Type> all;
        for (LockEvent::Type t : { LockEvent::Type::Acquired, LockEvent::Type::Reentered, LockEvent::Type::Released,
                 LockEvent::Type::Renewed, LockEvent::Type::Expired, LockEvent::Type::ForceReleased,
                 LockEvent::Type::OwnerChanged, LockEvent::Type::QueueChanged, LockEvent::Type::Lost,
                 LockEvent::Type::WakeUpMissed })
            all.insert(LockEvent::typeName(t), t);
        return all;
    }();
    const auto it = types.constFind(name);
    return it == types.cend() ? std::nullopt : std::optional(*it);
}

LockInfo::Kind kindOf(const QByteArray &id)
{
    for (const LockLayout *layout : LockLayouts::all())
        if (layout->id() == id)
            return layout->kind();
    return LockInfo::Kind::Unknown;
}
} // namespace

bool RecordedStatistics::fold(const RecordingStore &store, const QByteArray &pattern, qint64 sinceMs, qint64 untilMs,
    RecordedStatistics *out, QString *error)
{
    out->fromMs = sinceMs >= 0 ? sinceMs : store.firstTimeMs();
    out->untilMs = untilMs >= 0 ? untilMs : store.lastTimeMs();
    out->statistics = LockStatistics({}, out->fromMs);
    EventQuery query;
    query.sinceMs = sinceMs;
    query.untilMs = untilMs;
    LockInfo info;
    return store.forEachEvent(
        query,
        [&](const RecordedEvent &row) {
            if (row.type == "gap-start") {
                ++out->gaps;
                return true;
            }
            const std::optional<LockEvent::Type> type = typeOf(row.type);
            if (!type || row.name.isEmpty() || !globMatch(pattern, row.name))
                return true;
            LockEvent e;
            e.timeMs = row.timeMs;
            e.type = *type;
            e.name = row.name;
            e.owner = row.owner;
            e.previousOwner = row.previousOwner;
            e.count = row.count;
            e.ttlMs = row.ttlMs;
            e.lateMs = row.lateMs;
            e.detail = row.detail;
            info.name = row.name;
            info.kind = kindOf(row.kind);
            info.library = row.library;
            out->statistics.addEvent(e, &info, FigureSource::Measured);
            ++out->events;
            return true;
        },
        error);
}

} // namespace LockScope
