#pragma once

#include "guide/guiderecord.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace LockScope::Guide {

// One emulated Java thread: its alias on screen ("B1"), its client ("B", one Redisson client id) and thread id.
struct ActorSpec
{
    QByteArray alias;
    QByteArray client;
    QByteArray uuid;
    qint64 thread = 1;
    bool process = false; // its client runs in a child process (a teacher kills or freezes it)
};

// What a step expects; anything left at its default is not checked. Times are in units of T (the watchdog timeout).
struct Expectation
{
    enum class Reply { Any, Nil, Integer, Zero, One, Array, Ok };
    Reply reply = Reply::Any;
    // An integer reply between these (in T), e.g. the holder's remaining lease.
    double replyMin = -1e9;
    double replyMax = 1e9;
    QList<QByteArray> calls; // the calls the script ran, in order; empty: not checked
    struct Field
    {
        QByteArray actor; // whose owner field
        int count;
    };
    struct Key
    {
        QByteArray name;
        QByteArray type; // "none", "hash", "string"
        QList<Field> fields; // a hash's fields, exactly
        QByteArray valueOf; // a string lock's value: this actor's owner
        double pttlMin = -1; // in T; < 0: not checked
        double pttlMax = -1;
    };
    QList<Key> state;
    int listeners = -1; // PUBSUB NUMSUB of the lock's channel after the step
    // Await steps: an event of this actor (since the previous step started).
    ActorEvent event = ActorEvent::None;
    // An event that must *not* have happened to the actor by then (a waiter woken by a timer, say).
    ActorEvent notEvent = ActorEvent::None;
};

struct Step
{
    enum class Action {
        Lock, // lock(), or lock(lease) with lease > 0
        TryLock, // tryLock() with wait < 0, tryLock(wait[, lease]) otherwise
        Unlock,
        UnlockDropReply, // the unlock runs, its reply is lost (G14)
        RetryUnlock, // the lost unlock again, same request id
        ForceUnlock,
        Raw, // a plain command (G01's anti-patterns); "{owner}" in an argument is the actor's owner field
        Observe, // no call: look at the state
        Await, // wait (at most timeout T) for the expected event; actor "*": any actor's
        UnlockHolder, // whichever actor holds the lock now unlocks it (after a race)
        Kill, // the actor's process: kill -9 (a process actor only)
        Freeze, // SIGSTOP: a paused JVM, its connections open
        Thaw, // SIGCONT
    };
    double at = -1; // in T from the scenario's start; < 0: as soon as the previous step is done
    QByteArray actor;
    Action action = Action::Observe;
    QByteArray key = "guided:myLock";
    double lease = -1; // in T; <= 0: none (the watchdog)
    double wait = -1; // tryLock: in T; < 0: tryLock() with no wait
    QList<QByteArray> raw;
    double timeout = 2; // Await: in T
    bool live = false; // a TTL or a renewal decides the outcome: no pausing here
    int unlockEffect = -1; // an UnlockEffect this unlock plays instead of the player's (G14, G15)
    const char *narration = nullptr; // translated in context "Guide"
    Expectation expect;
};

struct Scenario
{
    QByteArray id; // "G07"
    QByteArray slug; // "unlock-wakes"
    const char *title = nullptr; // translated in context "Guide"
    const char *summary = nullptr; // what it proves, one sentence
    QList<int> seeds; // the articles it draws on (docs/guide.md)
    QStringList tags; // "TIME", "PUBSUB", "PROC"
    QList<ActorSpec> actors;
    QList<QByteArray> keys { "guided:myLock" }; // read after each step
    QList<Step> steps;

    const ActorSpec *actor(const QByteArray &alias) const
    {
        for (const ActorSpec &a : actors) {
            if (a.alias == alias)
                return &a;
        }
        return nullptr;
    }
};

// The scenarios in teaching order (docs/guide.md).
const QList<Scenario> &scenarios();
const Scenario *findScenario(const QString &idOrSlug);
QString translated(const char *text);

} // namespace LockScope::Guide
