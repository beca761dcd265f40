#pragma once

#include "monitor/lockrecord.h"

#include <QCoreApplication>
#include <QString>

namespace LockScope {

struct LockStats;

// The words for a lock's kind, its watchdog, a duration and how a gone lock ended, as the lock table shows them and
// the detail pane and the force release dialog repeat them. Their translations were filed under the table's context,
// where they were first written, and stay there.
class LockTexts
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::LockTableModel)
public:
    static QString kindText(LockInfo::Kind kind);
    static QString watchdogText(WatchdogGuess guess);
    // The console's own hold: whether its watchdog renews it is known, not guessed.
    static QString ownWatchdogText(bool on);
    static QString durationText(qint64 ms);
    // How a lock that is gone ended, from its timeline: "released", "expired", "force-released", "lost" or "gone".
    static QString endingText(const LockRecord &record);
    // How long its waiters waited (p50, p95, max, and the longest wait going on), how that was timed and from how many
    // waits: the Hot view's tooltip and the detail pane's line (issue 47). Empty when nobody has waited.
    static QString waitsText(const LockStats &stats, qint64 nowMs);
};

} // namespace LockScope
