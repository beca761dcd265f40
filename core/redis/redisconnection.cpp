#include "redisconnection.h"

#include "commandpolicy.h"
#include "redisscript.h"
#include "tlsconfig.h"

#include <QRandomGenerator>
#include <QSslSocket>

#include <cerrno>
#include <sys/socket.h>

namespace LockScope {

RedisConnection::RedisConnection(ConnectionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_clock.start();
    m_connectTimer.setSingleShot(true);
    m_reconnectTimer.setSingleShot(true);
    m_deadlineTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        dropConnection(RedisError(RedisError::Kind::Timeout,
                           tr("connecting to %1:%2 took longer than %3 ms")
                               .arg(m_options.host)
                               .arg(m_options.port)
                               .arg(m_options.connectTimeoutMs)),
            true);
    });
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RedisConnection::startSocket);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &RedisConnection::checkDeadlines);
    m_deferredTimer.setSingleShot(true);
    m_deferredTimer.setInterval(50);
    connect(&m_deferredTimer, &QTimer::timeout, this, &RedisConnection::flushDeferred);
}

RedisConnection::~RedisConnection()
{
    // Housekeeping still waiting for a ride (an unlock latch's DEL) leaves now, or the latch would linger.
    if (m_state == State::Ready && !m_deferred.isEmpty() && m_corked == 0) {
        transmit(std::exchange(m_deferred, {}));
        if (m_socket && m_socket->bytesToWrite() > 0)
            m_socket->waitForBytesWritten(100);
    }
    // Callbacks may capture objects that are being destroyed too: drop them unrun.
    m_inFlight.clear();
    m_queued.clear();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

void RedisConnection::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void RedisConnection::open()
{
    if (m_state == State::Connecting || m_state == State::Ready)
        return;
    m_everOpened = true;
    m_reconnectDelayMs = m_options.reconnectInitialDelayMs;
    m_reconnectTimer.stop();
    startSocket();
}

void RedisConnection::close()
{
    m_reconnectTimer.stop();
    dropConnection(RedisError(RedisError::Kind::Io, tr("connection closed")), false);
    for (auto &q : m_queued)
        fail(std::move(q.pending.callback), RedisError(RedisError::Kind::Io, tr("connection closed")));
    m_queued.clear();
    setState(State::Closed);
}

void RedisConnection::abandon(const RedisError &error)
{
    dropConnection(error, true);
}

void RedisConnection::startSocket()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
    }
    m_socket = m_options.tls ? new QSslSocket(this) : new QTcpSocket(this);
    m_reader.reset();
    m_sslErrors.clear();
    setState(State::Connecting);
    connect(m_socket, &QTcpSocket::readyRead, this, &RedisConnection::onReadyRead);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &RedisConnection::onSocketError);
    connect(m_socket, &QAbstractSocket::disconnected, this, &RedisConnection::onSocketDisconnected);
    if (m_options.connectTimeoutMs > 0)
        m_connectTimer.start(m_options.connectTimeoutMs);
    if (m_options.tls) {
        auto *tls = static_cast<QSslSocket *>(m_socket);
        RedisError error;
        if (!configureTls(tls, m_options, &error)) {
            dropConnection(error, false);
            setState(State::Closed);
            return;
        }
        connect(tls, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            QStringList texts;
            for (const auto &e : errors)
                texts << e.errorString();
            m_sslErrors = texts.join(QStringLiteral("; "));
        });
        connect(tls, &QSslSocket::encrypted, this, &RedisConnection::onTransportUp);
        const QString name = m_options.tlsServerName.isEmpty() ? m_options.host : m_options.tlsServerName;
        tls->connectToHostEncrypted(m_options.host, m_options.port, name);
    } else {
        connect(m_socket, &QAbstractSocket::connected, this, &RedisConnection::onTransportUp);
        // Unbuffered: replies are read straight into our buffer, without Qt's extra FIONREAD per readiness.
        m_socket->connectToHost(m_options.host, m_options.port, QIODevice::ReadWrite | QIODevice::Unbuffered);
    }
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
    m_handshakeReplies = 0;
    if (m_handshake.isEmpty()) {
        becomeReady();
        return;
    }
    QByteArray bytes;
    for (const auto &argv : m_handshake)
        bytes += formatCommand(argv);
    writeNow(bytes);
}

void RedisConnection::handshakeStep(RedisValue reply)
{
    const QList<QByteArray> &argv = m_handshake.at(m_handshakeReplies++);
    if (reply.isError()) {
        const RedisError error = RedisError::fromReply(reply);
        const QString what = argv.first() == "AUTH" ? tr("authentication failed") : tr("SELECT failed");
        const RedisError described(error.kind(), what + QStringLiteral(": ") + error.message());
        // Wrong credentials, a denied command or a database that does not exist do not fix themselves: retrying
        // would only hammer the server. Anything else (max clients reached, LOADING, BUSY) passes: try again.
        const bool final = error.kind() == RedisError::Kind::Auth || error.kind() == RedisError::Kind::Permission
            || (argv.first() == "SELECT" && error.message().contains(QLatin1String("out of range")));
        if (!final) {
            dropConnection(described, true);
            return;
        }
        dropConnection(described, false);
        for (auto &q : m_queued)
            fail(std::move(q.pending.callback), m_lastError);
        m_queued.clear();
        setState(State::Closed);
        return;
    }
    if (m_handshakeReplies == m_handshake.size())
        becomeReady();
}

void RedisConnection::becomeReady()
{
    m_connectTimer.stop();
    m_reconnectDelayMs = m_options.reconnectInitialDelayMs;
    m_lastError = {};
    setState(State::Ready);
    cork();
    while (!m_queued.empty()) {
        Queued q = std::move(m_queued.front());
        m_queued.pop_front();
        if (!q.push)
            m_inFlight.push_back(std::move(q.pending));
        writeNow(q.bytes);
    }
    uncork();
    emit ready();
}

qint64 RedisConnection::deadlineFromNow() const
{
    return m_options.commandTimeoutMs > 0 ? nowMs() + m_options.commandTimeoutMs : 0;
}

void RedisConnection::fail(Callback callback, const RedisError &error)
{
    if (!callback)
        return;
    // Never call back from inside command(): the caller may not be ready for it.
    QMetaObject::invokeMethod(
        this, [callback = std::move(callback), error] { callback(RedisResult::fromError(error)); },
        Qt::QueuedConnection);
}

void RedisConnection::command(QList<QByteArray> argv, Callback callback)
{
    if (m_options.readOnly && !isReadOnlyCommand(argv)) {
        fail(std::move(callback),
            RedisError(RedisError::Kind::ReadOnly,
                tr("%1 refused: the connection is read-only").arg(QString::fromLatin1(argv.value(0)))));
        return;
    }
    if (m_state == State::Closed) {
        fail(std::move(callback),
            m_lastError.isError() ? m_lastError : RedisError(RedisError::Kind::Io, tr("connection closed")));
        return;
    }
    Pending pending { std::move(callback), deadlineFromNow() };
    if (m_state == State::Ready) {
        m_inFlight.push_back(std::move(pending));
        writeNow(formatCommand(argv));
    } else {
        m_queued.push_back({ formatCommand(argv), std::move(pending), false });
        if (m_state == State::Disconnected && !m_reconnectTimer.isActive())
            open();
    }
    armDeadlineTimer();
}

void RedisConnection::sendPush(const QList<QByteArray> &argv)
{
    if (m_state == State::Ready)
        writeNow(formatCommand(argv));
    else if (m_state != State::Closed) {
        m_queued.push_back({ formatCommand(argv), {}, true });
        if (m_state == State::Disconnected && !m_reconnectTimer.isActive())
            open();
    }
}

void RedisConnection::eval(
    const RedisScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args, Callback callback)
{
    // Until this connection has run the script once, send its source: EVAL loads it on the way, and no command
    // pipelined behind it can overtake it as it would behind an EVALSHA answered with NOSCRIPT and sent again.
    const bool loaded = m_loadedScripts.contains(script.sha1());
    QList<QByteArray> argv;
    argv.reserve(3 + keys.size() + args.size());
    argv << (loaded ? QByteArray("EVALSHA") : QByteArray("EVAL")) << (loaded ? script.sha1() : script.source())
         << QByteArray::number(keys.size());
    argv << keys << args;
    QPointer<RedisConnection> self(this);
    command(argv,
        [self, sha = script.sha1(), source = script.source(), argv, callback = std::move(callback)](
            const RedisResult &r) {
            if (self && r.value.isError() && r.value.bytes().startsWith("NOSCRIPT")) {
                // The cache was flushed behind our back (SCRIPT FLUSH, failover to a fresh replica).
                self->m_loadedScripts.remove(sha);
                QList<QByteArray> evalArgv = argv;
                evalArgv[0] = "EVAL";
                evalArgv[1] = source;
                self->command(evalArgv, callback);
                return;
            }
            if (self && !r.error.isError())
                self->m_loadedScripts.insert(sha);
            if (callback)
                callback(r);
        });
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
            m_inFlight.push_back({ {}, deadlineFromNow() });
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

void RedisConnection::commandDeferred(const QList<QByteArray> &argv)
{
    if (m_state != State::Ready || (m_options.readOnly && !isReadOnlyCommand(argv))) {
        command(argv);
        return;
    }
    m_deferred += formatCommand(argv);
    ++m_deferredCount;
    if (!m_deferredTimer.isActive())
        m_deferredTimer.start();
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
                onSocketError();
                return;
            }
            // Readable yet nothing to read is the peer's FIN: an unbuffered Qt socket reports it as 0 bytes and
            // would keep waking us for it, so it has to be recognised here.
            if (n == 0 && !gotAny) {
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
    QPointer<RedisConnection> self(this);
    for (;;) {
        RedisValue value;
        QString parseError;
        const auto status = m_reader.next(&value, &parseError);
        if (status == RespReader::Status::NeedMore)
            return;
        if (status == RespReader::Status::ProtocolError) {
            dropConnection(RedisError(RedisError::Kind::Protocol, tr("unreadable reply: %1").arg(parseError)), true);
            return;
        }
        if (m_state != State::Ready) {
            handshakeStep(std::move(value));
            if (!self || m_state == State::Closed || m_state == State::Disconnected)
                return;
            continue;
        }
        if (m_pushHandler && m_inFlight.empty()) {
            m_pushHandler(value);
        } else if (m_inFlight.empty()) {
            dropConnection(RedisError(RedisError::Kind::Protocol, tr("reply with no command waiting for it")), true);
            return;
        } else {
            Pending pending = std::move(m_inFlight.front());
            m_inFlight.pop_front();
            if (pending.callback)
                pending.callback(RedisResult::fromValue(std::move(value)));
        }
        if (!self || !m_socket)
            return;
    }
}

void RedisConnection::onSocketError()
{
    if (!m_socket)
        return;
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
    dropConnection(RedisError(RedisError::Kind::Io,
                       tr("%1:%2: the server closed the connection").arg(m_options.host).arg(m_options.port)),
        true);
}

void RedisConnection::dropConnection(const RedisError &error, bool reconnect)
{
    if (m_state == State::Disconnected || m_state == State::Closed) {
        if (!m_lastError.isError())
            m_lastError = error;
        return;
    }
    m_connectTimer.stop();
    m_lastError = error;
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    m_corkBuffer.clear();
    m_loadedScripts.clear();
    // Fire-and-forget housekeeping that never left: the next connection does not need it.
    m_deferred.clear();
    m_deferredCount = 0;
    m_deferredTimer.stop();
    auto inFlight = std::exchange(m_inFlight, {});
    setState(State::Disconnected);
    // A reply for these can no longer arrive, and nothing says whether the server ran them.
    for (auto &p : inFlight)
        fail(std::move(p.callback), error);
    emit disconnected(error);
    if (reconnect && m_options.autoReconnect)
        scheduleReconnect();
    else {
        for (auto &q : m_queued)
            fail(std::move(q.pending.callback), error);
        m_queued.clear();
    }
}

void RedisConnection::scheduleReconnect()
{
    const int base = qMax(1, m_reconnectDelayMs);
    // Jitter keeps a fleet of clients from reconnecting in lockstep after a server restart.
    const int delay = base / 2 + int(QRandomGenerator::global()->bounded(base / 2 + 1));
    m_reconnectDelayMs = qMin(m_options.reconnectMaxDelayMs, base * 2);
    m_reconnectTimer.start(delay);
}

void RedisConnection::armDeadlineTimer()
{
    if (m_options.commandTimeoutMs > 0 && !m_deadlineTimer.isActive())
        m_deadlineTimer.start(qMax(10, m_options.commandTimeoutMs / 10));
}

void RedisConnection::checkDeadlines()
{
    const qint64 now = nowMs();
    // Queued commands never reached the server: each can time out on its own.
    for (auto it = m_queued.begin(); it != m_queued.end();) {
        if (!it->push && it->pending.deadlineMs && it->pending.deadlineMs <= now) {
            fail(std::move(it->pending.callback),
                RedisError(RedisError::Kind::Timeout,
                    tr("no connection to %1:%2 within %3 ms%4")
                        .arg(m_options.host)
                        .arg(m_options.port)
                        .arg(m_options.commandTimeoutMs)
                        .arg(m_lastError.isError() ? QStringLiteral(" (") + m_lastError.message() + QLatin1Char(')')
                                                   : QString())));
            it = m_queued.erase(it);
        } else {
            ++it;
        }
    }
    // Replies come in order, so a late reply means the connection is stuck: start over on a fresh one.
    if (!m_inFlight.empty() && m_inFlight.front().deadlineMs && m_inFlight.front().deadlineMs <= now) {
        dropConnection(RedisError(RedisError::Kind::Timeout,
                           tr("%1:%2 did not answer within %3 ms")
                               .arg(m_options.host)
                               .arg(m_options.port)
                               .arg(m_options.commandTimeoutMs)),
            true);
    }
    if (!m_inFlight.empty() || !m_queued.empty())
        armDeadlineTimer();
}

} // namespace LockScope
