#pragma once

#include "monitor/trackerjudgement.h"

namespace LockScope {

// A lock read again after its key was gone (deleted, or expired): whoever holds it now acquired it. When the hold
// before ended without a release anyone could see (it expired), a new owner took over from a holder that may still
// believe it holds the lock: owner-changed, and the double holder warning on the new hold.
class NewHoldJudge
{
public:
    // record: the lock as it was while gone (who held it last, and whether that hold ended in a release).
    static Judgement judge(const LockRecord &record, const LockInfo &read);
};

} // namespace LockScope
