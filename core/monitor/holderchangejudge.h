#pragma once

#include "monitor/trackerjudgement.h"

namespace LockScope {

// Two reads of a lock held at both by some of the same holders: reentrancy levels taken and given back, and a
// read-write lock's readers coming and going one by one while others stay. Nobody took over from anyone, so it
// never warns.
class HolderChangeJudge
{
public:
    struct Verdict
    {
        Judgement judgement;
        bool holdersChanged = false; // someone joined or left: a new hold as far as renewals go
        bool countsChanged = false; // a holder's level moved
    };
    static Verdict judge(const LockInfo &previous, const LockInfo &now);
};

} // namespace LockScope
