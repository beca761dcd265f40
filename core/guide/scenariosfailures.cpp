// G12 and G13: what the owner check in the unlock script protects, and what it does not.
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioMisDelete()
{
    Scenario s;
    s.id = "G12";
    s.slug = "mis-delete";
    s.title = QT_TRANSLATE_NOOP("Guide", "Expired lease, new owner: the old owner's unlock is refused");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "An owner whose lease ran out cannot delete the next owner's lock: its unlock finds no field of its own and "
        "changes nothing. Both were in the critical section for a while, though.");
    s.seeds = { 1, 4 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1(), B1() };
    s.steps = {
        lock("A1")
            .at(0)
            .lease(1)
            .nil()
            .hash({ { "A1", 1 } }, 0.9, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A locks with a fixed lease of T, so no watchdog keeps it (the article's 30 s, scaled). A's work will "
                "take longer than that.")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.6)
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "A's lease is over while A still works: Redis deletes the key, and tells nobody. Expiry publishes no "
                "message.")),
        lock("B1")
            .live()
            .nil()
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "B takes the free lock, legitimately. From here on, A and B both run their critical sections.")),
        unlock("A1")
            .at(1.17)
            .live()
            .nil()
            .calls({ "get", "hexists" })
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "A finishes and unlocks. The script looks for A's field, does not find it, and answers nil without "
                "touching anything: B's lock, its TTL and its waiters are intact, and nothing is published. Java "
                "throws "
                "IllegalMonitorStateException naming A's client and thread. A plain DEL here would have deleted B's "
                "lock.")),
        unlock("B1").at(1.3).one().absent().say(QT_TRANSLATE_NOOP("Guide",
            "B is done. What the owner check prevented is the delete, not the overlap: for a while both ran as if "
            "each held the lock (see the frozen holder).")),
    };
    return s;
}

Scenario scenarioNotHeld()
{
    Scenario s;
    s.id = "G13";
    s.slug = "not-held";
    s.title = QT_TRANSLATE_NOOP("Guide", "Unlocking what you don't hold");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "The owner is a client and a thread: another thread of the same client is refused like another client, and "
        "the same thread number in another client is another owner.");
    s.seeds = { 0, 1, 4 };
    s.actors = { A1(), A2(), C1() };
    s.steps = {
        lock("A1").at(0).nil().hash({ { "A1", 1 } }).say(QT_TRANSLATE_NOOP("Guide", "Thread 1 of client A locks.")),
        unlock("A2")
            .at(0.17)
            .nil()
            .calls({ "get", "hexists" })
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "Thread 2 of the same client unlocks. Its field ends in :2, the hash holds :1: refused, and the "
                "exception "
                "names thread 2.")),
        raw("A1", { "HEXISTS", "guided:myLock", "{owner}" })
            .at(0.25)
            .one()
            .say(QT_TRANSLATE_NOOP("Guide", "isHeldByCurrentThread() is exactly this HEXISTS of the caller's field…")),
        raw("A2", { "HEXISTS", "guided:myLock", "{owner}" })
            .at(0.3)
            .zero()
            .say(QT_TRANSLATE_NOOP(
                "Guide", "…true for thread 1, false for thread 2; getHoldCount() is the HGET of the same field.")),
        unlock("C1")
            .at(0.33)
            .nil()
            .calls({ "get", "hexists" })
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "Client C unlocks from its thread 1. The thread number is the same as A's, but the UUID differs: "
                "refused. The UUID tells clients apart, the thread id tells threads apart.")),
        unlock("A1").at(0.5).one().absent().say(QT_TRANSLATE_NOOP("Guide", "The owner unlocks.")),
        unlock("A1")
            .at(0.67)
            .nil()
            .calls({ "get", "hexists" })
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "Once more, on a lock that no longer exists: refused as well. Up to Redisson 3.10.5 this answered "
                "success and published a wake-up (see the versions scenario).")),
    };
    return s;
}

} // namespace LockScope::Guide
