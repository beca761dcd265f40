#include "lock/blockinglockclient.h"

#include "base/taskrelay.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

namespace LockScope {

namespace {
// One answer from the client's thread to a waiting caller.
template <typename T> struct Pending
{
    std::mutex mutex;
    std::condition_variable answered;
    std::optional<T> value;
    bool broken = false;

    void set(const T &v)
    {
        std::lock_guard<std::mutex> lock(mutex);
        value = v;
        answered.notify_all();
    }
    std::optional<T> wait()
    {
        std::unique_lock<std::mutex> lock(mutex);
        answered.wait(lock, [this] { return value.has_value() || broken; });
        return value;
    }
};

// Held only by the callback: if the client dies with the call unanswered, the callback is destroyed unrun, this
// breaks the call, and the caller gets an error instead of waiting forever.
template <typename T> struct Promise
{
    std::shared_ptr<Pending<T>> pending;
    ~Promise()
    {
        std::lock_guard<std::mutex> lock(pending->mutex);
        pending->broken = true;
        pending->answered.notify_all();
    }
};
} // namespace

BlockingLockClient::BlockingLockClient(ConnectionOptions connection, LockClientOptions options)
{
    // A std::thread rather than a QThread, its loop ended from inside (a task), the relay living and dying on its
    // stack: nothing crosses threads through QtCore, where ThreadSanitizer could not follow.
    m_thread = std::thread([this] {
        QEventLoop loop; // first: it gives this adopted thread its event dispatcher
        TaskRelay relay;
        {
            std::lock_guard<std::mutex> lock(m_startMutex);
            m_relay = &relay;
            m_loop = &loop;
            m_threadId = std::this_thread::get_id();
        }
        m_started.notify_all();
        loop.exec();
        // deleteLater() of the client's sockets and timers: no loop will run again in this thread.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    });
    {
        std::unique_lock<std::mutex> lock(m_startMutex);
        m_started.wait(lock, [this] { return m_relay != nullptr; });
    }
    // Sockets must be born in the thread that serves them, so the client is created there.
    runAndWait([&] { m_client = new LockClient(connection, options); });
}

BlockingLockClient::~BlockingLockClient()
{
    {
        // Waits for calls that are posting right now; later ones are refused.
        std::unique_lock<std::shared_mutex> closing(m_lifetime);
        m_closing = true;
    }
    runAndWait([client = m_client] { delete client; });
    m_relay->post([loop = m_loop] { loop->quit(); });
    m_thread.join();
}

void BlockingLockClient::runAndWait(std::function<void()> task)
{
    // A task the relay drops (it could not make its eventfd) breaks the wait instead of hanging it.
    auto pending = std::make_shared<Pending<bool>>();
    auto promise = std::make_shared<Promise<bool>>();
    promise->pending = pending;
    m_relay->post([task = std::move(task), promise] {
        task();
        promise->pending->set(true);
    });
    pending->wait();
}

QByteArray BlockingLockClient::clientId() const
{
    return m_client ? m_client->clientId() : QByteArray();
}

template <typename T, typename Start> T BlockingLockClient::call(Start start)
{
    const auto refused = [](const QString &why) {
        T r;
        r.error = RedisError(RedisError::Kind::InvalidArgument, why);
        return r;
    };
    if (std::this_thread::get_id() == m_threadId)
        return refused(QStringLiteral("a blocking lock call from the lock client's own thread would never return"));
    auto pending = std::make_shared<Pending<T>>();
    {
        std::shared_lock<std::shared_mutex> alive(m_lifetime);
        if (m_closing)
            return refused(QStringLiteral("the lock client is shutting down"));
        auto promise = std::make_shared<Promise<T>>();
        promise->pending = pending;
        m_relay->post([start, promise]() mutable { start([promise](const T &r) { promise->pending->set(r); }); });
    }
    if (const std::optional<T> answer = pending->wait())
        return *answer;
    T r;
    r.error = RedisError(RedisError::Kind::Io, QStringLiteral("the lock client shut down before answering"));
    return r;
}

RedisResult BlockingLockClient::command(const QList<QByteArray> &argv)
{
    return call<RedisResult>([this, argv](auto done) { m_client->connection()->command(argv, done); });
}

AcquireResult BlockingLockClient::acquire(AcquireRequest request)
{
    // The owner is the thread that asks, not the client's thread that sends.
    if (request.token.isEmpty())
        request.token = LockClient::currentThreadToken();
    return call<AcquireResult>([this, request](auto done) { m_client->acquire(request, done); });
}

ReleaseResult BlockingLockClient::release(const QByteArray &name, const QByteArray &owner, LockMode kind)
{
    return call<ReleaseResult>([this, name, owner, kind](auto done) { m_client->release(name, owner, done, kind); });
}

ForceReleaseResult BlockingLockClient::forceRelease(const QByteArray &name, const QByteArray &expectOwner)
{
    return call<ForceReleaseResult>(
        [this, name, expectOwner](auto done) { m_client->forceRelease(name, expectOwner, done, LockMode::Reentrant); });
}

QueryResult BlockingLockClient::isLocked(const QByteArray &name)
{
    return call<QueryResult>([this, name](auto done) { m_client->isLocked(name, done); });
}

QueryResult BlockingLockClient::holdCount(const QByteArray &name, const QByteArray &owner)
{
    return call<QueryResult>([this, name, owner](auto done) { m_client->holdCount(name, owner, done); });
}

QueryResult BlockingLockClient::remainingTtl(const QByteArray &name)
{
    return call<QueryResult>([this, name](auto done) { m_client->remainingTtl(name, done); });
}

QueryResult BlockingLockClient::isHeldBy(const QByteArray &name, const QByteArray &owner)
{
    return call<QueryResult>([this, name, owner](auto done) { m_client->isHeldBy(name, owner, done); });
}

bool BlockingLockClient::setWatchdogEnabled(const QByteArray &name, const QByteArray &owner, bool enabled)
{
    std::shared_lock<std::shared_mutex> alive(m_lifetime);
    if (m_closing || std::this_thread::get_id() == m_threadId)
        return false;
    bool result = false;
    runAndWait([&] { result = m_client->setWatchdogEnabled(name, owner, enabled); });
    return result;
}

BlockingLock BlockingLockClient::lock(const QByteArray &name)
{
    return BlockingLock(this, name);
}

BlockingLock::BlockingLock(BlockingLockClient *client, QByteArray name)
    : m_client(client)
    , m_name(std::move(name))
{ }

QByteArray BlockingLock::ownerForCurrentThread() const
{
    return m_client->client()->ownerField(LockClient::currentThreadToken());
}

AcquireResult BlockingLock::lock(qint64 leaseMs)
{
    return tryLock(-1, leaseMs);
}

AcquireResult BlockingLock::tryLock(qint64 waitMs, qint64 leaseMs)
{
    AcquireRequest request;
    request.name = m_name;
    request.waitMs = waitMs;
    request.leaseMs = leaseMs;
    return m_client->acquire(request);
}

ReleaseResult BlockingLock::unlock()
{
    return m_client->release(m_name, ownerForCurrentThread());
}

ForceReleaseResult BlockingLock::forceUnlock()
{
    return m_client->forceRelease(m_name);
}

bool BlockingLock::isLocked()
{
    return m_client->isLocked(m_name).value == 1;
}

qint64 BlockingLock::holdCount()
{
    return m_client->holdCount(m_name, ownerForCurrentThread()).value;
}

qint64 BlockingLock::remainingTtl()
{
    return m_client->remainingTtl(m_name).value;
}

bool BlockingLock::isHeldByCurrentThread()
{
    return m_client->isHeldBy(m_name, ownerForCurrentThread()).value == 1;
}

} // namespace LockScope
