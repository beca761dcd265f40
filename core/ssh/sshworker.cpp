#include "ssh/sshworker.h"

#include "ssh/sshsession.h"

#include <QCoreApplication>

#include <chrono>

#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

// The session half of the worker: connecting, the host key, authentication. The channels' pump is in
// sshpump.cpp.

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::SshWorker", text);
}

// Dead peers are found by the kernel: TCP keep-alives while idle, and a bound on unacknowledged data otherwise,
// so a bastion that vanishes without a FIN fails the session within about three keep-alive intervals.
void setTcpKeepAlive(int fd, int seconds)
{
    if (fd < 0 || seconds <= 0)
        return;
    const int on = 1;
    const int idle = seconds;
    const int interval = qMax(1, seconds / 3);
    const int count = 3;
    const unsigned int userTimeoutMs = unsigned(seconds) * 3000u;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &userTimeoutMs, sizeof userTimeoutMs);
}
} // namespace

qint64 SshWorker::nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

SshWorker::SshWorker(SshOptions options, int connectTimeoutMs, Opened opened)
    : m_options(std::move(options))
    , m_connectTimeoutMs(qMax(1, connectTimeoutMs))
    , m_opened(std::move(opened))
{
    m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

SshWorker::~SshWorker()
{
    closeSession({});
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void SshWorker::open(quint64 request, const QString &host, quint16 port, int timeoutMs)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_requests.push_back({ request, host.toUtf8(), port, timeoutMs });
    }
    wake();
}

void SshWorker::stop()
{
    m_stopping = true;
    wake();
    // A connect attempt blocks in libssh (the TCP connect, the key exchange, authentication) for up to the connect
    // timeout. Shutting its socket down ends the attempt at once, so that whoever stops the worker can wait for its
    // thread instead of leaving it inside libssh while the process exits and frees what libssh uses. The lock keeps
    // the session from being freed (and its descriptor reused) meanwhile.
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_connecting && m_session) {
        const socket_t fd = ssh_get_fd(m_session);
        if (fd != SSH_INVALID_SOCKET)
            ::shutdown(fd, SHUT_RDWR);
    }
}

void SshWorker::wake()
{
    const quint64 one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
}

void SshWorker::drainWake()
{
    quint64 value = 0;
    [[maybe_unused]] const ssize_t n = ::read(m_wakeFd, &value, sizeof value);
}

QString SshWorker::where() const
{
    return m_options.display();
}

RedisError SshWorker::sshError(const QString &what, QByteArray code) const
{
    const QString detail = m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QString();
    return RedisError(RedisError::Kind::Io,
        detail.isEmpty() ? tr("SSH %1: %2").arg(where(), what) : tr("SSH %1: %2: %3").arg(where(), what, detail),
        std::move(code));
}

void SshWorker::setStatus(bool up, const RedisError &error)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_status.up = up;
    m_status.error = error;
}

SshSessionStatus SshWorker::status() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_status;
}

void SshWorker::run()
{
    while (!m_stopping) {
        std::deque<Request> requests;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            requests.swap(m_requests);
        }
        if (!m_session && !requests.empty()) {
            // A session is made when a channel is wanted: after it fails, the next reconnect of a Redis connection
            // tries again (with that connection's back-off), rather than this thread hammering the bastion.
            RedisError error;
            m_connecting = true;
            const bool connected = !m_stopping && connectSession(&error);
            m_connecting = false;
            if (m_stopping)
                break;
            if (!connected) {
                closeSession(error);
                for (const auto &r : requests)
                    m_opened(r.id, -1, error);
                continue;
            }
        }
        for (const auto &r : requests)
            startOpen(r);
        if (!m_session) {
            pollfd wake { m_wakeFd, POLLIN, 0 };
            ::poll(&wake, 1, -1);
            drainWake();
            continue;
        }

        const qint64 now = nowMs();
        qint64 wait = 1000;
        if (m_options.keepAliveSeconds > 0)
            wait = qMin(wait, qMax<qint64>(0, m_nextKeepAliveMs - now));
        for (const auto &[id, c] : m_channels) {
            if (!c.open)
                wait = qMin(wait, qMax<qint64>(0, qMin<qint64>(c.deadlineMs - now, 20)));
        }
        const int rc = ssh_event_dopoll(m_event, int(wait));
        drainWake();
        if (rc == SSH_ERROR || !ssh_is_connected(m_session)
            || (ssh_get_status(m_session) & (SSH_CLOSED | SSH_CLOSED_ERROR))) {
            closeSession(sshError(tr("the connection to the SSH host was lost")));
            continue;
        }
        const qint64 after = nowMs();
        for (auto &[id, c] : m_channels)
            pump(c, after);
        for (auto it = m_channels.begin(); it != m_channels.end();) {
            if (it->second.done)
                it = m_channels.erase(it);
            else
                ++it;
        }
        if (m_options.keepAliveSeconds > 0 && after >= m_nextKeepAliveMs) {
            // Traffic on an idle session keeps firewalls and NAT from forgetting it; the kernel's keep-alives and
            // TCP_USER_TIMEOUT find a peer that has gone.
            ssh_send_ignore(m_session, "");
            m_nextKeepAliveMs = after + qint64(m_options.keepAliveSeconds) * 1000;
        }
    }
    closeSession({});
}

bool SshWorker::connectSession(RedisError *error)
{
    ssh_session session = newSshSession(m_options, m_connectTimeoutMs);
    {
        std::lock_guard<std::mutex> lock(m_mutex); // stop() reads it to interrupt the attempt
        m_session = session;
    }
    if (m_stopping)
        return false; // stopped before there was a session to interrupt
    if (!m_session) {
        *error = RedisError(RedisError::Kind::Io, tr("SSH %1: out of memory").arg(where()), "SSH");
        return false;
    }
    if (ssh_connect(m_session) != SSH_OK) {
        *error = sshError(tr("cannot connect"));
        return false;
    }
    if (!verifyHostKey(error) || !authenticate(error))
        return false;

    setTcpKeepAlive(ssh_get_fd(m_session), m_options.keepAliveSeconds);
    ssh_set_blocking(m_session, 0);
    m_event = ssh_event_new();
    ssh_event_add_session(m_event, m_session);
    ssh_event_add_fd(
        m_event, m_wakeFd, POLLIN, [](socket_t, int, void *) { return 0; }, nullptr);
    m_nextKeepAliveMs = nowMs() + qint64(m_options.keepAliveSeconds) * 1000;
    setStatus(true, {});
    return true;
}

bool SshWorker::verifyHostKey(RedisError *error)
{
    const SshHostKey key = checkSshHostKey(m_session, m_options);
    if (key.state == SshHostKey::State::Known)
        return true;
    *error = key.error;
    return false;
}

bool SshWorker::authenticate(RedisError *error)
{
    const auto refused = [&](const QString &what) {
        *error = RedisError(RedisError::Kind::Auth, tr("SSH %1: %2").arg(where(), what), "SSH_AUTH");
        return false;
    };
    int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return true;
    if (rc == SSH_AUTH_ERROR) {
        *error = sshError(tr("authentication failed"), "SSH_AUTH");
        return false;
    }
    const int methods = ssh_userauth_list(m_session, nullptr);
    QStringList tried;
    if (!m_options.keyFile.isEmpty()) {
        // A key named for the profile is the only key offered, as with ssh -i and IdentitiesOnly.
        ssh_key key = nullptr;
        const QByteArray file = m_options.keyFile.toLocal8Bit();
        // No passphrase is asked for here (this thread has no one to ask): keys that have one go through the agent.
        if (ssh_pki_import_privkey_file(file.constData(), nullptr, nullptr, nullptr, &key) != SSH_OK) {
            *error = RedisError(RedisError::Kind::Auth,
                tr("SSH %1: cannot read the private key %2 (missing, unreadable, or protected by a passphrase)")
                    .arg(where(), m_options.keyFile),
                "SSH_KEY");
            return false;
        }
        rc = ssh_userauth_publickey(m_session, nullptr, key);
        ssh_key_free(key);
        if (rc == SSH_AUTH_SUCCESS)
            return true;
        tried << tr("the key %1").arg(m_options.keyFile);
    } else if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
        rc = ssh_userauth_publickey_auto(m_session, nullptr, nullptr);
        if (rc == SSH_AUTH_SUCCESS)
            return true;
        tried << tr("the agent and the default keys");
    }
    if (rc == SSH_AUTH_ERROR) {
        *error = sshError(tr("authentication failed"), "SSH_AUTH");
        return false;
    }
    if (!m_options.password.isEmpty() && (methods & SSH_AUTH_METHOD_PASSWORD)) {
        rc = ssh_userauth_password(m_session, nullptr, m_options.password.constData());
        if (rc == SSH_AUTH_SUCCESS)
            return true;
        tried << tr("the password");
    }
    QStringList accepts;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY)
        accepts << QStringLiteral("publickey");
    if (methods & SSH_AUTH_METHOD_PASSWORD)
        accepts << QStringLiteral("password");
    if (methods & SSH_AUTH_METHOD_INTERACTIVE)
        accepts << QStringLiteral("keyboard-interactive");
    const QString user = m_options.user.isEmpty() ? tr("the default user") : m_options.user;
    return refused(tr("authentication as %1 was refused (tried %2; the server accepts %3)")
                       .arg(user, tried.isEmpty() ? tr("nothing") : tried.join(QStringLiteral(", ")),
                           accepts.isEmpty() ? tr("nothing") : accepts.join(QStringLiteral(", "))));
}

void SshWorker::closeSession(const RedisError &error)
{
    const RedisError why = error.isError() ? error : sshError(tr("the tunnel closed"));
    if (status().up || error.isError())
        setStatus(false, error);
    for (auto &[id, c] : m_channels) {
        if (!c.open)
            m_opened(c.id, -1, why);
        closeChannel(c);
    }
    m_channels.clear();
    if (m_event) {
        ssh_event_remove_fd(m_event, m_wakeFd);
        if (m_session)
            ssh_event_remove_session(m_event, m_session);
        ssh_event_free(m_event);
        m_event = nullptr;
    }
    if (m_session) {
        if (ssh_is_connected(m_session))
            ssh_disconnect(m_session);
        ssh_session session = nullptr;
        {
            std::lock_guard<std::mutex> lock(m_mutex); // no interrupt of a session being freed
            std::swap(session, m_session);
        }
        ssh_free(session);
    }
}

} // namespace LockScope
