#pragma once

#include "clients/ownerdirectory.h"
#include "liveness/livenessjudge.h"

#include <QCoreApplication>
#include <QString>

namespace LockScope {

class HolderWatch;
struct LockHolder;
struct LockInfo;

// What a person reads of a holder before acting on its lock, as rich text: the verdict with its state in bold and
// every piece of its evidence, the connection that speaks for it, its renewals as numbers, and what releasing it
// would mean. The detail pane and the force release dialog say it alike, as lockscope-cli's show and force-release do.
class LivenessText
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::LivenessText)
public:
    // "Is its holder alive?", bold, above the verdicts.
    static QString headingHtml(int holders);
    // "<b>likely dead</b> (renewals stopped, its connection closed)" and the evidence as a list.
    static QString verdictHtml(const LivenessVerdict &verdict);
    // What releasing a lock of a holder in this state does, in a sentence.
    static QString releaseMeaning(LivenessVerdict::State state);
    // "Connection: orders-7 (10.0.3.17:53422), redisson 3.52.0, traced at 14:02:11 — gone: …", one line for each known
    // connection; how to name it when none is known.
    static QString connectionsHtml(const OwnerPresence &presence);
    // "Renewals: last 3.2 s ago, every 10.0 s, 0.0 missed", and the lock's owner changes seen.
    static QString renewalsHtml(const RenewalFigures &figures);
    // "12 more holders are not judged here", under the ones that are.
    static QString moreHoldersHtml(int more);
    // All of it for one holder of lock: the detail pane's part for it.
    static QString holderHtml(const HolderWatch &watch, const LockInfo &lock, const LockHolder &holder);
};

} // namespace LockScope
