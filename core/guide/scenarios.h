#pragma once

#include "guide/scenario.h"

// The scenarios' definitions, one function each, in files by theme; scenarios.cpp lists them in teaching order.
namespace LockScope::Guide {
Scenario scenarioNaiveDel();
Scenario scenarioAcquire();
Scenario scenarioReentrancy();
Scenario scenarioExclusion();
Scenario scenarioWatchdog();
Scenario scenarioFixedLease();
Scenario scenarioUnlockWakes();
Scenario scenarioCancelRenewal();
Scenario scenarioTryLockLoop();
Scenario scenarioOneWakePerClient();
Scenario scenarioMisDelete();
Scenario scenarioNotHeld();
Scenario scenarioUnlockLatch();
Scenario scenarioVersions();
Scenario scenarioCrash();
Scenario scenarioPausedHolder();
} // namespace LockScope::Guide
