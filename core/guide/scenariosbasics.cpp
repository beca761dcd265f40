// G02 to G07: what a Redisson lock is, and how it is taken, shared, renewed and handed over.
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioAcquire()
{
    Scenario s;
    s.id = "G02";
    s.slug = "acquire";
    s.title = QT_TRANSLATE_NOOP("Guide", "The first acquire: a hash, a field, a lease");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A Redisson lock is a hash named like the lock; its one field is the owner, its value the hold count, its TTL "
        "the lease; nil means acquired.");
    s.seeds = { 4, 3, 2 };
    s.actors = { A1() };
    s.steps = {
        observe().at(0).absent().say(QT_TRANSLATE_NOOP("Guide",
            "Before anyone locks it, the lock does not exist at all: a Redisson lock is nothing but a key named "
            "exactly like the lock, created by the first acquire and gone after the last release.")),
        lock("A1")
            .at(0.1)
            .nil()
            .calls({ "exists", "hincrby", "pexpire" })
            .hash({ { "A1", 1 } }, 0.5, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A calls lock(). The acquire script finds no key, so it never asks whose field is there: HINCRBY "
                "creates the hash with A's field at 1, PEXPIRE sets the lease, and the script answers nil, which "
                "Java reads as \"acquired\".")),
        observe()
            .at(0.3)
            .hash({ { "A1", 1 } }, 0.4, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "Look at the key: a HASH. Its field is the owner, the client's UUID, a colon and the Java thread id; "
                "the "
                "value counts how many times that thread holds the lock; the key's TTL is the lease. With no leaseTime "
                "given, the lease is the watchdog timeout, and the watchdog keeps it alive (see the watchdog "
                "scenario).")),
        unlock("A1").at(0.5).one().absent().say(QT_TRANSLATE_NOOP("Guide",
            "A unlocks: the count drops to 0, so the key is deleted and the waiters are told. The release is shown "
            "in detail in \"Unlock wakes a blocked waiter\".")),
    };
    return s;
}

Scenario scenarioReentrancy()
{
    Scenario s;
    s.id = "G03";
    s.slug = "reentrancy";
    s.title = QT_TRANSLATE_NOOP("Guide", "Reentrancy: the count goes 1, 2, 3, 2, 1, 0");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "Reentry counts up in the same field and restarts the lease; an unlock that leaves levels restarts it to the "
        "lease asked for; only the last unlock deletes the key and publishes.");
    s.seeds = { 1, 2, 4 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1() };
    const double lease = 2.0 / 3; // a fixed lease, so that no watchdog hides the resets
    s.steps = {
        lock("A1")
            .at(0)
            .lease(lease)
            .nil()
            .calls({ "exists", "hincrby", "pexpire" })
            .hash({ { "A1", 1 } }, 0.4, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The outer method takes the lock with a fixed lease of two thirds of T: with a leaseTime Redisson "
                "starts no watchdog, so every change of the TTL below is the script's own doing.")),
        lock("A1")
            .at(0.13)
            .lease(lease)
            .nil()
            .calls({ "exists", "hexists", "hincrby", "pexpire" })
            .hash({ { "A1", 2 } }, 0.5, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The same thread locks again. The key exists and the field is A's own, so the count becomes 2 and "
                "the TTL starts over at the full lease: it is reset, not extended.")),
        lock("A1")
            .at(0.27)
            .lease(lease)
            .nil()
            .hash({ { "A1", 3 } }, 0.5, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide", "A third level: three nested methods now hold the lock.")),
        unlock("A1")
            .at(0.6)
            .live()
            .zero()
            .calls({ "get", "hexists", "hincrby", "pexpire", "set" })
            .hash({ { "A1", 2 } }, 0.5, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The innermost method ran long and a third of T was left. Its unlock leaves two levels, so the "
                "script answers 0, publishes nothing and restarts the TTL at the lease A asked for (ARGV[2]), not "
                "at 30 s: the outer levels are not left with a lease about to end. An unlock through another RLock "
                "object than the lock's would restart it at 30 s: the lease is remembered by the object.")),
        unlock("A1")
            .at(0.75)
            .zero()
            .hash({ { "A1", 1 } }, 0.5, 0.67)
            .say(QT_TRANSLATE_NOOP("Guide",
                "Two levels to one: again 0, and the lease starts over. Redisson 3.19.2 to 3.27.1 forgot A's lease "
                "after the first unlock: there this one restarts the TTL at 30 s.")),
        unlock("A1")
            .at(0.9)
            .one()
            .calls({ "get", "hexists", "hincrby", "del", "publish", "set" })
            .absent()
            .listeners(0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The last level: the count reaches 0, the key is deleted and \"0\" is published on the lock's "
                "channel so that waiters may try. Nobody is listening now, so the message reaches no one.")),
        unlock("A1")
            .at(1.0)
            .nil()
            .calls({ "get", "hexists" })
            .absent()
            .say(QT_TRANSLATE_NOOP("Guide",
                "One unlock too many: the owner's field is gone, the script answers nil, and Java throws "
                "IllegalMonitorStateException.")),
    };
    return s;
}

Scenario scenarioExclusion()
{
    Scenario s;
    s.id = "G04";
    s.slug = "exclusion";
    s.title = QT_TRANSLATE_NOOP("Guide", "Mutual exclusion: the loser gets a number");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "The loser's reply is the holder's remaining lease and a failed try writes nothing; tryLock() with no wait "
        "time never subscribes, so no unlock message reaches it.");
    s.seeds = { 4, 3 };
    s.tags = { QStringLiteral("PUBSUB") };
    s.actors = { A1(), B1() };
    s.steps = {
        lock("A1")
            .at(0)
            .nil()
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide", "A holds the lock, with the watchdog.")),
        tryLock("B1")
            .at(0.25)
            .ttl(0.5, 1.0)
            .calls({ "exists", "hexists", "pttl" })
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "B calls tryLock(). The key exists without B's field, so the script only reads the PTTL and "
                "answers it: how long A's lease still runs. B wrote nothing; Java turns the number into false.")),
        tryLock("B1")
            .at(0.5)
            .live()
            .ttl(0.6, 1.0)
            .hash({ { "A1", 1 } })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B tries again, and the number went up: A's watchdog renewed the lease in between.")),
        unlock("A1").at(0.67).one().absent().listeners(0).say(QT_TRANSLATE_NOOP("Guide",
            "A unlocks and publishes, but nobody hears it: tryLock() without a wait time never subscribes to "
            "the lock's channel.")),
        tryLock("B1")
            .at(0.75)
            .nil()
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide", "B's next try finds the lock free and takes it.")),
        unlock("B1").at(0.85).one().absent().say(QT_TRANSLATE_NOOP("Guide", "B is done.")),
    };
    return s;
}

Scenario scenarioWatchdog()
{
    Scenario s;
    s.id = "G06";
    s.slug = "watchdog";
    s.title = QT_TRANSLATE_NOOP("Guide", "The watchdog renews every T/3");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "Without a leaseTime the lease is T and the client restarts it every T/3, so the lock outlives any lease; "
        "one renewal timer per client renews all its locks in one script.");
    s.seeds = { 2, 0 };
    s.tags = { QStringLiteral("TIME") };
    s.actors = { A1() };
    s.keys = { "guided:myLock", "guided:otherLock" };
    s.steps = {
        lock("A1")
            .at(0)
            .nil()
            .hash({ { "A1", 1 } }, 0.9, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A calls lock() with no leaseTime: the lease is the watchdog timeout T, and A's client arms its "
                "renewal "
                "timer for T/3.")),
        observe()
            .at(0.45)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "At T/3 the watchdog checked that A's field is still there and restarted the lease at T: the TTL "
                "jumped "
                "back up.")),
        lock("A1")
            .at(0.5)
            .on("guided:otherLock")
            .nil()
            .hash({ { "A1", 1 } }, 0.9, 1.0, "guided:otherLock")
            .say(QT_TRANSLATE_NOOP("Guide",
                "A takes a second lock. Redisson 3.44 and later keep one renewal timer per client, not per lock…")),
        observe()
            .at(0.8)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .hash({ { "A1", 1 } }, 0.6, 1.0, "guided:otherLock")
            .say(QT_TRANSLATE_NOOP("Guide",
                "…so the next tick renewed both locks with one script, although the second was taken only a moment "
                "before.")),
        observe()
            .at(1.5)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A has now held the lock for one and a half leases, and it is as fresh as at the start. The other side "
                "of it: a thread that never finishes keeps its lock for as long as its process lives.")),
        unlock("A1").at(1.6).one().absent().say(
            QT_TRANSLATE_NOOP("Guide", "Unlocking the first lock ends its renewals…")),
        unlock("A1")
            .at(1.65)
            .on("guided:otherLock")
            .one()
            .absent("guided:otherLock")
            .say(QT_TRANSLATE_NOOP("Guide", "…and with the last one released, the client's renewal timer stops.")),
    };
    return s;
}

Scenario scenarioUnlockWakes()
{
    Scenario s;
    s.id = "G07";
    s.slug = "unlock-wakes";
    s.title = QT_TRANSLATE_NOOP("Guide", "Unlock wakes a blocked waiter");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A blocked lock() does not poll: it subscribes, tries again, and sleeps until a message or the holder's TTL; "
        "the last unlock deletes the key and publishes, and the waiter takes the lock at once.");
    s.seeds = { 0, 1, 3 };
    s.tags = { QStringLiteral("PUBSUB") };
    s.actors = { A1(), B1() };
    s.steps = {
        lock("A1").at(0).nil().hash({ { "A1", 1 } }).say(QT_TRANSLATE_NOOP("Guide", "A holds the lock.")),
        lock("B1")
            .at(0.17)
            .ttl(0.5, 1.0)
            .calls({ "exists", "hexists", "pttl" })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B calls lock(): taken, and the script says how long A's lease still runs.")),
        await("B1", Ev::Sleeping)
            .timeout(1)
            .listeners(1)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B subscribes to the lock's channel, tries once more (A might have left in between), then sleeps until "
                "a message or until A's lease would end, whichever comes first. One client now listens.")),
        unlock("A1")
            .at(0.5)
            .one()
            .calls({ "get", "hexists", "hincrby", "del", "publish", "set" })
            .say(QT_TRANSLATE_NOOP("Guide",
                "A unlocks its only level: the script deletes the key and publishes \"0\" on the channel, and A's "
                "watchdog is cancelled.")),
        await("B1", Ev::WokenByMessage)
            .timeout(1)
            .notEvent(Ev::WokenByTimer)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B's listener gets the message and releases one permit of its latch: B wakes at once, long before its "
                "timer would have run out.")),
        await("B1", Ev::Acquired)
            .timeout(1)
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B's next try finds no key: B owns the lock, starts its watchdog and leaves the channel.")),
        unlock("B1").at(0.8).one().absent().listeners(0).say(QT_TRANSLATE_NOOP("Guide", "B is done.")),
    };
    return s;
}

} // namespace LockScope::Guide

namespace LockScope::Guide {

using namespace Build;

Scenario scenarioOneWakePerClient()
{
    Scenario s;
    s.id = "G10";
    s.slug = "one-wake-per-client";
    s.title = QT_TRANSLATE_NOOP("Guide", "One message wakes one waiter per client");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A client subscribes once per lock however many of its threads wait; a message reaches clients, not "
        "threads, and wakes one waiter in each; the woken race and one wins.");
    s.seeds = { 3 };
    s.tags = { QStringLiteral("PUBSUB") };
    s.actors = { A1(), B1(), B2(), C1() };
    s.steps = {
        lock("A1").at(0).nil().say(QT_TRANSLATE_NOOP("Guide", "A holds the lock.")),
        lock("B1").at(0.08).ttl(0.5, 1.0),
        await("B1", ActorEvent::Sleeping)
            .timeout(1)
            .listeners(1)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B's first waiting thread creates its client's entry for this lock and subscribes: one listener.")),
        lock("B2").at(0.12).ttl(0.5, 1.0),
        await("B2", ActorEvent::Sleeping)
            .timeout(1)
            .listeners(1)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B's second thread reuses that entry: no new SUBSCRIBE, still one listener.")),
        lock("C1").at(0.16).ttl(0.5, 1.0),
        await("C1", ActorEvent::Sleeping)
            .timeout(1)
            .listeners(2)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "C is another client, with its own subscription: two listeners for three waiting threads.")),
        unlock("A1")
            .at(0.5)
            .one()
            .calls({ "get", "hexists", "hincrby", "del", "publish", "set" })
            .say(QT_TRANSLATE_NOOP(
                "Guide", "A unlocks: one message, delivered to two connections, B's and C's, not to three threads.")),
        await("C1", ActorEvent::WokenByMessage)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP("Guide", "C's listener releases one permit: C1 wakes.")),
        await("B1", ActorEvent::WokenByMessage)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "B's listener releases one permit too: B1, its longest waiting thread, wakes…")),
        step("B2", Step::Action::Observe)
            .notEvent(ActorEvent::WokenByMessage)
            .say(QT_TRANSLATE_NOOP("Guide", "…and B2 sleeps on: one permit wakes one thread.")),
        await("*", ActorEvent::Acquired)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B1 and C1 both try. Redis runs one script first: that one holds the lock, the other is told a TTL and "
                "sleeps again.")),
        unlockHolder().at(0.7).one().say(QT_TRANSLATE_NOOP(
            "Guide", "The winner unlocks, and the next message wakes one waiter per client still listening.")),
        await("*", ActorEvent::Acquired).timeout(1),
        unlockHolder().at(0.85).one(),
        await("*", ActorEvent::Acquired)
            .timeout(1)
            .say(QT_TRANSLATE_NOOP("Guide", "Every waiter gets its turn, one unlock at a time.")),
        unlockHolder().at(1.0).one().absent().listeners(0).say(
            QT_TRANSLATE_NOOP("Guide", "The last one leaves, and with it the last subscription.")),
    };
    return s;
}

} // namespace LockScope::Guide
