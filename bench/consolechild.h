#pragma once

#include <QtGlobal>

namespace LockScope::Bench {

// bench_console's measured side runs in fresh processes of its own, so a cold start is a cold start: nothing of the
// parent's seeding or server start-up is in the process, and nothing of one run's caches helps the next. The
// parent starts this program again with a hidden --child option:
//   warmup   a console window shown once, not measured: the disk cache then holds the libraries, the platform plugin
//            and the fonts for both measured runs alike, not only for the second
//   console  LockScope's MainWindow with a LockMonitor on the seeded server
//   plain    the baseline: a QTableView over a trivial model with the same rows, in the same procedure
// Each prints lines for people, then one JSON object as its last line, which the parent reads.
bool isChildInvocation(int argc, char *argv[]);
// mainNs: nowNs() at the very top of main(), where the cold start begins.
int runChild(int argc, char *argv[], qint64 mainNs);

} // namespace LockScope::Bench
