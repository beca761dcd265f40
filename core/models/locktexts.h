#pragma once

#include "monitor/lockrecord.h"

#include <QCoreApplication>
#include <QString>

namespace LockScope {

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
};

} // namespace LockScope
