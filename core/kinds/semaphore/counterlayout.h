#pragma once

#include "kinds/locklayout.h"

namespace LockScope {

// What Redisson's semaphores and count-down latches share (docs/protocol/semaphores.md): the object is a string
// holding an integer (free permits, or the count left), its name has no fixed prefix, so only a name the user
// declared as Redisson's (--layout-pattern redisson=GLOB) is read as one, and a change is published on a channel its
// waiters listen on. None of them is taken as a lock: they have no acquire mode, and the lock client's release and
// force release are refused until their own actions exist.
class CounterLayout : public LockLayout
{
public:
    QList<AcquireMode> modes() const override { return {}; }
    const char *counterField() const override { return "permits_free"; }
    QString counterText(qint64 value) const override;
    ScriptCall acquire(LockKind mode, const AcquireCall &call) const override;
    ScriptCall release(LockKind mode, const ReleaseCall &call) const override;
    ScriptCall forceRelease(const ForceReleaseCall &call) const override;
    // Read by the string cursors, which find the declared names: never over the hashes.
    QList<ScanCursor> scanCursors(const DiscoveryScope &) const override { return {}; }
    QList<QByteArray> inspectQuery(const QByteArray &name) const override { return { "GET", name }; }
    void decodeInspect(const RedisValue &reply, QList<LockHolder> *holders, QByteArray *mode) const override;
    RedisError wrongType(const QByteArray &name, const QByteArray &type) const override;
    RedisError checkRelease(const QByteArray &name, const QByteArray &holder) const override;
    RedisError checkForceRelease(const QByteArray &name, const ForceGuard &guard) const override;

    // A declared Redisson name holding an integer: one of the counters, told apart by what each layout's
    // readStringAux read beside it.
    static bool isCandidate(const KeySnapshot &key);

protected:
    // Fills what all three show: kind, library, the count, TTL, the declaration as evidence.
    void describeCounter(const KeySnapshot &key, LockInfo &info) const;
};

} // namespace LockScope
