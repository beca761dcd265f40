#include "ssh/sshworker.h"

#include <QCoreApplication>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// The channels' half of the worker: opening direct-tcpip channels and moving bytes between each and its local
// socket pair, with back-pressure both ways (a full buffer stops reading from the other side).

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::SshWorker", text);
}

// Past this much unsent data in one direction the other side is no longer read: the SSH window (or the kernel's
// socket buffer) then holds the sender back.
constexpr int BufferCap = 1 << 20;
constexpr int Chunk = 64 * 1024;

int onLocalEvent(socket_t, int, void *)
{
    // Only wakes the loop: every channel is pumped after each poll.
    return 0;
}
} // namespace

void SshWorker::startOpen(const Request &request)
{
    if (!m_session)
        return;
    Channel c;
    c.id = request.id;
    c.host = request.host;
    c.port = request.port;
    c.deadlineMs = nowMs() + qMax(1, request.timeoutMs);
    c.channel = ssh_channel_new(m_session);
    if (!c.channel) {
        m_opened(c.id, -1, sshError(tr("cannot make a channel")));
        return;
    }
    m_channels.emplace(c.id, std::move(c));
    pump(m_channels.at(request.id), nowMs());
}

void SshWorker::pump(Channel &c, qint64 now)
{
    if (c.done)
        return;
    if (!c.open) {
        const int rc = ssh_channel_open_forward(c.channel, c.host.constData(), c.port, "127.0.0.1", 0);
        if (rc == SSH_AGAIN) {
            if (now >= c.deadlineMs) {
                m_opened(c.id, -1,
                    RedisError(RedisError::Kind::Timeout,
                        tr("SSH %1 did not open a channel to %2:%3 in time")
                            .arg(where(), QString::fromUtf8(c.host))
                            .arg(c.port),
                        "SSH_CHANNEL"));
                closeChannel(c);
            }
            return;
        }
        if (rc != SSH_OK) {
            // The bastion could not reach the address (refused, no route, a name it cannot resolve) or does not
            // allow forwarding: the reason is in its answer.
            m_opened(c.id, -1,
                RedisError(RedisError::Kind::Io,
                    tr("SSH %1 could not reach %2:%3: %4")
                        .arg(where(), QString::fromUtf8(c.host))
                        .arg(c.port)
                        .arg(QString::fromUtf8(ssh_get_error(m_session))),
                    "SSH_CHANNEL"));
            closeChannel(c);
            return;
        }
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) != 0) {
            m_opened(c.id, -1,
                RedisError(RedisError::Kind::Io, tr("cannot make a local socket pair: %1").arg(qt_error_string(errno)),
                    "SSH"));
            closeChannel(c);
            return;
        }
        c.open = true;
        c.localFd = pair[0];
        m_opened(c.id, pair[1], {});
    }

    // Caller -> channel.
    char buffer[Chunk];
    while (!c.localEof && c.toRemote.size() < BufferCap) {
        const ssize_t n = ::read(c.localFd, buffer, sizeof buffer);
        if (n > 0) {
            c.toRemote.append(buffer, int(n));
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            c.localEof = true;
        break;
    }
    while (!c.toRemote.isEmpty()) {
        const int n = ssh_channel_write(c.channel, c.toRemote.constData(), uint32_t(c.toRemote.size()));
        if (n == SSH_ERROR) {
            c.remoteEof = true;
            c.toRemote.clear();
            break;
        }
        if (n <= 0)
            break; // the window is full: the session's next packets open it again
        c.toRemote.remove(0, n);
    }
    // The caller closed its end: the Redis connection is over, whatever is still on the way back.
    if (c.localEof && c.toRemote.isEmpty()) {
        closeChannel(c);
        return;
    }

    // Channel -> caller.
    while (!c.remoteEof && c.toLocal.size() < BufferCap) {
        const int n = ssh_channel_read_nonblocking(c.channel, buffer, sizeof buffer, 0);
        if (n > 0) {
            c.toLocal.append(buffer, n);
            continue;
        }
        if (n == SSH_ERROR || n == SSH_EOF || ssh_channel_is_eof(c.channel) || ssh_channel_is_closed(c.channel))
            c.remoteEof = true;
        break;
    }
    while (!c.toLocal.isEmpty()) {
        const ssize_t n = ::send(c.localFd, c.toLocal.constData(), size_t(c.toLocal.size()), MSG_NOSIGNAL);
        if (n > 0) {
            c.toLocal.remove(0, int(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            break;
        closeChannel(c); // the caller's end is gone
        return;
    }
    // Redis (or the bastion) closed the connection: the caller sees it once it has every byte that came before.
    if (c.remoteEof && c.toLocal.isEmpty()) {
        closeChannel(c);
        return;
    }
    watch(c);
}

void SshWorker::watch(Channel &c)
{
    short events = 0;
    if (!c.localEof && c.toRemote.size() < BufferCap)
        events |= POLLIN;
    if (!c.toLocal.isEmpty())
        events |= POLLOUT;
    if (events == c.watching)
        return;
    if (c.watching)
        ssh_event_remove_fd(m_event, c.localFd);
    if (events)
        ssh_event_add_fd(m_event, c.localFd, events, onLocalEvent, nullptr);
    c.watching = events;
}

void SshWorker::closeChannel(Channel &c)
{
    if (c.done)
        return;
    c.done = true;
    if (c.localFd >= 0) {
        if (c.watching && m_event)
            ssh_event_remove_fd(m_event, c.localFd);
        c.watching = 0;
        ::close(c.localFd);
        c.localFd = -1;
    }
    if (c.channel) {
        if (c.open && m_session && ssh_is_connected(m_session) && !ssh_channel_is_closed(c.channel))
            ssh_channel_close(c.channel);
        ssh_channel_free(c.channel);
        c.channel = nullptr;
    }
}

} // namespace LockScope
