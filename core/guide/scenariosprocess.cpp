// G11 and G16: a holder whose process is killed or frozen. Its client runs in a child process of its own, so that
// the kill and the freeze are real: SIGKILL and SIGSTOP/SIGCONT, not a simulation.
#include "guide/scenariobuilder.h"
#include "guide/scenarios.h"

namespace LockScope::Guide {

using namespace Build;
using Ev = ActorEvent;

Scenario scenarioCrash()
{
    Scenario s;
    s.id = "G11";
    s.slug = "crash";
    s.title = QT_TRANSLATE_NOOP("Guide", "Crash: the watchdog dies with its process, the key expires within T");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "Killing the holder closes its connections but releases nothing: the lock lives until its lease runs out, "
        "between 2/3 T and T after the crash, nobody publishes, and the waiter is woken by its own timer.");
    s.seeds = { 0 };
    s.tags = { QStringLiteral("PROC"), QStringLiteral("TIME"), QStringLiteral("PUBSUB") };
    s.actors = { inProcess(A1()), B1() };
    s.steps = {
        lock("A1")
            .at(0)
            .nil()
            .hash({ { "A1", 1 } }, 0.9, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "A is another program (its pid is shown), with connections of its own in CLIENT LIST. It calls "
                "lock(): no leaseTime, so its watchdog keeps the lease.")),
        lock("B1").at(1.0 / 6).ttl(0.6, 1.0).say(QT_TRANSLATE_NOOP("Guide",
            "B calls lock() and is told how long A's lease still runs. B subscribes and sleeps until a message "
            "or that time.")),
        kill("A1")
            .at(5.0 / 6)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The teacher kills A with kill -9: no finally block runs, no unlock is sent. Redis closes A's "
                "connections, but the lock is still there: Redis ties no key to a connection.")),
        await("B1", Ev::WokenByTimer)
            .live()
            .timeout(0.6)
            .hash({ { "A1", 1 } })
            .notEvent(Ev::WokenByMessage)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B's timer runs out (the TTL it was told). The watchdog would have renewed the lease by now, but it "
                "died with A's process: the lease only drains. B tries again, is told what is left, and sleeps "
                "again.")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.2)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The lease is over: Redis deletes the key, between 2/3 T and T after the crash (20 to 30 s with "
                "the default 30 s). An expiry publishes nothing.")),
        await("B1", Ev::Acquired)
            .live()
            .timeout(0.5)
            .hash({ { "B1", 1 } })
            .notEvent(Ev::WokenByMessage)
            .say(QT_TRANSLATE_NOOP("Guide",
                "B's timer was set to that very moment: B tries, finds no key, and owns the lock. B was never woken by "
                "a message. Redisson's Javadoc says a lock is removed when its client disconnects; what removes it is "
                "the TTL.")),
        unlock("B1").at(2).one().absent().listeners(0).say(QT_TRANSLATE_NOOP("Guide",
            "B is done. A lock with no TTL at all (someone ran PERSIST) would have kept B waiting for a message "
            "forever: a lock must always carry a lease.")),
    };
    return s;
}

Scenario scenarioPausedHolder()
{
    Scenario s;
    s.id = "G16";
    s.slug = "paused-holder";
    s.title = QT_TRANSLATE_NOOP("Guide", "The frozen holder: the watchdog can't save a paused JVM");
    s.summary = QT_TRANSLATE_NOOP("Guide",
        "A paused process renews nothing while its connections stay open; its lease runs out and another client "
        "locks; on thaw its renewal answers 0 without a word and it works on as if it held the lock.");
    s.seeds = { 1, 4 };
    s.tags = { QStringLiteral("PROC"), QStringLiteral("TIME"), QStringLiteral("PUBSUB") };
    s.actors = { inProcess(A1()), B1() };
    s.steps = {
        lock("A1")
            .at(0)
            .nil()
            .hash({ { "A1", 1 } }, 0.9, 1.0)
            .say(QT_TRANSLATE_NOOP(
                "Guide", "A, another program, calls lock(): the watchdog keeps its lease, every third of T.")),
        lock("B1").at(1.0 / 6).ttl(0.6, 1.0).say(
            QT_TRANSLATE_NOOP("Guide", "B calls lock(), subscribes and sleeps until a message or A's TTL.")),
        freeze("A1")
            .at(0.5)
            .live()
            .hash({ { "A1", 1 } }, 0.6, 1.0)
            .say(QT_TRANSLATE_NOOP("Guide",
                "The teacher freezes A with SIGSTOP, as a long garbage-collection pause or a suspended VM would. "
                "Unlike a crash, A's connections stay open and listed: Redis sees nothing wrong.")),
        await("Redis", Ev::Expired)
            .live()
            .timeout(1.2)
            .say(QT_TRANSLATE_NOOP("Guide",
                "No renewal comes from a frozen process: the lease runs out and the key expires. Nobody publishes.")),
        await("B1", Ev::Acquired)
            .live()
            .timeout(0.5)
            .hash({ { "B1", 1 } })
            .notEvent(Ev::WokenByMessage)
            .say(QT_TRANSLATE_NOOP("Guide", "B, woken by its timer, takes the lock. B owns it now.")),
        thaw("A1").at(2).live().say(QT_TRANSLATE_NOOP("Guide",
            "The teacher thaws A with SIGCONT. A's code goes on from where it stopped, inside its critical "
            "section, believing it holds the lock.")),
        await("A", Ev::RenewalDropped)
            .live()
            .timeout(0.5)
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "A's overdue watchdog tick runs at once: the renewal finds no field of A's and answers 0, and "
                "Redisson drops the lock from its watchdog without telling A's code. A and B are now both in their "
                "critical sections: two owners at once.")),
        unlock("A1")
            .at(2.3)
            .live()
            .nil()
            .calls({ "get", "hexists" })
            .hash({ { "B1", 1 } })
            .say(QT_TRANSLATE_NOOP("Guide",
                "A finishes and unlocks: refused with IllegalMonitorStateException, and B's lock is untouched. The "
                "owner check prevented a mis-delete, not the overlap: a resource that must never see two owners "
                "checks a fencing token (LockScope's console shows fenced locks).")),
        unlock("B1").at(2.5).one().absent().listeners(0).say(QT_TRANSLATE_NOOP("Guide", "B is done.")),
    };
    return s;
}

} // namespace LockScope::Guide
