#pragma once

#include "guide/scenario.h"

// The scenarios' definitions, one function each, in files by theme; scenarios.cpp lists them in teaching order.
namespace LockScope::Guide {
Scenario scenarioAcquire();
Scenario scenarioReentrancy();
Scenario scenarioExclusion();
Scenario scenarioWatchdog();
Scenario scenarioUnlockWakes();
Scenario scenarioMisDelete();
Scenario scenarioNotHeld();
} // namespace LockScope::Guide
