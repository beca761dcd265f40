// G01: the plain string lock released with DEL, the anti-pattern Redisson's scripts exist to avoid.
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioNaiveDel()
{
    Scenario s;
    s.id = "G01";
    s.slug = "naive-del";
    s.title = QT_TRANSLATE_NOOP("Guide", "Plain DEL is not a lock release");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A plain lock released with DEL deletes the next owner's lock; checking before the DEL does not help unless "
        "both are one atomic step; and DEL throws away every level of a reentrant hold.");
    s.seeds = { 1, 2 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1(), B1(), C1() };
    s.keys = { "guided:naive", "guided:myLock" };
    const QByteArray naive = "guided:naive";
    s.steps = {
        raw("A1", { "SET", naive, "{owner}", "NX", "PX", "{T}" })
            .at(0)
            .reply(Expectation::Reply::Ok)
            .string("A1", naive, 0.8, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "Anti-pattern, part one. A takes a plain string lock that lives T: SET with NX (only if absent) and "
                "PX (a lease). Its value is A's id.")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.6)
            .absent(naive)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "A's work takes longer than the lease. The key expires, and nobody tells A.")),
        raw("B1", { "SET", naive, "{owner}", "NX", "PX", "{T}" })
            .live()
            .reply(Expectation::Reply::Ok)
            .string("B1", naive)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B takes the free lock, legitimately. A and B are now both in the critical section.")),
        raw("A1", { "DEL", naive })
            .live()
            .one()
            .absent(naive)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A finishes and releases with DEL. DEL never asks whose the key is: A has just deleted B's lock.")),
        raw("C1", { "SET", naive, "{owner}", "NX", "PX", "{T}" })
            .live()
            .reply(Expectation::Reply::Ok)
            .string("C1", naive)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "So C gets in too, while B still believes it holds the lock: mutual exclusion is gone.")),
        raw("C1", { "DEL", naive })
            .live()
            .one()
            .absent(naive)
            .say(QT_TRANSLATE_NOOP("Guide", "Part two starts from a clean key.")),
        raw("A1", { "SET", naive, "{owner}", "NX", "PX", "{T}" })
            .live()
            .reply(Expectation::Reply::Ok)
            .string("A1", naive)
            .say(QT_TRANSLATE_NOOP("Guide", "This time A checks before it deletes: it takes the lock again…")),
        raw("A1", { "GET", naive })
            .live()
            .string("A1", naive)
            .say(QT_TRANSLATE_NOOP("Guide",
                "…and reads the value: still its own, so A goes on to delete. But before the DEL, A is held up for a "
                "moment: a garbage collection, a slow network.")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.6)
            .absent(naive)
            .say(QT_TRANSLATE_NOOP("Guide", "While A is held up, the lease ends…")),
        raw("B1", { "SET", naive, "{owner}", "NX", "PX", "{T}" })
            .live()
            .reply(Expectation::Reply::Ok)
            .string("B1", naive)
            .say(QT_TRANSLATE_NOOP("Guide", "…and B takes the lock.")),
        raw("A1", { "DEL", naive })
            .live()
            .one()
            .absent(naive)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A's DEL arrives and deletes B's lock. The check was true when made and false when acted on: check and "
                "delete must be one atomic step, which is why Redisson does both in one script (see the mis-delete "
                "scenario).")),
        lock("A1")
            .nil()
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide", "Part three, with a Redisson lock: A enters a first level…")),
        lock("A1").nil(),
        lock("A1").nil(),
        lock("A1").nil(),
        lock("A1")
            .nil()
            .hash({ { "A1", 5 } })
            .say(QT_TRANSLATE_NOOP("Guide", "…and four nested ones: five levels, one field, count 5.")),
        raw("A1", { "DEL", "guided:myLock" })
            .one()
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "The innermost method \"releases\" with DEL: all five levels vanish at once, while four outer methods "
                "still think they hold the lock. That is what the count in the unlock script is for.")),
    };
    return s;
}

} // namespace LockScope::Guide
