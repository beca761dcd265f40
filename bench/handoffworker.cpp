#include "handoffworker.h"

#include "benchcommon.h"
#include "lock/lockclient.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/redissubscriber.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cstdio>
#include <unistd.h>

namespace LockScope::Bench {

namespace {
constexpr qint64 nsPerSecond = 1000000000;
// Roughly a minute of fast hand-offs: growing the log while measuring would stall one contender.
constexpr size_t reservedEvents = 1 << 20;
} // namespace

HandoffWorker::HandoffWorker(HandoffWorkerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_events.reserve(reservedEvents);
}

HandoffWorker::~HandoffWorker() = default;

void HandoffWorker::start()
{
    m_client = std::make_unique<LockClient>(m_options.connection);
    m_token = LockClient::currentThreadToken();
    // Both connections are opened and proven before "ready": the first hand-offs must not pay for a TCP
    // handshake or the pub/sub connection's first SUBSCRIBE.
    m_client->connection()->command({ "PING" }, [this](const RedisResult &reply) {
        if (!reply.ok())
            fatal(QStringLiteral("worker PING: %1").arg(reply.error.toString()));
        const QByteArray warmup = "lockscope-bench:handoff-warmup:" + m_client->clientId();
        m_client->subscriber()->subscribe(RedisSubscriber::Kind::Channel, warmup, [this, warmup](const RedisError &e) {
            if (e.isError())
                fatal(QStringLiteral("worker SUBSCRIBE: %1").arg(e.toString()));
            m_client->subscriber()->unsubscribe(RedisSubscriber::Kind::Channel, warmup);
            std::fprintf(stdout, "ready\n");
            std::fflush(stdout);
        });
    });
    m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_stdin, &QSocketNotifier::activated, this, &HandoffWorker::onStdin);
}

void HandoffWorker::onStdin()
{
    char buffer[256];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n <= 0) {
        // The parent is gone or gave up on us: nobody will read the log, and the waiter's shutdown answer
        // that follows is no failure worth reporting.
        m_abandoned = true;
        QCoreApplication::exit(2);
        return;
    }
    m_input.append(buffer, int(n));
    if (!m_started && m_input.contains("go\n")) {
        m_started = true;
        m_deadlineNs = nowNs() + qint64(m_options.seconds * nsPerSecond);
        acquireNext();
    }
}

void HandoffWorker::acquireNext()
{
    AcquireRequest request;
    request.name = m_options.name;
    request.token = m_token;
    request.leaseMs = m_options.leaseMs;
    request.waitMs = -1;
    m_events.push_back({ 'W', nowNs() });
    m_client->acquire(request, [this](const AcquireResult &result) { onAcquired(result); });
}

void HandoffWorker::onAcquired(const AcquireResult &result)
{
    const qint64 acquiredNs = nowNs();
    if (m_abandoned)
        return;
    if (result.error.isError() || !result.acquired)
        fatal(QStringLiteral("worker acquire: %1 (acquired %2, ttl %3 ms)")
                  .arg(result.error.toString())
                  .arg(result.acquired)
                  .arg(result.ttlMs));
    m_events.push_back({ 'A', acquiredNs });
    // Zero hold time: the release leaves straight from the acquire's callback.
    m_events.push_back({ 'R', nowNs() });
    m_client->release(
        m_options.name, result.owner,
        [this](const ReleaseResult &released) {
            if (m_abandoned)
                return;
            if (released.error.isError() || released.outcome != ReleaseResult::Outcome::Released)
                fatal(QStringLiteral("worker release: %1 %2").arg(released.error.toString(), released.message));
            if (nowNs() < m_deadlineNs)
                acquireNext();
            else
                finish();
        },
        LockMode::Reentrant);
}

void HandoffWorker::finish()
{
    m_stdin->setEnabled(false);
    QByteArray out;
    out.reserve(int(m_events.size() * 24));
    for (const Event &e : m_events) {
        out += e.kind;
        out += ' ';
        out += QByteArray::number(e.ns);
        out += '\n';
    }
    out += "done\n";
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    std::fflush(stdout);
    QCoreApplication::exit(0);
}

int runHandoffWorker(const HandoffWorkerOptions &options)
{
    HandoffWorker worker(options);
    QMetaObject::invokeMethod(&worker, &HandoffWorker::start, Qt::QueuedConnection);
    return QCoreApplication::exec();
}

} // namespace LockScope::Bench
