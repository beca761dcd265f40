#pragma once

#include <QByteArray>
#include <QString>

class QCoreApplication;

// Takes the lock with the watchdog and holds it until the process is killed; prints "held OWNER" once it holds.
int holdUntilKilled(QCoreApplication &app, const QString &url, const QByteArray &lock, int watchdogMs);

// Random holds for the mutual-exclusion history check. One line per step on stdout, flushed at once so that a
// SIGKILL loses nothing already done, all times from the server's TIME in microseconds:
//   A LOCK OWNER T_BEFORE_ACQUIRE T_ACQUIRED LEASE_MS WATCHDOG(0|1)
//   R LOCK OWNER T_BEFORE_RELEASE OUTCOME(released|still-held|not-held|error)
//   L LOCK OWNER (the watchdog found the hold gone)
//   W LOCK (gave up waiting)
int runHistory(const QString &url, const QByteArray &prefix, int locks, int iterations, quint32 seed);
