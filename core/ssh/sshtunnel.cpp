#include "ssh/sshtunnel.h"

#include "ssh/sshworker.h"
#include "ssh/threadmailbox.h"

#include <QThread>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <unistd.h>

namespace LockScope {

// Whether a worker's thread has finished with libssh (its session freed), for a bounded wait.
struct ThreadEnd
{
    std::mutex mutex;
    std::condition_variable ended;
    bool finished = false;

    void finish()
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            finished = true;
        }
        ended.notify_all();
    }
    bool waitFor(int ms)
    {
        std::unique_lock<std::mutex> lock(mutex);
        return ended.wait_for(lock, std::chrono::milliseconds(ms), [this] { return finished; });
    }
};

namespace {
// Per thread: a tunnel's users are the connections of that thread, and its results are delivered there.
thread_local QHash<QString, std::weak_ptr<SshTunnel>> t_tunnels;

// Worker threads a tunnel could not wait for (stopped while resolving the SSH host's name, which nothing interrupts):
// the process's exit waits for them, each at most its connect timeout, so that no thread is inside libssh while the
// exit handlers free what it uses (libssh's own destructor, OpenSSL's, Qt's). Never destroyed: the exit handler uses
// it.
struct Stragglers
{
    std::mutex mutex;
    std::vector<std::pair<std::shared_ptr<ThreadEnd>, int>> threads;
};

Stragglers &stragglers()
{
    static auto *s = new Stragglers;
    return *s;
}

void waitForStragglers()
{
    std::vector<std::pair<std::shared_ptr<ThreadEnd>, int>> threads;
    {
        std::lock_guard<std::mutex> lock(stragglers().mutex);
        threads.swap(stragglers().threads);
    }
    for (const auto &[end, boundMs] : threads)
        end->waitFor(boundMs);
}

void leaveToFinish(std::thread thread, std::shared_ptr<ThreadEnd> end, int boundMs)
{
    static const bool registered = std::atexit(waitForStragglers) == 0;
    Q_UNUSED(registered);
    thread.detach();
    std::lock_guard<std::mutex> lock(stragglers().mutex);
    stragglers().threads.emplace_back(std::move(end), boundMs);
}
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
    m_threadEnd = std::make_shared<ThreadEnd>();
    m_connectTimeoutMs = qMax(1, connectTimeoutMs);
    m_thread = std::thread([worker = m_worker, end = m_threadEnd]() mutable {
        worker->run();
        worker.reset(); // the session is freed here when the tunnel has already let go of the worker
        end->finish();
    });
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
    // Stopping is quick, a connect attempt included (stop() shuts its socket down), except while the attempt resolves
    // the SSH host's name: then the thread, which holds only the worker, finishes on its own rather than holding up
    // whoever destroys this tunnel (the UI thread), and the process's exit waits for it.
    m_worker->stop();
    m_worker.reset();
    if (m_threadEnd->waitFor(2000))
        m_thread.join();
    else
        leaveToFinish(std::move(m_thread), m_threadEnd, m_connectTimeoutMs + 1000);
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
