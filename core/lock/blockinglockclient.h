#pragma once

#include "lock/lockclient.h"
#include "redis/redisresult.h"

#include <QEventLoop>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <thread>

namespace LockScope {

class BlockingLock;
class TaskRelay;

// The lock client for worker threads: a LockClient running in a thread of its own, and calls that block the
// calling thread (never the client's) until the answer is in. The owner of a hold is the calling thread, as
// with Redisson's RLock. Never call it from the thread it runs in.
class BlockingLockClient
{
public:
    explicit BlockingLockClient(ConnectionOptions connection, LockClientOptions options = {});
    ~BlockingLockClient();
    BlockingLockClient(const BlockingLockClient &) = delete;
    BlockingLockClient &operator=(const BlockingLockClient &) = delete;

    QByteArray clientId() const;
    LockClient *client() const { return m_client; }
    BlockingLock lock(const QByteArray &name);

    // Any command on the client's connection, for the work a lock protects.
    RedisResult command(const QList<QByteArray> &argv);

    AcquireResult acquire(AcquireRequest request);
    ReleaseResult release(const QByteArray &name, const QByteArray &owner, LockMode kind = LockMode::Reentrant);
    ForceReleaseResult forceRelease(const QByteArray &name, const QByteArray &expectOwner = {});
    QueryResult isLocked(const QByteArray &name);
    QueryResult holdCount(const QByteArray &name, const QByteArray &owner);
    QueryResult remainingTtl(const QByteArray &name);
    QueryResult isHeldBy(const QByteArray &name, const QByteArray &owner);
    bool setWatchdogEnabled(const QByteArray &name, const QByteArray &owner, bool enabled);

private:
    template <typename T, typename Start> T call(Start start);
    // Runs task in the client's thread and returns once it has run.
    void runAndWait(std::function<void()> task);

    std::thread m_thread;
    std::thread::id m_threadId;
    TaskRelay *m_relay = nullptr; // lives in m_thread: every call reaches the client through it
    QEventLoop *m_loop = nullptr; // m_thread's, on its stack
    std::mutex m_startMutex;
    std::condition_variable m_started;
    LockClient *m_client = nullptr;
    // Standard rather than Qt primitives throughout: ThreadSanitizer sees these, and not QtCore's.
    std::shared_mutex m_lifetime; // calls post under the shared lock; the destructor closes under the exclusive one
    bool m_closing = false;
};

// Redisson's RLock for one name, bound to the calling thread at each call.
class BlockingLock
{
public:
    BlockingLock(BlockingLockClient *client, QByteArray name);

    AcquireResult lock(qint64 leaseMs = -1); // waits as long as it takes
    AcquireResult tryLock(qint64 waitMs = 0, qint64 leaseMs = -1);
    ReleaseResult unlock();
    ForceReleaseResult forceUnlock();
    bool isLocked();
    qint64 holdCount();
    qint64 remainingTtl();
    bool isHeldByCurrentThread();
    QByteArray ownerForCurrentThread() const;

private:
    BlockingLockClient *m_client;
    QByteArray m_name;
};

} // namespace LockScope
