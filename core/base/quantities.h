#pragma once

#include <QString>

namespace LockScope {

// What people type for amounts, in policy files and on the command line alike.

// "90s", "5m", "2h", "1d", "250ms", or a bare number of seconds; -1 when it is none of those.
qint64 parseDurationMs(const QString &text);
// "500M", "2G", "64K" (powers of 1024), or a bare number of bytes; -1 when it is none of those.
qint64 parseSizeBytes(const QString &text);
// A moment: ISO 8601 with a zone ("2026-11-26T03:12:00Z", "…+08:00") or epoch milliseconds; -1 when it is neither.
qint64 parseTimeMs(const QString &text);

} // namespace LockScope
