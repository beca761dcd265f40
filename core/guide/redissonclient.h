#pragma once

#include "guide/guideclient.h"
#include "guide/redissonwatchdog.h"
#include "redis/connectionoptions.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

namespace LockScope {
class RedisConnection;
class RedisSubscriber;
} // namespace LockScope

namespace LockScope::Guide {

// One Redisson client as Redisson 4.x behaves, not as LockScope's own LockClient does (docs/guide.md): one client
// id, Java threads by number, one pub/sub entry per lock shared by the client's threads with a latch whose permits
// an unlock message releases, lock() and tryLock(wait) loops, one batched watchdog every third of the timeout that
// drops a lock answering 0 without a word, and unlock with a request id and its latch. Every command it sends and
// everything its threads go through is reported as a GuideRecord; Java outcomes are worded as Java reports them.
class RedissonClient : public GuideClient
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray client; // "A": the watchdog's lane
        QByteArray uuid;
        QHash<qint64, QByteArray> threads; // thread id -> alias ("A1")
        int watchdogTimeoutMs = 30000;
        UnlockEffect unlockEffect = UnlockEffect::V4;
    };

    RedissonClient(
        ConnectionOptions connection, Options options, std::function<qint64()> clock, QObject *parent = nullptr);
    ~RedissonClient() override;

    const Options &options() const { return m_options; }
    QByteArray owner(qint64 thread) const override;
    QByteArray alias(qint64 thread) const;
    static QByteArray channel(const QByteArray &name);
    static QByteArray unlockLatch(const QByteArray &name, const QByteArray &requestId);

    // The Java calls. Each reports its commands as they are answered and ends with callDone(thread).
    void lock(qint64 thread, const QByteArray &name, qint64 leaseMs) override;
    // waitMs < 0: tryLock() with no wait time (one try, never subscribes).
    void tryLock(qint64 thread, const QByteArray &name, qint64 waitMs, qint64 leaseMs) override;
    // dropReply: the script runs, but its answer is "lost" (as after a network failure): no outcome, no latch DEL.
    // effect: the Redisson whose unlock is played for this call (G14, G15 compare them), else the client's.
    void unlock(qint64 thread, const QByteArray &name, bool dropReply, std::optional<UnlockEffect> effect) override;
    // Sends the unlock whose reply was lost again, with the same request id.
    void retryUnlock(qint64 thread, const QByteArray &name) override;
    void forceUnlock(qint64 thread, const QByteArray &name) override;
    // A plain command (the anti-patterns of G01, the observer-like reads of a Java API call).
    void raw(qint64 thread, const QList<QByteArray> &argv) override;

    // Stops every timer and wait, and closes the connections: a client whose program ended.
    void stop() override;

signals:
    void callDone(qint64 thread);

private:
    struct Call
    {
        bool tryLock = false;
        QByteArray name;
        qint64 leaseMs = -1;
        qint64 budgetMs = -1; // tryLock(wait): what is left of the wait time
        qint64 markMs = 0; // when the budget was last charged
        qint64 sleptAtMs = 0;
        bool subscribed = false;
        QTimer *timer = nullptr;
    };
    struct Entry
    {
        int refs = 0;
        int permits = 0;
        bool confirmed = false;
        QList<qint64> waiters;
        QList<std::function<void()>> onConfirmed;
    };
    struct Unlock
    {
        QByteArray requestId;
        qint64 latchTtlMs = 0;
        UnlockEffect effect = UnlockEffect::V4;
    };

    using Reply = std::function<void(const RedisValue &)>;
    void send(qint64 thread, const QByteArray &actor, const QList<QByteArray> &argv, const QByteArray &scriptName,
        const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done, const QString &detail = {});
    void eval(qint64 thread, ScriptId id, const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done);
    void emitEvent(qint64 thread, ActorEvent event, qint64 ms = -1, const QString &detail = {},
        const QString &java = {}, const QByteArray &actor = {});

    void attempt(qint64 thread);
    void onTtl(qint64 thread, qint64 ttl);
    void onAcquired(qint64 thread);
    void finishCall(qint64 thread);
    void charge(Call &call);
    void sleep(qint64 thread, qint64 ms);
    void wake(qint64 thread, ActorEvent cause);
    void subscribe(qint64 thread, std::function<void()> then);
    void unsubscribe(const QByteArray &name);
    void onMessage(const QByteArray &channel, const QByteArray &payload);
    void sendUnlock(qint64 thread, const QByteArray &name, const Unlock &unlock, bool dropReply);
    void onUnlocked(qint64 thread, const QByteArray &name, const QByteArray &latch, const RedisValue &reply);

    Options m_options;
    std::function<qint64()> m_clock;
    RedisConnection *m_connection;
    RedisSubscriber *m_subscriber;
    QHash<qint64, Call> m_calls;
    QHash<QByteArray, Entry> m_entries; // by lock name
    QHash<QByteArray, qint64> m_leaseTime; // internalLockLeaseTime of each lock object
    QHash<QPair<qint64, QByteArray>, Unlock> m_lostUnlocks;
    RedissonWatchdog *m_watchdog;
    bool m_stopped = false;
};

} // namespace LockScope::Guide
