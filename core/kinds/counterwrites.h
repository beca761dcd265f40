#pragma once

#include "kinds/lockactions.h"

namespace LockScope {

// One action on a counter (a Redisson semaphore's permits, a latch), as a person asks for it.
struct CounterRequest
{
    LockAction action = LockAction::AddPermits;
    QByteArray name;
    qint64 permits = 1; // AddPermits: how many more are free
    QByteArray permitId; // ReleasePermit: the permit given back, as shown or as Java has it
    QByteArray countShown; // OpenLatch: the count the person saw, the guard (empty: none)
};

// A counter action's script and where the counter's waiters hear it.
struct CounterCall
{
    ScriptCall script;
    QByteArray channel;
};

// The writes a counter takes instead of a release, each the script its library's own call runs. A layout that counts
// has one (LockLayout::counterWrites()).
class CounterWrites
{
public:
    virtual ~CounterWrites() = default;
    // The script of request, publishing with publish ("PUBLISH", ...), when the action is this layout's own (adding
    // permits is the semaphore's, opening the latch's); none otherwise. Its answer: [status, count]: status 1 done,
    // 0 nothing to give back, -1 the guard failed, -2 nothing there, -3 not a counter.
    virtual std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish) const = 0;
};

} // namespace LockScope
