#pragma once

#include "guide/guidescripts.h"
#include "guide/scenario.h"

#include <QCoreApplication>

namespace LockScope::Guide::Build {

// A step written as a sentence: lock("A1").at(0.5).say(...).nil().hash({{"A1", 1}}, 0.5, 1.0).
struct S
{
    Step s;
    S &at(double t)
    {
        s.at = t;
        return *this;
    }
    S &on(const QByteArray &key)
    {
        s.key = key;
        return *this;
    }
    S &lease(double l)
    {
        s.lease = l;
        return *this;
    }
    S &say(const char *narration)
    {
        s.narration = narration;
        return *this;
    }
    S &live()
    {
        s.live = true;
        return *this;
    }
    S &reply(Expectation::Reply r, double min = -1e9, double max = 1e9)
    {
        s.expect.reply = r;
        s.expect.replyMin = min;
        s.expect.replyMax = max;
        return *this;
    }
    S &nil() { return reply(Expectation::Reply::Nil); }
    S &one() { return reply(Expectation::Reply::One); }
    S &zero() { return reply(Expectation::Reply::Zero); }
    // The holder's remaining lease, in T.
    S &ttl(double min, double max) { return reply(Expectation::Reply::Integer, min, max); }
    S &calls(const QList<QByteArray> &c)
    {
        s.expect.calls = c;
        return *this;
    }
    S &hash(const QList<Expectation::Field> &fields, double pttlMin = -1, double pttlMax = -1,
        const QByteArray &key = "guided:myLock")
    {
        s.expect.state << Expectation::Key { key, "hash", fields, {}, pttlMin, pttlMax };
        return *this;
    }
    S &string(const QByteArray &owner, const QByteArray &key, double pttlMin = -1, double pttlMax = -1)
    {
        s.expect.state << Expectation::Key { key, "string", {}, owner, pttlMin, pttlMax };
        return *this;
    }
    S &absent(const QByteArray &key = "guided:myLock")
    {
        s.expect.state << Expectation::Key { key, "none", {}, {}, -1, -1 };
        return *this;
    }
    S &listeners(int n)
    {
        s.expect.listeners = n;
        return *this;
    }
    S &timeout(double t)
    {
        s.timeout = t;
        return *this;
    }
    S &playing(UnlockEffect effect)
    {
        s.unlockEffect = int(effect);
        return *this;
    }
    S &notEvent(ActorEvent e)
    {
        s.expect.notEvent = e;
        return *this;
    }
    operator Step() const { return s; }
};

inline S step(const QByteArray &actor, Step::Action action)
{
    S b;
    b.s.actor = actor;
    b.s.action = action;
    return b;
}
inline S lock(const QByteArray &actor)
{
    return step(actor, Step::Action::Lock);
}
inline S tryLock(const QByteArray &actor, double wait = -1)
{
    S b = step(actor, Step::Action::TryLock);
    b.s.wait = wait;
    return b;
}
inline S unlock(const QByteArray &actor)
{
    return step(actor, Step::Action::Unlock);
}
inline S unlockReplyLost(const QByteArray &actor)
{
    return step(actor, Step::Action::UnlockDropReply);
}
inline S retryUnlock(const QByteArray &actor)
{
    return step(actor, Step::Action::RetryUnlock);
}
// Whoever won the race releases.
inline S unlockHolder()
{
    return step("holder", Step::Action::UnlockHolder);
}
inline S forceUnlock(const QByteArray &actor)
{
    return step(actor, Step::Action::ForceUnlock);
}
inline S observe()
{
    return step("observer", Step::Action::Observe);
}
inline S raw(const QByteArray &actor, const QList<QByteArray> &argv)
{
    S b = step(actor, Step::Action::Raw);
    b.s.raw = argv;
    return b;
}
// Waits (at most timeout T) for an event of the actor since the last step that acted.
inline S await(const QByteArray &actor, ActorEvent event)
{
    S b = step(actor, Step::Action::Await);
    b.s.expect.event = event;
    return b;
}

inline S kill(const QByteArray &actor)
{
    return step(actor, Step::Action::Kill);
}
inline S freeze(const QByteArray &actor)
{
    return step(actor, Step::Action::Freeze);
}
inline S thaw(const QByteArray &actor)
{
    return step(actor, Step::Action::Thaw);
}
// The actor's client in a process of its own.
inline ActorSpec inProcess(ActorSpec actor)
{
    actor.process = true;
    return actor;
}

// The seeds' example owners (docs/guide.md): the screen matches what the articles print.
inline ActorSpec A1()
{
    return { "A1", "A", "ff161e99-fd06-42f9-8bf0-1b34d803c1a7", 1 };
}
inline ActorSpec A2()
{
    return { "A2", "A", "ff161e99-fd06-42f9-8bf0-1b34d803c1a7", 2 };
}
inline ActorSpec B1()
{
    return { "B1", "B", "b983c153-8e53-4c04-beb8-0c34d6e0237d", 132 };
}
inline ActorSpec B2()
{
    return { "B2", "B", "b983c153-8e53-4c04-beb8-0c34d6e0237d", 133 };
}
inline ActorSpec C1()
{
    return { "C1", "C", "26cebeaa-e3b0-4097-8192-d62d0d0214b8", 1 };
}
// An operator who force-releases (G08): the console's Lock › Force release has the same effect.
inline ActorSpec R1()
{
    return { "R1", "R", "5c1e0b7a-9d4f-4e21-8a36-2f7c1d9e0b54", 1 };
}

} // namespace LockScope::Guide::Build
