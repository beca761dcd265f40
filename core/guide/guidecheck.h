#pragma once

#include "guide/guiderecord.h"
#include "guide/scenario.h"

#include <QStringList>

namespace LockScope::Guide {

// Whether a step went as its scenario says: its reply, the calls its script ran, the state after it, the listeners
// on the channel and the event it waited for, each within the step's tolerances (in units of T). Returns what was
// seen instead, one line per expectation that failed; empty when the step went as narrated. forbiddenEventHappened:
// the event the step says must not have happened (a waiter woken by its timer, say) did.
QStringList checkStep(const Scenario &scenario, const Step &step, const GuideRecord &result, int timeScaleMs,
    bool forbiddenEventHappened);

} // namespace LockScope::Guide
