#pragma once

#include "monitor/lockrecord.h"

#include <QString>

namespace LockScope::Bench {

// The big recording that bench_recording's questions and bench_replay's slider read: `events` of recordingworkload.h's
// events over the day before now, written in the recorder's batches with a snapshot every 100,000 events as a recorder
// keeps them. Returns the time of the middle of the day (epoch ms); middleOwner: the owner of the event there.
qint64 seedBig(const QString &path, qint64 events, int locks, QByteArray *middleOwner);

} // namespace LockScope::Bench
