// G05, G08 and G09: leases that run out, renewals that stop, and the wait of tryLock(waitTime).
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioFixedLease()
{
    Scenario s;
    s.id = "G05";
    s.slug = "fixed-lease";
    s.title = QT_TRANSLATE_NOOP("Guide", "A fixed lease: no watchdog, the TTL runs out");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "lock(leaseTime) starts no watchdog: the TTL drains to 0 and the key expires while its holder still runs, "
        "and the expiry publishes nothing.");
    s.seeds = { 4 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1() };
    s.steps = {
        lock("A1")
            .at(0)
            .lease(2.0 / 3)
            .nil()
            .hash({ { "A1", 1 } }, 0.5, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A locks with a leaseTime of two thirds of T. Redisson keeps that lease for the unlock and starts no "
                "watchdog.")),
        observe()
            .at(0.4)
            .live()
            .hash({ { "A1", 1 } }, 0.05, 0.45)
            .say(QT_TRANSLATE_NOOP("Guide",
                "Nobody renews it: the TTL only goes down, with no jumps (compare the watchdog scenario's sawtooth).")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.5)
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "The lease is over and the key is gone. An expiry publishes no message: waiters learn of it only from "
                "their own timers.")),
        unlock("A1")
            .live()
            .nil()
            .calls({ "get", "hexists" })
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "A, still working, finds out only now, when its unlock is refused with IllegalMonitorStateException: "
                "it "
                "ran part of its critical section without a lock.")),
    };
    return s;
}

Scenario scenarioCancelRenewal()
{
    Scenario s;
    s.id = "G08";
    s.slug = "cancel-renewal";
    s.title = QT_TRANSLATE_NOOP("Guide", "Cancelling the renewal on unlock, and a watchdog that stops by itself");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A partial unlock keeps the watchdog, the last one stops it; a renewal that finds the field gone drops the "
        "lock silently, and the holder learns only when it unlocks.");
    s.seeds = { 0, 1, 2 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1(), R1() };
    s.steps = {
        lock("A1")
            .at(0)
            .nil()
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "A locks with the watchdog: the client's renewal entry counts thread 1 once.")),
        lock("A1")
            .at(0.08)
            .nil()
            .hash({ { "A1", 2 } })
            .say(QT_TRANSLATE_NOOP("Guide", "A enters again: the entry now counts thread 1 twice.")),
        observe()
            .at(0.45)
            .live()
            .hash({ { "A1", 2 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide", "The first tick renewed the lease.")),
        unlock("A1")
            .at(0.5)
            .zero()
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "One level released: the cancel for thread 1 only lowers the count from 2 to 1, so the watchdog goes "
                "on.")),
        observe()
            .at(0.8)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide", "Still renewed at the next tick.")),
        unlock("A1").at(0.85).one().absent().listeners(0).say(QT_TRANSLATE_NOOP("Guide",
            "The last level: the entry is removed and, with no other lock to keep, the client's timer stops. No "
            "renewal is sent after this.")),
        lock("A1")
            .at(1.2)
            .nil()
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide", "Part two: A locks again, and its timer starts again.")),
        forceUnlock("R1")
            .at(1.3)
            .one()
            .calls({ "del", "publish" })
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "Someone force-releases A's lock (in LockScope's console: Lock › Force release). The key is deleted "
                "and "
                "waiters are told; A is not.")),
        await("A", Ev::RenewalDropped)
            .live()
            .timeout(1)
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "A's next tick finds no field of A's and answers 0. Redisson drops the lock from its watchdog without "
                "a "
                "word: no exception, no callback. (LockScope's own client reports the lock lost at once.)")),
        unlock("A1")
            .nil()
            .calls({ "get", "hexists" })
            .absent()
            .say(
                QT_TRANSLATE_NOOP("Guide", "A learns only here, when its unlock throws IllegalMonitorStateException.")),
    };
    return s;
}

Scenario scenarioTryLockLoop()
{
    Scenario s;
    s.id = "G09";
    s.slug = "trylock-loop";
    s.title = QT_TRANSLATE_NOOP("Guide", "tryLock(waitTime): the retry loop and its budget");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "tryLock(wait) spends a budget: it tries, subscribes, and sleeps for the smaller of the holder's TTL and what "
        "is left; a sleep ends by the budget running out, by a message, or by the TTL's own timer.");
    s.seeds = { 3 };
    s.tags = { QStringLiteral("TIME"), QStringLiteral("PUBSUB") };
    s.actors = { A1(), B1() };
    const double wait = 5.0 / 6;
    s.steps = {
        lock("A1").at(0).nil().say(QT_TRANSLATE_NOOP("Guide", "Run one: A holds the lock with the watchdog.")),
        tryLock("B1", wait)
            .at(0.08)
            .ttl(0.5, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B calls tryLock with a wait time of five sixths of T. The first try fails; budget is left, so B "
                "subscribes, waiting for the confirmation at most what is left.")),
        await("B1", Ev::Sleeping)
            .timeout(1)
            .listeners(1)
            .say(QT_TRANSLATE_NOOP("Guide",
                "In the loop B tries again and charges the time it took. A's TTL is longer than B's remaining budget, "
                "so "
                "B sleeps for the budget.")),
        await("B1", Ev::BudgetSpent)
            .live()
            .timeout(1.5)
            .notEvent(Ev::WokenByMessage)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A keeps renewing and nothing tells B anything. The budget runs out: tryLock answers false, and B "
                "leaves "
                "the channel.")),
        unlock("A1").at(1.1).one().absent().say(QT_TRANSLATE_NOOP("Guide", "A is done.")),
        lock("A1").at(1.2).nil().say(QT_TRANSLATE_NOOP("Guide", "Run two: the same, until A unlocks early.")),
        tryLock("B1", wait).at(1.28).ttl(0.5, 1.0),
        await("B1", Ev::Sleeping).timeout(1).listeners(1),
        unlock("A1").at(1.5).one().say(
            QT_TRANSLATE_NOOP("Guide", "A unlocks: the script publishes on the lock's channel, and B is listening.")),
        await("B1", Ev::WokenByMessage)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP("Guide", "B wakes by the message with budget to spare…")),
        await("B1", Ev::Acquired)
            .timeout(1)
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "…tries once more and gets the lock: tryLock answers true. No leaseTime was given, so B's watchdog "
                "starts.")),
        unlock("B1").at(1.75).one().absent(),
        lock("A1").at(1.85).lease(0.5).nil().say(
            QT_TRANSLATE_NOOP("Guide", "Run three: A holds with a fixed lease of half of T.")),
        tryLock("B1", wait).at(1.9).ttl(0.2, 0.5),
        await("B1", Ev::Sleeping)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "This time A's TTL is shorter than B's budget, so B sleeps only until A's lease would end.")),
        // Not absent(): B's timer ends at the same moment, and its try may already have taken the key.
        await("Redis", Ev::Expired)
            .live()
            .timeout(1)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A's lease runs out. An expiry publishes nothing: a waiter that only waited for messages would sleep "
                "on.")),
        await("B1", Ev::Acquired)
            .live()
            .timeout(1)
            .notEvent(Ev::WokenByMessage)
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "B's own timer was set to exactly that moment: it wakes, tries, and holds the lock. (Woken a "
                "millisecond early, it would be told 1 ms and sleep once more.)")),
        unlock("B1").one().absent(),
    };
    return s;
}

} // namespace LockScope::Guide
