#pragma once

#include "redis/rediserror.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>

namespace LockScope {

class RedisRouter;

// The outcome of one string-lock operation.
struct StringLockResult
{
    QByteArray name;
    QByteArray token; // acquire: ours; release and force release: the token the caller named
    bool done = false; // acquired, released or deleted
    QByteArray tokenNow; // not done: the token the lock holds now (empty: there is no lock)
    qint64 ttlMs = -2; // acquire: our lease when acquired, else the holder's remaining TTL
    bool watchdog = false; // acquire: renewed every third of the lease until released
    RedisError error;
};

// The classic single-key lock of redlock and redis-semaphore's mutex: SET <name> <random token> NX PX <lease>, given
// back by a compare-and-delete script, so nobody ever deletes a lock that has changed hands. It has no wake-up
// channel and no reentrancy. Shares a connection (not owned) with a LockClient; callbacks run later in this thread.
class StringLockClient : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const StringLockResult &)>;

    StringLockClient(RedisRouter *connection, int watchdogTimeoutMs = 30000, QObject *parent = nullptr);
    ~StringLockClient() override;

    // One try. leaseMs <= 0: the watchdog lease, renewed by compare-and-PEXPIRE every third of it while held.
    void acquire(const QByteArray &name, qint64 leaseMs, Callback done);
    // Deletes the lock only while it still holds token (ours, or the one a person saw before a force release).
    void release(const QByteArray &name, const QByteArray &token, Callback done);
    // The same compare-and-delete for a token that is not ours: the guarded force release. Callers audit it.
    void forceRelease(const QByteArray &name, const QByteArray &seenToken, Callback done);

    // Our holds that the watchdog renews; off lets a hold run out (and report lost), on renews it again.
    bool setWatchdogEnabled(const QByteArray &name, bool enabled);
    bool isHeld(const QByteArray &name) const { return m_holds.contains(name); }
    // A fresh random token, as the libraries that use this style draw one per acquisition.
    static QByteArray newToken();
    // Whether a value may be a string lock's token: an integer is a counter (Redisson's semaphore permits, a
    // count-down latch), never a lock, and release and force release refuse it ("not a lock"), changing nothing.
    static RedisError checkToken(const QByteArray &name, const QByteArray &value);

signals:
    void renewed(const QByteArray &name, const QByteArray &token, qint64 leaseMs);
    // Our hold vanished or changed hands before we released it (expired, deleted, overwritten).
    void lost(const QByteArray &name, const QByteArray &token);

private:
    struct Hold
    {
        QByteArray token;
        qint64 leaseMs = 0;
        bool watchdog = false;
    };
    RedisError checkWrite(const char *action, const QByteArray &name) const;
    void compareAndDelete(const char *action, const QByteArray &name, const QByteArray &token, Callback done);
    void renewAll();
    void updateTimer();

    RedisRouter *m_connection;
    int m_watchdogTimeoutMs;
    QHash<QByteArray, Hold> m_holds;
    QTimer m_renewTimer;
};

} // namespace LockScope
