#pragma once

#include <QList>

namespace LockScope::Bench {

// CPU time, for telling where a snapshot's wall time goes on a small machine: the monitor's process, or the servers.

// User + system CPU of this process so far, in ms.
double selfCpuMs();
// The redis-server children of this process listening on these ports (one pid per port found; a server the bench did
// not start is not found).
QList<qint64> childServerPids(const QList<quint16> &ports);
// User + system CPU of these processes so far, in ms (a process that is gone counts 0).
double processesCpuMs(const QList<qint64> &pids);

} // namespace LockScope::Bench
