#pragma once

#include "ssh/sshoptions.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <mutex>

#include <libssh/libssh.h>

namespace LockScope {

// One SSH session and the channels forwarded through it, driven by a thread of its own (libssh is a blocking C
// library: its session never meets the caller's event loop). Connecting and authenticating block that thread, never
// the caller's; then every channel is pumped by one poll loop (ssh_event) between the session and a local socket
// pair whose other end the caller gets, already connected. Nothing listens on a port: no other local user can
// borrow the tunnel.
class SshWorker
{
public:
    using Opened = std::function<void(quint64 request, int fd, const RedisError &error)>;

    SshWorker(SshOptions options, int connectTimeoutMs, Opened opened);
    ~SshWorker();

    // Thread-safe: asks for a channel to host:port as the SSH host sees it. The answer comes through opened, from the
    // worker's thread, exactly once (unless the worker stops first).
    void open(quint64 request, const QString &host, quint16 port, int timeoutMs);
    // Thread-safe: ends the loop, and a connect attempt under way (its socket is shut down); run() returns soon after,
    // unless the attempt is still resolving the host's name.
    void stop();
    void run();
    // Thread-safe: the session as it is now. Updated before the channels of a session that went down are closed, so
    // whoever sees a channel end can already read why.
    SshSessionStatus status() const;

private:
    struct Request
    {
        quint64 id = 0;
        QByteArray host;
        quint16 port = 0;
        int timeoutMs = 0;
    };
    struct Channel
    {
        quint64 id = 0;
        QByteArray host;
        quint16 port = 0;
        ssh_channel channel = nullptr;
        bool open = false;
        qint64 deadlineMs = 0; // while opening
        int localFd = -1; // ours; the caller got the other end of the pair
        QByteArray toRemote; // read from the caller, not yet taken by the channel (its window is full)
        QByteArray toLocal; // from the channel, not yet taken by the caller's socket
        bool localEof = false;
        bool remoteEof = false;
        short watching = 0; // the poll events registered for localFd
        bool done = false;
    };

    static qint64 nowMs(); // a monotonic clock for deadlines and keep-alives

    bool connectSession(RedisError *error);
    bool verifyHostKey(RedisError *error);
    bool authenticate(RedisError *error);
    void closeSession(const RedisError &error);
    void startOpen(const Request &request);
    void pump(Channel &channel, qint64 now);
    void closeChannel(Channel &channel);
    void watch(Channel &channel);
    void wake();
    void drainWake();
    void setStatus(bool up, const RedisError &error);
    QString where() const;
    RedisError sshError(const QString &what, QByteArray code = "SSH") const;

    SshOptions m_options;
    int m_connectTimeoutMs;
    Opened m_opened;
    mutable std::mutex m_mutex;
    std::deque<Request> m_requests; // guarded by m_mutex
    std::atomic<bool> m_stopping { false };
    std::atomic<bool> m_connecting { false };
    int m_wakeFd = -1;

    ssh_session m_session = nullptr; // set and cleared under m_mutex (stop() interrupts a connect through it)
    ssh_event m_event = nullptr;
    std::map<quint64, Channel> m_channels;
    SshSessionStatus m_status; // guarded by m_mutex
    qint64 m_nextKeepAliveMs = 0;
};

} // namespace LockScope
