#pragma once

#include "kinds/lockclassifier.h"
#include "ops/inspect.h"

#include <QStringList>

namespace LockScope {
class HolderWatch;
}

namespace LockScope::Cli {

// What a person reads under a holder before deciding to release it (show, the force-release prompt): the liveness
// verdict with each piece of its evidence, the connection that speaks for it, and its renewals as numbers.
QStringList holderFactLines(const HolderWatch &watch, const LockInfo &lock, const LockHolder &holder);
// The same for every holder of a lock about to be released, each under its owner: what the person confirms on.
QStringList holdersFactLines(const HolderWatch &watch, const LockNow &now);

} // namespace LockScope::Cli
