#include "redis/redisconnection.h"

#include "redis/sentinelresolver.h"
#include "redis/tlsconfig.h"
#include "ssh/sshtunnel.h"

#include <QElapsedTimer>
#include <QPointer>

#include <QNetworkProxy>
#include <QSslSocket>

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

// The socket half of RedisConnection: connecting (plain or TLS), writing with as few syscalls as Qt allows, and
// turning bytes into replies.

namespace LockScope {

void RedisConnection::startSocket()
{
    if (m_sentinel && !std::exchange(m_addressFresh, false)) {
        // Every (re)connect asks Sentinel first: after a failover the master is somewhere else.
        setState(State::Connecting);
        QPointer<RedisConnection> self(this);
        m_sentinel->resolve([self](const QString &host, quint16 port, const RedisError &error) {
            if (!self || self->m_state != State::Connecting)
                return;
            if (error.isError()) {
                self->dropConnection(error, true);
                return;
            }
            self->m_options.host = host;
            self->m_options.port = port;
            self->m_addressFresh = true;
            self->startSocket();
        });
        return;
    }
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    m_reader.reset();
    m_repliesWaiting = false;
    m_sslErrors.clear();
    setState(State::Connecting);
    if (m_options.ssh.isSet()) {
        startTunnelled();
        return;
    }
    if (m_options.connectTimeoutMs > 0)
        m_connectTimer.start(m_options.connectTimeoutMs);
    makeSocket();
    if (!m_socket)
        return;
    if (m_options.tls) {
        auto *tls = static_cast<QSslSocket *>(m_socket);
        const QString name = m_options.tlsServerName.isEmpty() ? m_options.host : m_options.tlsServerName;
        tls->connectToHostEncrypted(m_options.host, m_options.port, name);
    } else {
        connect(m_socket, &QAbstractSocket::connected, this, &RedisConnection::onTransportUp);
        // Unbuffered: replies are read straight into our buffer, without Qt's extra FIONREAD per readiness.
        m_socket->connectToHost(m_options.host, m_options.port, QIODevice::ReadWrite | QIODevice::Unbuffered);
    }
}

void RedisConnection::makeSocket()
{
    m_socket = m_options.tls ? new QSslSocket(this) : new QTcpSocket(this);
    // RESP goes straight to the server (or through our own SSH tunnel), never through a desktop's HTTP or SOCKS proxy:
    // no proxy lookup is made, which also spares each connect the lookup thread Qt would start for it.
    m_socket->setProxy(QNetworkProxy::NoProxy);
    connect(m_socket, &QTcpSocket::readyRead, this, &RedisConnection::onReadyRead);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &RedisConnection::onSocketError);
    connect(m_socket, &QAbstractSocket::disconnected, this, &RedisConnection::onSocketDisconnected);
    if (!m_options.tls)
        return;
    auto *tls = static_cast<QSslSocket *>(m_socket);
    RedisError error;
    if (!configureTls(tls, m_options, &error)) {
        closeFinal(error);
        return;
    }
    connect(tls, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
        QStringList texts;
        for (const auto &e : errors)
            texts << e.errorString();
        m_sslErrors = texts.join(QStringLiteral("; "));
    });
    connect(tls, &QSslSocket::encrypted, this, &RedisConnection::onTransportUp);
}

void RedisConnection::startTunnelled()
{
    if (!m_tunnel)
        m_tunnel = SshTunnel::forOptions(m_options.ssh, m_options.connectTimeoutMs);
    // Twice the timeout: the SSH session's own connect (when it is not up yet), then the channel and the handshake.
    if (m_options.connectTimeoutMs > 0)
        m_connectTimer.start(2 * m_options.connectTimeoutMs);
    const quint64 request = ++m_channelRequest;
    // The address goes to the SSH host as it is: announced cluster nodes and the master Sentinel names are reached
    // from there, where those addresses mean something.
    m_tunnel->openChannel(m_options.host, m_options.port, m_options.connectTimeoutMs, this,
        [this, request](int fd, const RedisError &error) {
            if (request != m_channelRequest || m_state != State::Connecting) {
                if (fd >= 0)
                    ::close(fd);
                return;
            }
            if (error.isError()) {
                if (error.isFinal())
                    closeFinal(error);
                else
                    dropConnection(error, true);
                return;
            }
            attachTunnelled(fd);
        });
}

void RedisConnection::attachTunnelled(int fd)
{
    makeSocket();
    if (!m_socket) {
        ::close(fd);
        return;
    }
    const QIODevice::OpenMode mode
        = m_options.tls ? QIODevice::ReadWrite : QIODevice::ReadWrite | QIODevice::Unbuffered;
    if (!m_socket->setSocketDescriptor(fd, QAbstractSocket::ConnectedState, mode)) {
        ::close(fd);
        dropConnection(RedisError(RedisError::Kind::Io,
                           tr("cannot use the SSH channel's socket: %1").arg(m_socket->errorString())),
            true);
        return;
    }
    if (m_options.tls) {
        // TLS runs end to end with Redis inside the channel, checked against the name Redis is known by, not the
        // local end of the tunnel.
        auto *tls = static_cast<QSslSocket *>(m_socket);
        tls->setPeerVerifyName(m_options.tlsServerName.isEmpty() ? m_options.host : m_options.tlsServerName);
        tls->startClientEncryption();
        return;
    }
    onTransportUp();
}

void RedisConnection::onTransportUp()
{
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
    m_handshake.clear();
    if (!m_options.password.isEmpty()) {
        if (m_options.user.isEmpty())
            m_handshake.append({ "AUTH", m_options.password });
        else
            m_handshake.append({ "AUTH", m_options.user, m_options.password });
    }
    if (m_options.db != 0)
        m_handshake.append({ "SELECT", QByteArray::number(m_options.db) });
    if (m_options.replicaConnection)
        m_handshake.append({ "READONLY" }); // a cluster replica serves its master's slots to reads only after this
    m_handshakeReplies = 0;
    if (m_handshake.isEmpty()) {
        becomeReady();
        return;
    }
    QByteArray bytes;
    for (const auto &argv : m_handshake)
        appendCommand(&bytes, argv);
    writeNow(bytes);
}

void RedisConnection::writeNow(const QByteArray &bytes)
{
    if (m_corked > 0) {
        m_corkBuffer += bytes;
        return;
    }
    if (!m_deferred.isEmpty()) {
        // Deferred commands ride along at the end of this write: whatever these bytes carry is already in flight,
        // so the deferred replies are the last to come and are matched last.
        // They get deadlines like any command: a stuck server must still be noticed behind them.
        for (int i = 0; i < m_deferredCount; ++i)
            m_inFlight.push_back({ {}, deadlineFromNow(), {} });
        armDeadlineTimer();
        m_deferredCount = 0;
        m_deferredTimer.stop();
        transmit(bytes + std::exchange(m_deferred, {}));
        return;
    }
    transmit(bytes);
}

void RedisConnection::transmit(const QByteArray &bytes)
{
    if (!m_socket)
        return;
    // Qt's own write path toggles the socket's write notifier on every write, which costs event-dispatcher
    // wake-ups on each command. With nothing queued in Qt's buffer the bytes can go straight to the kernel; only
    // what the kernel does not take goes through Qt. TLS must always go through QSslSocket.
    if (!m_options.tls && m_socket->bytesToWrite() == 0 && m_socket->socketDescriptor() >= 0) {
        const ssize_t sent
            = ::send(int(m_socket->socketDescriptor()), bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL);
        if (sent == bytes.size())
            return;
        if (sent > 0) {
            m_socket->write(bytes.constData() + sent, bytes.size() - sent);
            return;
        }
        if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            // Let Qt see and report the failure on its own path.
            m_socket->write(bytes);
            return;
        }
    }
    m_socket->write(bytes);
    m_socket->flush();
}

void RedisConnection::flushDeferred()
{
    if (m_deferred.isEmpty() || m_state != State::Ready)
        return;
    writeNow({});
}

void RedisConnection::uncork()
{
    if (m_corked > 0 && --m_corked == 0 && !m_corkBuffer.isEmpty()) {
        const QByteArray bytes = std::exchange(m_corkBuffer, {});
        if (m_socket && m_state != State::Closed)
            writeNow(bytes);
    }
}

void RedisConnection::onReadyRead()
{
    if (m_options.tls) {
        const QByteArray data = m_socket->readAll();
        m_reader.feed(data.constData(), data.size());
    } else {
        char buffer[64 * 1024];
        bool gotAny = false;
        for (;;) {
            const qint64 n = m_socket->read(buffer, sizeof buffer);
            if (n < 0) {
                // The replies that came before the failure are answers all the same.
                if (dispatchReplies(false))
                    onSocketError();
                return;
            }
            // Readable yet nothing to read is the peer's FIN: an unbuffered Qt socket reports it as 0 bytes and
            // would keep waking us for it, so it has to be recognised here.
            if (n == 0 && !gotAny) {
                if (dispatchReplies(false))
                    onSocketDisconnected();
                return;
            }
            gotAny = true;
            m_reader.feed(buffer, n);
            // A short read emptied the kernel's buffer; asking again would only cost a syscall.
            if (n < qint64(sizeof buffer))
                break;
        }
    }
    dispatchReplies(true);
}

bool RedisConnection::dispatchReplies(bool bounded)
{
    m_repliesWaiting = false;
    if (!m_socket) // what a dropped connection had read answers nothing now
        return false;
    // The clock is read every few replies, from the kRepliesPerClockRead-th on: the lock path's reads bring one or two
    // replies each and read no clock at all (on a VM a clock read can cost a microsecond).
    QElapsedTimer clock;
    int handed = 0;
    QPointer<RedisConnection> self(this);
    for (;;) {
        RedisValue value;
        QString parseError;
        const auto status = m_reader.next(&value, &parseError);
        if (status == RespReader::Status::NeedMore)
            return true;
        if (status == RespReader::Status::ProtocolError) {
            dropConnection(RedisError(RedisError::Kind::Protocol, tr("unreadable reply: %1").arg(parseError)), true);
            return false;
        }
        if (m_state != State::Ready) {
            handshakeStep(std::move(value));
            if (!self || m_state == State::Closed || m_state == State::Disconnected)
                return false;
            continue;
        }
        if (m_pushHandler && m_inFlight.empty()) {
            m_pushHandler(value);
        } else if (m_inFlight.empty()) {
            dropConnection(RedisError(RedisError::Kind::Protocol, tr("reply with no command waiting for it")), true);
            return false;
        } else if (m_inFlight.front().batch) {
            if (takeBatchReply(m_inFlight.front(), std::move(value))) {
                const std::shared_ptr<Batch> batch = std::move(m_inFlight.front().batch);
                m_inFlight.pop_front();
                batch->callback({}, batch->replies);
            }
        } else {
            Pending pending = std::move(m_inFlight.front());
            m_inFlight.pop_front();
            if (pending.callback)
                pending.callback(RedisResult::fromValue(std::move(value)));
        }
        if (!self || !m_socket)
            return false;
        // One read can bring several batches' replies (a scan's pages, each classified and taken in by its
        // callback): taken all in one turn, they held the event loop for 40-80 ms while a million locks loaded. The
        // rest waits for the next turn, in order: the socket's next bytes go behind it in the same reader.
        if (!bounded || ++handed % kRepliesPerClockRead != 0)
            continue;
        if (!clock.isValid()) {
            clock.start();
        } else if (clock.elapsed() >= kDispatchBudgetMs) {
            m_repliesWaiting = true;
            QMetaObject::invokeMethod(
                this,
                [this, socket = QPointer<QTcpSocket>(m_socket)] {
                    if (m_repliesWaiting && m_socket && m_socket == socket)
                        dispatchReplies(true);
                },
                Qt::QueuedConnection);
            return true;
        }
    }
}

void RedisConnection::onSocketError()
{
    if (!m_socket)
        return;
    // Replies read before the failure, still waiting for their turn, are answers all the same.
    if (m_repliesWaiting && !dispatchReplies(false))
        return;
    if (m_tunnel && m_socket->error() == QAbstractSocket::RemoteHostClosedError) {
        tunnelClosed();
        return;
    }
    QString message = m_socket->errorString();
    if (!m_sslErrors.isEmpty() && !message.contains(m_sslErrors))
        message += QStringLiteral(" (") + m_sslErrors + QLatin1Char(')');
    if (m_options.tls && !m_sslErrors.isEmpty()) {
        // Certificate problems are solved by knowing which name and which trust were checked.
        const QString name = m_options.tlsServerName.isEmpty() ? m_options.host : m_options.tlsServerName;
        message += tr("; checked the certificate for \"%1\" against %2")
                       .arg(name,
                           m_options.tlsCaFile.isEmpty() ? tr("the system CA store")
                                                         : tr("the CA file %1").arg(m_options.tlsCaFile));
    }
    const auto kind
        = m_socket->error() == QAbstractSocket::SocketTimeoutError ? RedisError::Kind::Timeout : RedisError::Kind::Io;
    dropConnection(RedisError(kind, tr("%1:%2: %3").arg(m_options.host).arg(m_options.port).arg(message)), true);
}

void RedisConnection::onSocketDisconnected()
{
    if (m_repliesWaiting && !dispatchReplies(false))
        return;
    if (m_tunnel) {
        tunnelClosed();
        return;
    }
    dropConnection(RedisError(RedisError::Kind::Io,
                       tr("%1:%2: the server closed the connection").arg(m_options.host).arg(m_options.port)),
        true);
}

void RedisConnection::tunnelClosed()
{
    // The end of the channel says nothing of why: the SSH session, if it went down, does.
    const SshSessionStatus status = m_tunnel->status();
    if (status.error.isError() && !status.up) {
        dropConnection(status.error, true);
        return;
    }
    dropConnection(RedisError(RedisError::Kind::Io,
                       tr("%1:%2 through SSH %3: the connection closed")
                           .arg(m_options.host)
                           .arg(m_options.port)
                           .arg(m_options.ssh.display())),
        true);
}

} // namespace LockScope
