#pragma once

#include "kinds/forceguard.h"
#include "kinds/lockkindprobe.h"
#include "kinds/locktypes.h"

#include <QByteArray>

#include <functional>

namespace LockScope {

class LockClient;

// Releases that read the lock's kind from Redis at the moment of the action (kinds/lockkindprobe.h), never from an
// older snapshot: the front-ends hold no kind logic of their own. done runs later in the client's thread.
namespace Ops {
// What Redis says name is right now and the kind to release it as: one pipelined read.
void probeKind(LockClient *client, const QByteArray &name, const QByteArray &owner,
    std::function<void(const LockKindProbe &)> done);
// LockClient::release() with the kind read now: a fair lock whose queue filled since tells its new head. A string lock
// is given back only while it holds owner as its token; a name that holds no lock (a list, ...) is refused with the
// probe's WRONGTYPE error and nothing is written.
void releaseAsFound(LockClient *client, const QByteArray &name, const QByteArray &owner,
    std::function<void(const ReleaseResult &)> done);
// LockClient::forceRelease() with the kind read now; a string lock's guard is the one token seen.
void forceReleaseAsFound(LockClient *client, const QByteArray &name, const ForceGuard &guard,
    std::function<void(const ForceReleaseResult &)> done);
} // namespace Ops

} // namespace LockScope
