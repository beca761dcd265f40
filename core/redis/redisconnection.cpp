#include "redis/redisconnection.h"

#include "redis/commandpolicy.h"
#include "redis/redisscript.h"
#include "redis/sentinelresolver.h"

#include <QRandomGenerator>
#include <QTcpSocket>

namespace LockScope {

RedisConnection::RedisConnection(ConnectionOptions options, QObject *parent)
    : RedisCommander(parent)
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
                               .arg(m_connectTimer.interval())), // twice the timeout through SSH
            true);
    });
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RedisConnection::startSocket);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &RedisConnection::checkDeadlines);
    m_deferredTimer.setSingleShot(true);
    m_deferredTimer.setInterval(50);
    connect(&m_deferredTimer, &QTimer::timeout, this, &RedisConnection::flushDeferred);
    if (m_options.usesSentinel()) {
        m_sentinel = new SentinelResolver(m_options, this);
        connect(m_sentinel, &SentinelResolver::masterSwitched, this, [this](const QString &host, quint16 port) {
            if (host == m_options.host && port == m_options.port)
                return;
            // The old master may still be up (demoted, or cut off): leave it now, not when it stops answering.
            dropConnection(RedisError(RedisError::Kind::Io,
                               tr("Sentinel moved master \"%1\" to %2:%3")
                                   .arg(QString::fromUtf8(m_options.sentinelMaster), host)
                                   .arg(port)),
                true);
        });
    }
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

void RedisConnection::handshakeStep(RedisValue reply)
{
    const QList<QByteArray> &argv = m_handshake.at(m_handshakeReplies++);
    if (reply.isError()) {
        const RedisError error = RedisError::fromReply(reply.bytes(), reply.errorCode());
        const QString what = argv.first() == "AUTH" ? tr("authentication failed")
            : argv.first() == "SELECT"              ? tr("SELECT failed")
                                                    : tr("READONLY (reads from a replica) failed");
        const RedisError described(error.kind(), what + QStringLiteral(": ") + error.message());
        // Wrong credentials, a denied command or a database that does not exist do not fix themselves: retrying
        // would only hammer the server. Anything else (max clients reached, LOADING, BUSY) passes: try again.
        const bool final = error.kind() == RedisError::Kind::Auth || error.kind() == RedisError::Kind::Permission
            || (argv.first() == "SELECT" && error.isOutOfRangeDatabase());
        if (!final) {
            dropConnection(described, true);
            return;
        }
        closeFinal(described);
        return;
    }
    if (m_handshakeReplies == m_handshake.size())
        becomeReady();
}

void RedisConnection::closeFinal(const RedisError &error)
{
    dropConnection(error, false);
    for (auto &q : m_queued)
        fail(std::move(q.pending.callback), m_lastError);
    m_queued.clear();
    setState(State::Closed);
}

void RedisConnection::becomeReady()
{
    if (m_sentinel)
        m_sentinel->watch();
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
    Pending pending { std::move(callback), deadlineFromNow(), {} };
    if (m_state == State::Ready) {
        m_inFlight.push_back(std::move(pending));
        if (m_corked > 0)
            appendCommand(&m_corkBuffer, argv); // a pipeline: one buffer, no copy per command
        else
            writeNow(formatCommand(argv));
    } else {
        m_queued.push_back({ formatCommand(argv), std::move(pending), false });
        if (m_state == State::Disconnected && !m_reconnectTimer.isActive())
            open();
    }
    armDeadlineTimer();
}

void RedisConnection::commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback)
{
    for (const QList<QByteArray> &argv : commands) {
        if (m_options.readOnly && !isReadOnlyCommand(argv)) {
            sendBatch({}, -1, std::move(callback));
            return;
        }
    }
    QByteArray bytes;
    for (const QList<QByteArray> &argv : commands)
        appendCommand(&bytes, argv);
    sendBatch(std::move(bytes), commands.size(), std::move(callback));
}

void RedisConnection::commandEach(
    const QList<QByteArray> &head, const QList<QByteArray> &keys, const QList<QByteArray> &tail, BatchCallback callback)
{
    if (m_options.readOnly && !keys.isEmpty() && !isReadOnlyCommand(head + QList<QByteArray> { keys.first() } + tail)) {
        sendBatch({}, -1, std::move(callback));
        return;
    }
    QByteArray bytes;
    qsizetype size = 0;
    for (const QByteArray &a : head + tail)
        size += a.size() + 16;
    for (const QByteArray &key : keys)
        size += key.size() + 16;
    bytes.reserve(size + 16 * keys.size());
    for (const QByteArray &key : keys)
        appendCommand(&bytes, head, key, tail);
    sendBatch(std::move(bytes), keys.size(), std::move(callback));
}

void RedisConnection::sendBatch(QByteArray bytes, qsizetype commands, BatchCallback callback)
{
    // Failures reach a batch the way they reach a command: through its pending entry's callback, later.
    auto batch = std::make_shared<Batch>();
    batch->callback = std::move(callback);
    batch->expected = commands;
    Callback failed = [batch](const RedisResult &r) { batch->callback(r.error, {}); };
    if (commands < 0) {
        fail(std::move(failed),
            RedisError(RedisError::Kind::ReadOnly, tr("a batch that writes refused: the connection is read-only")));
        return;
    }
    if (commands == 0 || m_state == State::Closed) {
        const RedisError error = commands == 0 ? RedisError()
            : m_lastError.isError()            ? m_lastError
                                               : RedisError(RedisError::Kind::Io, tr("connection closed"));
        QMetaObject::invokeMethod(
            this, [batch, error] { batch->callback(error, {}); }, Qt::QueuedConnection);
        return;
    }
    batch->replies.reserve(commands);
    Pending pending { std::move(failed), deadlineFromNow(), std::move(batch) };
    if (m_state == State::Ready) {
        m_inFlight.push_back(std::move(pending));
        if (m_corked > 0)
            m_corkBuffer.append(bytes);
        else
            writeNow(bytes);
    } else {
        m_queued.push_back({ std::move(bytes), std::move(pending), false });
        if (m_state == State::Disconnected && !m_reconnectTimer.isActive())
            open();
    }
    armDeadlineTimer();
}

bool RedisConnection::takeBatchReply(Pending &pending, RedisValue &&value)
{
    Batch &batch = *pending.batch;
    batch.replies.append(std::move(value));
    if (batch.replies.size() < batch.expected) {
        // Replies still coming: the connection is alive, so the deadline runs from here (now and then: reading the
        // clock for each of a million replies would cost more than the check is worth).
        if (pending.deadlineMs && batch.replies.size() % 256 == 0)
            pending.deadlineMs = deadlineFromNow();
        return false;
    }
    return true;
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
            if (self && r.value.isError() && r.value.errorCode() == "NOSCRIPT") {
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

void RedisConnection::commandDeferred(const QList<QByteArray> &argv)
{
    if (m_state != State::Ready || (m_options.readOnly && !isReadOnlyCommand(argv))) {
        command(argv);
        return;
    }
    appendCommand(&m_deferred, argv);
    ++m_deferredCount;
    if (!m_deferredTimer.isActive())
        m_deferredTimer.start();
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
    // The retry is decided before anyone hears of the drop, so that they can say when it comes (retryDelayMs()).
    const bool retry = reconnect && m_options.autoReconnect;
    if (retry)
        scheduleReconnect();
    emit disconnected(error);
    if (!retry) {
        for (auto &q : m_queued)
            fail(std::move(q.pending.callback), error);
        m_queued.clear();
    }
}

int RedisConnection::retryDelayMs() const
{
    if (m_reconnectTimer.isActive())
        return qMax(0, m_reconnectTimer.remainingTime());
    switch (m_state) {
    case State::Connecting:
        return 0; // an attempt is under way: a command that timed out meanwhile reports the drop
    case State::Ready:
        return RetryUnknown;
    case State::Disconnected:
    case State::Closed:
        break;
    }
    return NoRetry;
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
    // A reply read but not yet handed over is no late reply.
    if (m_repliesWaiting && !dispatchReplies(false))
        return;
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
