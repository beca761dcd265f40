#pragma once

#include "kinds/locktypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QTimer>

namespace LockScope {

class RedisCommander;
class RedisScript;

// Keeps this client's holds alive. One timer per client ticks every watchdogTimeout/3 and renews all holds
// that want it in batched scripts; holds with the watchdog switched off (or an explicit lease) are only
// checked, so that a hold that vanished is reported as lost instead of being discovered at unlock time.
class LockWatchdog : public QObject
{
    Q_OBJECT
public:
    LockWatchdog(RedisCommander *connection, const LockClientOptions &options, QObject *parent = nullptr);

    // One more level of a hold; renew: refresh the lease (watchdog), else only check that it is still there.
    // readTimeoutPrefix: for a read hold, the prefix of its rwlock_timeout keys, renewed with it. renewal: the
    // layout's batch script (LockLayout::renewal(); null: the lock hash's).
    // watchdogMs: the lease a renewal extends this hold to (0: the client's watchdog timeout).
    void track(const QByteArray &name, const QByteArray &owner, qint64 leaseMs, bool renew, qint64 watchdogMs,
        const QByteArray &readTimeoutPrefix = {}, const RedisScript *renewal = nullptr,
        LockMode kind = LockMode::Reentrant);
    // One level fewer; the last level stops tracking.
    void released(const QByteArray &name, const QByteArray &owner, bool fully);
    void forget(const QByteArray &name); // every hold on the name (force release)
    // Switched on, the lease is renewed at once, so the countdown jumps back up right away.
    bool setRenewal(const QByteArray &name, const QByteArray &owner, bool renew);

    bool isTracked(const QByteArray &name, const QByteArray &owner) const;
    bool isRenewing(const QByteArray &name, const QByteArray &owner) const;
    qint64 leaseOf(const QByteArray &name, const QByteArray &owner) const; // 0 when not tracked
    QList<HoldEvent> holds() const;

    // Runs a renewal round now instead of at the next tick.
    void renewNow();

signals:
    void renewed(const LockScope::HoldEvent &hold);
    void lost(const LockScope::HoldEvent &hold);
    void renewalFailed(const LockScope::RedisError &error);

private:
    using Key = QPair<QByteArray, QByteArray>;
    struct Hold
    {
        qint64 leaseMs = 0; // the latest level's lease: what a partial release resets the TTL to, as Redisson does
        bool renew = false;
        qint64 watchdogMs = 0; // what a renewal extends it to; 0: the client's watchdog timeout
        int levels = 0;
        qint64 confirmedMs = 0; // on m_clock: when the server last confirmed the hold (acquire, or renewal sent)
        QByteArray readTimeoutPrefix; // read holds: their rwlock_timeout keys are renewed with them
        const RedisScript *renewal = nullptr; // the layout's batch script: holds of one layout renew together
        LockMode kind = LockMode::Reentrant;
    };
    qint64 renewalLease(const Hold &hold) const; // 0: only check that the hold is still there
    // No hold left: the timer stops, and ticks every third of the client's watchdog timeout again when one comes.
    void idle();
    void tick();
    void renewBatch(const RedisScript &script, const QList<Key> &keys);
    // After a failed round: holds that no renewal has confirmed for a whole lease are gone by now.
    void expireUnconfirmed(const QList<Key> &keys);

    RedisCommander *m_connection;
    LockClientOptions m_options;
    QHash<Key, Hold> m_holds;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

} // namespace LockScope
