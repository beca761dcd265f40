#pragma once

#include "monitor/holdendjudge.h"

namespace LockScope {

// Two reads of a lock held at both, with every holder replaced in between (or a deletion or expiry of the key seen
// between them): the old hold ended and a new one began. How the old one ended says whether the new holders took it
// over from someone who may still believe they hold it: owner-changed, with the double holder warning.
class TakeoverJudge
{
public:
    // Whether the hold changed hands between previous and now, rather than holders coming and going one by one
    // (HolderChangeJudge). A read-write lock's readers that all changed with no deletion among the key's events in
    // between took turns: the new ones joined before the old ones left.
    static bool applies(const LockInfo &previous, const LockInfo &now, const HoldEndJudge::Reading &reading);
    // The ends of the previous holds, then the new holders' acquisitions. deadlinePassed: the previous lease had run
    // out by the time of this read. coolDownOver: its holder had cut its TTL short in a layout whose unlock keeps the
    // key for a cool-down (HoldEndJudge::coolDownOver): its end was a release.
    static Judgement judge(const LockInfo &previous, const LockInfo &now, const HoldEndJudge::Reading &reading,
        bool deadlinePassed, bool coolDownOver = false);
};

} // namespace LockScope
