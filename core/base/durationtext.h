#pragma once

#include <QString>

namespace LockScope {

// A duration a person reads at a glance: "28.0 s", "14 min 57 s", "3 h 2 min"; "none" for a negative one. Every
// layer says durations alike (the console, the CLI, the liveness evidence).
QString durationText(qint64 ms);

} // namespace LockScope
