#include "guide/scenarios.h"

namespace LockScope::Guide {

const QList<Scenario> &scenarios()
{
    // Teaching order (docs/guide.md).
    static const QList<Scenario> all { scenarioNaiveDel(), scenarioAcquire(), scenarioReentrancy(), scenarioExclusion(),
        scenarioFixedLease(), scenarioWatchdog(), scenarioUnlockWakes(), scenarioCancelRenewal(), scenarioTryLockLoop(),
        scenarioOneWakePerClient(), scenarioCrash(), scenarioMisDelete(), scenarioNotHeld(), scenarioUnlockLatch(),
        scenarioVersions(), scenarioPausedHolder() };
    return all;
}

const Scenario *findScenario(const QString &idOrSlug)
{
    for (const Scenario &s : scenarios()) {
        if (idOrSlug.compare(QLatin1String(s.id), Qt::CaseInsensitive) == 0 || idOrSlug == QLatin1String(s.slug))
            return &s;
    }
    return nullptr;
}

} // namespace LockScope::Guide
