#pragma once

#include "kinds/forceguard.h"
#include "kinds/locklayout.h"
#include "kinds/locktypes.h"
#include "redis/connectionoptions.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisresult.h"
#include "redis/redissubscriptions.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

namespace LockScope {

class LockActions;
class LockLayout;
class LockWaiters;
class ReplicaSync;
class LockWatchdog;
class RedisRouter;
class RoutedSubscriber;

// A Redisson-compatible lock client: one client id, one command connection and one pub/sub connection (per
// master in a Redis Cluster, where each command goes to the master serving its lock's slot).
// All methods must be called in this object's thread; every callback runs later in that thread.
// BlockingLockClient wraps it for worker threads.
class LockClient : public QObject
{
    Q_OBJECT
public:
    template <typename T> using Callback = std::function<void(const T &)>;

    explicit LockClient(ConnectionOptions connection, LockClientOptions options = {}, QObject *parent = nullptr);
    ~LockClient() override;

    QByteArray clientId() const { return m_options.clientId; }
    const LockClientOptions &options() const { return m_options; }
    QByteArray ownerField(const QByteArray &token) const { return m_options.clientId + ':' + token; }
    // The calling thread's id as Redisson would write it (Linux: the kernel thread id, as ps -L shows it).
    static QByteArray currentThreadToken();

    RedisRouter *connection() const { return m_connection; }
    RedisSubscriptions *subscriber() const;

    // How releases wake waiters (docs/protocol/README.md#plain-and-sharded-publishing). Auto resolves once the server
    // is known: sharded in a cluster that answers PUBSUB SHARDNUMSUB (what Redisson's AUTO does), plain everywhere
    // else.
    PublishMode publishMode() const { return m_publishing->mode(); }
    // The publish command(s) the release scripts run: "PUBLISH", "SPUBLISH" or "PUBLISH,SPUBLISH".
    QByteArray publishCommand() const { return m_publishing->publishCommand(); }
    // The namespaces a waiter listens on: both in "both" mode, as a mixed fleet may publish on either.
    QList<RedisSubscriptions::Kind> waitKinds() const { return m_publishing->waitKinds(); }
    // For an operation that writes beside the client's own calls (Ops::repairFairQueue): when the publish mode is
    // known, and the refusal it may carry.
    PublishModeResolver *publishing() const { return m_publishing; }
    // Subscribers of this process on a channel that are no waiters (the console's monitor listens on shard
    // channels): a count of whom a release wakes leaves them out. None unless set.
    void setOwnListeners(std::function<int(const QByteArray &channel)> count) { m_ownListeners = std::move(count); }
    int ownListeners(const QByteArray &channel) const { return m_ownListeners ? m_ownListeners(channel) : 0; }

    // Acquires, waiting on the lock's channel (never polling) when request.waitMs != 0.
    void acquire(AcquireRequest request, Callback<AcquireResult> done);
    // Ends a pending acquire of owner's: its callback reports cancelled, and a lock won by a try that was already
    // on the wire is released again, so an interrupted waiter never leaves a hold behind.
    void cancelAcquire(const QByteArray &name, const QByteArray &owner);
    // Releases one level of owner's hold exactly as the owner's own unlock would: wakes waiters on the last
    // level. owner is the full field; for a hold of this client the lease is reset as Redisson does, for a
    // foreign hold the TTL is left as it is.
    // kind: which release script, always said (a default would quietly run the reentrant script on another layout's
    // lock); for Write, owner is the write field ("<uuid>:<tid>:write"). Ops::releaseAsFound() reads it from Redis.
    void release(const QByteArray &name, const QByteArray &owner, Callback<ReleaseResult> done, LockMode kind);
    // Deletes the lock whoever holds it and wakes its waiters; with expectOwner only if that owner holds it.
    // Read or Write: a read-write lock; waiters hear "0" after a read-mode lock, "1" after a write-mode one.
    void forceRelease(
        const QByteArray &name, const QByteArray &expectOwner, Callback<ForceReleaseResult> done, LockMode kind);
    // Only while the guard holds, checked in the same script that deletes; a failed guard changes nothing and the
    // result lists the holders found instead.
    void forceRelease(
        const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockMode kind);
    // Whether action may run on name as Redis holds it now: refused (a KindMismatch error, kinds/lockatname.h) unless
    // list and show would list a lock of a layout that allows action there, or nothing is there. Every write a person
    // asks for by name passes here first, whatever the front-end, so a mistyped name never changes application data.
    void checkTarget(const QByteArray &name, LockAction action, Callback<RedisError> done);

    // Runs a script of a layout's own action (a Redisson semaphore's "add permits", a latch's "open") as this client's
    // writes go: refused in read-only mode, for a bad name and where checkTarget refuses, sent once the publish
    // command is known (build gets it). done gets the script's answer, or the refusal as its error.
    // judged: a reading made for this action (Ops::inspect) already passed checkTarget; it is not read again.
    void runAction(LockAction action, const QByteArray &name,
        std::function<ScriptCall(const QByteArray &publish)> build, Callback<RedisResult> done, bool judged = false);
    void isLocked(const QByteArray &name, Callback<QueryResult> done); // 1 or 0
    void holdCount(const QByteArray &name, const QByteArray &owner, Callback<QueryResult> done);
    void remainingTtl(const QByteArray &name, Callback<QueryResult> done); // -2 absent, -1 no TTL
    void isHeldBy(const QByteArray &name, const QByteArray &owner, Callback<QueryResult> done);
    // The fenced lock's last token (0 when none was ever drawn); it survives releases.
    void fencingToken(const QByteArray &name, Callback<QueryResult> done);

    // Per held lock at run time: off lets the lease run down (and reports the loss), on renews it again.
    bool setWatchdogEnabled(const QByteArray &name, const QByteArray &owner, bool enabled);
    bool isWatchdogEnabled(const QByteArray &name, const QByteArray &owner) const;
    // Asks the server now whether each of our holds is still there (the watchdog's round, ahead of its tick): a hold
    // whose key someone saw go is reported through holdLost() within a round trip.
    void checkHoldsNow();
    QList<HoldEvent> holds() const;
    // Whether owner's hold on name is one this client took and has not seen end, renewed or not.
    bool tracksHold(const QByteArray &name, const QByteArray &owner) const;

    // Refuses names that no lock should have, before anything is sent.
    RedisError validateName(const QByteArray &name) const;
    // What every write passes first: refused in read-only mode (action names it) and for a bad name.
    RedisError checkWrite(const char *action, const QByteArray &name) const;

signals:
    void publishModeResolved(LockScope::PublishMode mode);
    // Something the user should know about how releases wake waiters (an explicit "both" on a server without
    // sharded pub/sub publishes plainly only).
    void publishNotice(const QString &text);
    void holdRenewed(const LockScope::HoldEvent &hold);
    void holdLost(const LockScope::HoldEvent &hold);
    // A renewal round failed (I/O, timeout, ACL); it is retried at the next tick.
    void renewalFailed(const LockScope::RedisError &error);

private:
    friend class LockWaiters;
    // acquire() once the publish mode is known and possible on this server.
    void acquireNow(const AcquireRequest &request, const QByteArray &owner, Callback<AcquireResult> done);
    void runAcquire(const AcquireRequest &request, const QByteArray &owner, Callback<AcquireResult> done);
    // What a waiter that ends without the lock undoes in Redis, as its layout says (a fair waiter leaves the queue).
    void giveUpWait(const AcquireRequest &request, const QByteArray &owner);
    qint64 fairWait(qint64 waitMs) const;
    void releaseAttempt(const QByteArray &name, const QByteArray &owner, LockMode kind, const QByteArray &requestId,
        int attempt, Callback<ReleaseResult> done);
    void query(const QByteArray &name, QList<QByteArray> argv, Callback<QueryResult> done);
    void explainWrongType(
        const QByteArray &name, const LockActions &layout, std::function<void(const RedisError &)> done);
    void forceReleaseNow(
        const QByteArray &name, const ForceGuard &guard, Callback<ForceReleaseResult> done, LockMode kind);
    // runAction() once its target passed checkTarget().
    void runCheckedAction(std::function<ScriptCall(const QByteArray &publish)> build, Callback<RedisResult> done);

    LockClientOptions m_options;
    RedisRouter *m_connection;
    RoutedSubscriber *m_subscriber;
    PublishModeResolver *m_publishing = nullptr; // made after the parts that must hear the server's kind first
    LockWatchdog *m_watchdog;
    std::function<int(const QByteArray &)> m_ownListeners;
    LockWaiters *m_waiters;
    ReplicaSync *m_replicas;
    QSet<QPair<QByteArray, QByteArray>> m_cancelled; // first tries to drop once they answer
};

} // namespace LockScope
