#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// What discovery read beside a declared Redisson integer for the counters to tell each other apart: the expirable
// semaphore's permit set {N}:timeout (its size, and its first members with their expiry scores), and the listeners on
// the semaphore's and the latch's channels; -1: not read.
struct CounterAux
{
    qint64 permitsTaken = -1;
    QList<QPair<QByteArray, qint64>> permits;
    int semaphoreSubscribers = -1;
    int latchSubscribers = -1;
};

// What Redisson's semaphores and count-down latches share (docs/protocol/semaphores.md): the object is a string
// holding an integer (free permits, or the count left), its name has no fixed prefix, so only a name the user
// declared as Redisson's (--layout-pattern redisson=GLOB) is read as one, and a change is published on a channel its
// waiters listen on. None of them is taken as a lock: they have no acquire mode, and the lock client's release and
// force release are refused: they have counter actions of their own, no lock actions.
class CounterLayout : public LockLayout, public LockRecogniser, public CounterWrites
{
public:
    const LockRecogniser &recogniser() const override { return *this; }
    const CounterWrites *counterWrites() const override { return this; }
    const char *counterField() const override { return "permits_free"; }
    QString counterText(qint64 value) const override;
    // Read by the string cursors, which find the declared names: never over the hashes.
    QList<ScanCursor> scanCursors(const DiscoveryScope &) const override { return {}; }
    // A release or force release of one: "a Redisson semaphore, not a lock".
    QString refusal(LockAction action, const QByteArray &name) const override;

    // A declared Redisson name holding an integer: one of the counters, told apart by what each layout's
    // readStringAux read beside it.
    static bool isCandidate(const KeySnapshot &key);
    // What the counters' reads found beside key (nothing read: every count -1).
    static const CounterAux &auxOf(const KeySnapshot &key);

protected:
    // Fills what all three show: kind, library, the count, TTL, the declaration as evidence.
    void describeCounter(const KeySnapshot &key, LockInfo &info) const;
};

} // namespace LockScope
