#include "ssh/sshtunnel.h"

#include "ssh/sshworker.h"
#include "ssh/threadmailbox.h"

#include <QThread>

#include <mutex>

#include <unistd.h>

namespace LockScope {

namespace {
// Per thread: a tunnel's users are the connections of that thread, and its results are delivered there.
thread_local QHash<QString, std::weak_ptr<SshTunnel>> t_tunnels;
} // namespace

std::shared_ptr<SshTunnel> SshTunnel::forOptions(const SshOptions &options, int connectTimeoutMs)
{
    const QString key = options.sessionKey();
    if (auto existing = t_tunnels.value(key).lock())
        return existing;
    // The last holder may be a connection deleted inside one of this tunnel's own callbacks: then later, else now
    // (a deferred delete after the event loop has ended would never happen, and the thread would outlive us).
    std::shared_ptr<SshTunnel> tunnel(new SshTunnel(options, connectTimeoutMs), [](SshTunnel *t) {
        if (t->m_delivering)
            t->deleteLater();
        else
            delete t;
    });
    t_tunnels.insert(key, tunnel);
    return tunnel;
}

SshTunnel::SshTunnel(SshOptions options, int connectTimeoutMs)
    : m_options(std::move(options))
    , m_mailbox(std::make_shared<ThreadMailbox>(this, "drainMailbox"))
{
    auto opened = [mailbox = m_mailbox, owner = this](quint64 request, int fd, const RedisError &error) {
        if (!mailbox->post([owner, request, fd, error] { owner->delivered(request, fd, error); }) && fd >= 0)
            ::close(fd);
    };
    m_worker = std::make_shared<SshWorker>(m_options, connectTimeoutMs, opened);
    m_thread = std::thread([worker = m_worker] { worker->run(); });
}

SshTunnel::~SshTunnel()
{
    // Sockets delivered but not yet taken would leak: run the deliveries (with nobody waiting, each closes its socket).
    m_waiting.clear();
    for (auto &undelivered : m_mailbox->close())
        undelivered();
    for (auto it = t_tunnels.begin(); it != t_tunnels.end();) {
        if (it->expired())
            it = t_tunnels.erase(it);
        else
            ++it;
    }
    m_worker->stop();
    // Stopping is quick, except inside a connect attempt (bounded by the connect timeout): the thread, which holds
    // the worker, then finishes on its own rather than holding up whoever destroys this tunnel (the UI thread).
    if (m_worker->isConnecting())
        m_thread.detach();
    else
        m_thread.join();
}

void SshTunnel::drainMailbox()
{
    m_mailbox->drain();
}

SshSessionStatus SshTunnel::status() const
{
    return m_worker->status();
}

void SshTunnel::openChannel(const QString &host, quint16 port, int timeoutMs, QObject *context, Opened done)
{
    const quint64 request = ++m_nextRequest;
    m_waiting.insert(request, { context, std::move(done) });
    m_worker->open(request, host, port, timeoutMs);
}

void SshTunnel::delivered(quint64 request, int fd, const RedisError &error)
{
    const Waiting waiting = m_waiting.take(request);
    if (!waiting.context || !waiting.done) {
        if (fd >= 0)
            ::close(fd);
        return;
    }
    m_delivering = true;
    waiting.done(fd, error);
    m_delivering = false;
}

} // namespace LockScope
