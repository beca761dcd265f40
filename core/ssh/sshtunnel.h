#pragma once

#include "ssh/sshoptions.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <thread>

namespace LockScope {

class SshWorker;
class ThreadMailbox;
struct ThreadEnd;

// The caller's side of an SSH session (SshWorker runs it in a thread of its own). Every connection of a profile in
// one thread shares one tunnel, hence one SSH session and one host-key check: forOptions() hands out the same tunnel
// while anyone still holds it.
class SshTunnel : public QObject
{
    Q_OBJECT
public:
    // fd: a connected local stream socket the callee now owns, or -1 and the error.
    using Opened = std::function<void(int fd, const RedisError &error)>;

    static std::shared_ptr<SshTunnel> forOptions(const SshOptions &options, int connectTimeoutMs);
    ~SshTunnel() override;

    const SshOptions &options() const { return m_options; }
    // Asks the SSH host to connect to host:port (as the SSH host resolves and reaches it). done runs later in this
    // thread, exactly once, unless context is gone by then (the socket is closed for it).
    void openChannel(const QString &host, quint16 port, int timeoutMs, QObject *context, Opened done);
    // The session now: up, or why it went down.
    SshSessionStatus status() const;

private slots:
    void drainMailbox(); // what the worker's thread posted

private:
    SshTunnel(SshOptions options, int connectTimeoutMs);
    void delivered(quint64 request, int fd, const RedisError &error);

    struct Waiting
    {
        QPointer<QObject> context;
        Opened done;
    };

    SshOptions m_options;
    std::shared_ptr<ThreadMailbox> m_mailbox; // how the worker's thread reaches this object
    std::shared_ptr<SshWorker> m_worker;
    std::thread m_thread;
    std::shared_ptr<ThreadEnd> m_threadEnd; // when the worker's thread is done with libssh
    int m_connectTimeoutMs = 0;
    QHash<quint64, Waiting> m_waiting;
    quint64 m_nextRequest = 0;
    bool m_delivering = false;
};

} // namespace LockScope
