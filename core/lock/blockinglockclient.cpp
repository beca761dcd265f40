#include "blockinglockclient.h"

#include "redisrouter.h"

#include <future>
#include <memory>

namespace LockScope {

BlockingLockClient::BlockingLockClient(ConnectionOptions connection, LockClientOptions options)
{
    m_thread.setObjectName(QStringLiteral("lockscope-client"));
    // Sockets must be born in the thread that serves them, so the client is created there.
    QObject anchor;
    anchor.moveToThread(&m_thread);
    m_thread.start();
    QMetaObject::invokeMethod(
        &anchor, [&] { m_client = new LockClient(connection, options); }, Qt::BlockingQueuedConnection);
}

BlockingLockClient::~BlockingLockClient()
{
    {
        // Waits for calls that are posting right now; later ones are refused.
        QWriteLocker closing(&m_lifetime);
        m_closing = true;
    }
    QMetaObject::invokeMethod(
        m_client, [client = m_client] { delete client; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

QByteArray BlockingLockClient::clientId() const
{
    return m_client->clientId();
}

template <typename T, typename Start> T BlockingLockClient::call(Start start)
{
    const auto refused = [](const QString &why) {
        T r;
        r.error = RedisError(RedisError::Kind::InvalidArgument, why);
        return r;
    };
    if (QThread::currentThread() == &m_thread)
        return refused(QStringLiteral("a blocking lock call from the lock client's own thread would never return"));
    std::future<T> future;
    {
        QReadLocker alive(&m_lifetime);
        if (m_closing)
            return refused(QStringLiteral("the lock client is shutting down"));
        auto promise = std::make_shared<std::promise<T>>();
        future = promise->get_future();
        // Only the callback keeps the promise: if the client dies with the call unanswered, the callback is
        // destroyed unrun, the promise breaks, and this thread gets an error instead of waiting forever.
        QMetaObject::invokeMethod(
            m_client,
            [start, promise = std::move(promise)]() mutable {
                start([promise](const T &r) { promise->set_value(r); });
            },
            Qt::QueuedConnection);
    }
    try {
        return future.get();
    } catch (const std::future_error &) {
        T r;
        r.error = RedisError(RedisError::Kind::Io, QStringLiteral("the lock client shut down before answering"));
        return r;
    }
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

ReleaseResult BlockingLockClient::release(const QByteArray &name, const QByteArray &owner, LockKind kind)
{
    return call<ReleaseResult>([this, name, owner, kind](auto done) { m_client->release(name, owner, done, kind); });
}

ForceReleaseResult BlockingLockClient::forceRelease(const QByteArray &name, const QByteArray &expectOwner)
{
    return call<ForceReleaseResult>(
        [this, name, expectOwner](auto done) { m_client->forceRelease(name, expectOwner, done); });
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
    QReadLocker alive(&m_lifetime);
    if (m_closing || QThread::currentThread() == &m_thread)
        return false;
    bool result = false;
    QMetaObject::invokeMethod(
        m_client, [&] { result = m_client->setWatchdogEnabled(name, owner, enabled); }, Qt::BlockingQueuedConnection);
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
