// G14 and G15: the unlock latch that makes a retried unlock safe, and how the same unlock differs across Redisson
// versions.
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioUnlockLatch()
{
    Scenario s;
    s.id = "G14";
    s.slug = "unlock-latch";
    s.title = QT_TRANSLATE_NOOP("Guide", "An unlock retried safely: the unlock latch and request id");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "Since 3.24 an unlock stores its result under its request id, so a retry answers the same instead of "
        "releasing a second level; without the latch a retried unlock releases one level too many.");
    s.seeds = { 4 };
    s.tags = { QStringLiteral("PUBSUB") };
    s.actors = { A1() };
    s.keys = { "guided:myLock", "guided:v321" };
    const QByteArray old = "guided:v321";
    s.steps = {
        lock("A1").at(0).nil(),
        lock("A1")
            .nil()
            .hash({ { "A1", 2 } })
            .say(QT_TRANSLATE_NOOP("Guide", "A holds guided:myLock two levels deep…")),
        lock("A1").on(old).nil(),
        lock("A1")
            .on(old)
            .nil()
            .hash({ { "A1", 2 } }, -1, -1, old)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "…and guided:v321 too, which will be released the way Redisson 3.21 did it.")),
        unlockReplyLost("A1")
            .at(0.2)
            .zero()
            .calls({ "get", "hexists", "hincrby", "pexpire", "set" })
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "A unlocks one level (4.x). The script runs and stores its answer, 0, in the latch key named after "
                "this request, but the reply is lost on the way: the client cannot tell whether it ran.")),
        retryUnlock("A1")
            .at(0.35)
            .zero()
            .calls({ "get" })
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "The same unlock again, with the same request id. Redisson itself sends an unlock again only after "
                "NoSyncedSlavesException (replicas did not confirm it), and with the same id only since 3.52.0 "
                "(before, a retry drew a new one). The script finds the latch and answers what the first run "
                "answered, running nothing else: the count stays 1. Then the client deletes the latch (had it died, "
                "the latch would expire on its own).")),
        unlockReplyLost("A1")
            .at(0.5)
            .on(old)
            .playing(UnlockEffect::V321)
            .zero()
            .hash({ { "A1", 1 } }, -1, -1, old)
            .say(QT_TRANSLATE_NOOP("Guide", "The same mishap with the 3.21 unlock, which has no latch…")),
        retryUnlock("A1")
            .at(0.65)
            .on(old)
            .one()
            .calls({ "hexists", "hincrby", "del", "publish" })
            .absent(old)
            .say(QT_TRANSLATE_NOOP("Guide",
                "…and the retry releases the outer level too: A's outer code still believes it holds the lock, a "
                "waiter may enter now, and A's own last unlock will throw.")),
        unlock("A1")
            .at(0.8)
            .one()
            .calls({ "get", "hexists", "hincrby", "del", "publish", "set" })
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "The normal path: the latch lives only for the moment between the script and the client's DEL.")),
    };
    return s;
}

Scenario scenarioVersions()
{
    Scenario s;
    s.id = "G15";
    s.slug = "versions";
    s.title = QT_TRANSLATE_NOOP("Guide", "Same call, different Redisson: the unlock across versions");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "Articles describing different Redisson versions disagree for a reason: an unlock after the lease expired "
        "succeeds silently and publishes up to 3.10.5, and is refused since 3.10.6.");
    s.seeds = { 0, 1, 4 };
    s.tags = { QStringLiteral("TIME"), QStringLiteral("PUBSUB") };
    s.actors = { A1() };
    const QByteArray v2 = "guided:v3105", v3 = "guided:v321", v4 = "guided:v4";
    s.keys = { v2, v3, v4 };
    s.steps = {
        lock("A1").at(0).on(v2).lease(0.5).nil().say(QT_TRANSLATE_NOOP("Guide",
            "A takes three locks with a lease of half of T; each will be unlocked the way one Redisson version "
            "did it.")),
        lock("A1").on(v3).lease(0.5).nil(),
        lock("A1").on(v4).lease(0.5).nil(),
        observe().at(0.8).live().absent(v2).absent(v3).absent(v4).say(
            QT_TRANSLATE_NOOP("Guide", "The leases ran out and nobody took the locks.")),
        unlock("A1")
            .on(v2)
            .playing(UnlockEffect::V2)
            .one()
            .calls({ "exists", "publish" })
            .say(QT_TRANSLATE_NOOP("Guide",
                "Redisson up to 3.10.5: the script sees no key, publishes the unlock message anyway and answers 1. "
                "unlock() succeeds silently. Nobody listens here; a waiter would have been woken for a lock nobody "
                "released.")),
        unlock("A1")
            .on(v3)
            .playing(UnlockEffect::V321)
            .nil()
            .calls({ "hexists" })
            .say(QT_TRANSLATE_NOOP("Guide",
                "3.10.6 to 3.21: the owner's field is looked for first; it is not there, so nil: "
                "IllegalMonitorStateException.")),
        unlock("A1")
            .on(v4)
            .nil()
            .calls({ "get", "hexists" })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "3.24 and later: the latch is looked at first, then the field: refused the same way.")),
    };
    return s;
}

} // namespace LockScope::Guide
