#include "faultproxy.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace LockScope::Test {

namespace {
// Where the RESP2 value that starts at pos ends (one past its last byte), -1 while it is incomplete, -2 for bytes
// that are not RESP (an inline command).
qsizetype frameEnd(const QByteArray &buf, qsizetype pos)
{
    if (pos >= buf.size())
        return -1;
    const qsizetype eol = buf.indexOf("\r\n", pos);
    if (eol < 0)
        return -1;
    const char type = buf.at(pos);
    if (type == '+' || type == '-' || type == ':')
        return eol + 2;
    if (type != '$' && type != '*')
        return -2;
    bool ok = false;
    const qint64 n = buf.mid(pos + 1, eol - pos - 1).toLongLong(&ok);
    if (!ok)
        return -2;
    if (n < 0)
        return eol + 2; // nil
    if (type == '$') {
        const qsizetype end = eol + 2 + n + 2;
        return end <= buf.size() ? end : -1;
    }
    qsizetype at = eol + 2;
    for (qint64 i = 0; i < n && at >= 0; ++i)
        at = frameEnd(buf, at);
    return at;
}

// A client's command (an array of bulk strings) as its arguments; empty for anything else.
QList<QByteArray> commandArgv(const QByteArray &frame)
{
    QList<QByteArray> argv;
    if (!frame.startsWith('*'))
        return argv;
    qsizetype at = frame.indexOf("\r\n") + 2;
    while (at < frame.size() && frame.at(at) == '$') {
        const qsizetype eol = frame.indexOf("\r\n", at);
        const qsizetype n = frame.mid(at + 1, eol - at - 1).toLongLong();
        argv << frame.mid(eol + 2, n);
        at = eol + 2 + n + 2;
    }
    return argv;
}
} // namespace

QByteArray FaultProxy::redis5(const QList<QByteArray> &argv)
{
    if (argv.value(0).toUpper() != "SCAN")
        return {};
    for (int i = 2; i < argv.size(); ++i)
        if (argv.at(i).toUpper() == "TYPE")
            return errorReply("ERR syntax error");
    return {};
}

QByteArray FaultProxy::redis6(const QList<QByteArray> &argv)
{
    const QByteArray name = argv.value(0).toUpper();
    const QByteArray sub = argv.value(1).toUpper();
    if (name == "PUBSUB" && sub == "SHARDNUMSUB")
        return errorReply("ERR Unknown subcommand or wrong number of arguments for 'SHARDNUMSUB'. Try PUBSUB HELP.");
    if (name == "CLUSTER" && sub == "SHARDS")
        return errorReply("ERR Unknown subcommand or wrong number of arguments for 'SHARDS'. Try CLUSTER HELP.");
    return {};
}

QStringList FaultProxy::withoutShardedPubSub()
{
    // Unknown to the server, in scripts too ("Unknown Redis command called from script"), as before Redis 7.
    QStringList args;
    for (const char *command : { "SPUBLISH", "SSUBSCRIBE", "SUNSUBSCRIBE" })
        args << QStringLiteral("--rename-command") << QLatin1String(command) << QString();
    return args;
}

FaultProxy::FaultProxy(quint16 upstreamPort, QObject *parent)
    : QObject(parent)
    , m_upstreamPort(upstreamPort)
    , m_listener(new QTcpServer(this))
{
    m_clock.start();
    m_delayTimer.setSingleShot(true);
    m_delayTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_delayTimer, &QTimer::timeout, this, &FaultProxy::deliverDue);
    connect(m_listener, &QTcpServer::newConnection, this, &FaultProxy::onNewConnection);
}

FaultProxy::~FaultProxy()
{
    dropAll();
}

bool FaultProxy::listen()
{
    return m_listener->listen(QHostAddress::LocalHost, 0);
}

quint16 FaultProxy::port() const
{
    return m_listener->serverPort();
}

QString FaultProxy::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(port());
}

void FaultProxy::setFrozen(bool frozen)
{
    m_frozen = frozen;
    thaw();
}

void FaultProxy::setRepliesHeld(bool held)
{
    m_repliesHeld = held;
    thaw();
}

qint64 FaultProxy::heldReplyBytes() const
{
    qint64 total = 0;
    for (const Link *link : m_links)
        total += link->toClient.size();
    return total;
}

void FaultProxy::setSubscribersFrozen(bool frozen)
{
    m_subscribersFrozen = frozen;
    thaw();
}

void FaultProxy::setCommandsFrozen(bool frozen)
{
    m_commandsFrozen = frozen;
    thaw();
}

bool FaultProxy::isFrozen(const Link *link) const
{
    return m_frozen || (link->subscriber ? m_subscribersFrozen : m_commandsFrozen);
}

bool FaultProxy::holdsRequest(const QByteArray &part) const
{
    return std::any_of(
        m_links.cbegin(), m_links.cend(), [&part](const Link *link) { return link->toServer.contains(part); });
}

void FaultProxy::thaw()
{
    for (Link *link : QList<Link *>(m_links)) {
        if (!m_links.contains(link) || isFrozen(link))
            continue;
        QByteArray held = m_repliesHeld ? QByteArray() : std::exchange(link->toClient, {});
        if (!held.isEmpty() && !pumpToClient(link, held))
            continue;
        pumpToServer(link);
    }
}

void FaultProxy::dropAll()
{
    while (!m_links.isEmpty())
        close(m_links.first());
}

void FaultProxy::onNewConnection()
{
    while (QTcpSocket *client = m_listener->nextPendingConnection()) {
        ++m_accepted;
        auto *link = new Link;
        link->client = client;
        link->server = new QTcpSocket(this);
        m_links.append(link);
        link->answering = bool(m_answer);
        connect(client, &QTcpSocket::readyRead, this, [this, link] { readClient(link); });
        connect(client, &QTcpSocket::disconnected, this, [this, link] { close(link); });
        connect(link->server, &QTcpSocket::connected, this, [this, link] { pumpToServer(link); });
        connect(link->server, &QTcpSocket::readyRead, this, [this, link] { readServer(link); });
        connect(link->server, &QTcpSocket::disconnected, this, [this, link] { close(link); });
        link->server->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
    }
}

void FaultProxy::readClient(Link *link)
{
    const QByteArray bytes = link->client->readAll();
    link->subscriber = link->subscriber || bytes.contains("SUBSCRIBE");
    if (!link->answering) {
        link->toServer += bytes;
        pumpToServer(link);
        return;
    }
    link->fromClient += bytes;
    QByteArray forward;
    qsizetype pos = 0;
    while (pos < link->fromClient.size()) {
        const qsizetype end = frameEnd(link->fromClient, pos);
        if (end == -1)
            break;
        if (end == -2) {
            // An inline command: no telling where it ends; stop answering on this connection.
            link->answering = false;
            forward += link->fromClient.mid(pos);
            pos = link->fromClient.size();
            break;
        }
        const QByteArray frame = link->fromClient.mid(pos, end - pos);
        pos = end;
        const QList<QByteArray> argv = commandArgv(frame);
        const QByteArray answer = m_answer ? m_answer(argv) : QByteArray();
        if (!answer.isEmpty()) {
            ++m_answered;
            if (link->pending.empty() || link->subscribed)
                toClient(link, answer);
            else
                link->pending.push_back(answer);
            continue;
        }
        forward += frame;
        const QByteArray name = argv.value(0).toUpper();
        if (name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE")
            link->subscribed = true;
        else if (!link->subscribed)
            link->pending.emplace_back();
    }
    link->fromClient.remove(0, pos);
    link->toServer += forward;
    pumpToServer(link);
}

void FaultProxy::readServer(Link *link)
{
    QByteArray bytes = link->server->readAll();
    if (!link->answering) {
        toClient(link, std::move(bytes));
        return;
    }
    // Each whole reply of the server answers the oldest command it was sent; the proxy's own answers queued
    // behind it follow it out.
    link->fromServer += bytes;
    QByteArray out;
    qsizetype pos = 0;
    while (pos < link->fromServer.size()) {
        const qsizetype end = frameEnd(link->fromServer, pos);
        if (end == -1)
            break;
        if (end == -2) {
            link->answering = false;
            out += link->fromServer.mid(pos);
            pos = link->fromServer.size();
            break;
        }
        out += link->fromServer.mid(pos, end - pos);
        pos = end;
        if (!link->pending.empty() && link->pending.front().isEmpty())
            link->pending.pop_front(); // else a pub/sub push: no command waits for it
        while (!link->pending.empty() && !link->pending.front().isEmpty()) {
            out += link->pending.front();
            link->pending.pop_front();
        }
    }
    link->fromServer.remove(0, pos);
    if (!out.isEmpty())
        toClient(link, std::move(out));
}

void FaultProxy::toClient(Link *link, QByteArray bytes)
{
    if (isFrozen(link) || m_repliesHeld) {
        link->toClient += bytes;
    } else if (m_replyDelayMs > 0) {
        link->delayed.emplace_back(m_clock.elapsed() + m_replyDelayMs, std::move(bytes));
        if (!m_delayTimer.isActive())
            m_delayTimer.start(m_replyDelayMs);
    } else {
        pumpToClient(link, bytes);
    }
}

void FaultProxy::pumpToServer(Link *link)
{
    if (isFrozen(link) || link->server->state() != QAbstractSocket::ConnectedState || link->toServer.isEmpty())
        return;
    QByteArray bytes = std::exchange(link->toServer, {});
    if (m_requestBudget >= 0 && bytes.size() >= m_requestBudget) {
        // The server gets a pipeline's first part, then end of stream; the client hears nothing more.
        link->server->write(bytes.left(m_requestBudget));
        link->server->flush();
        m_requestBudget = -1;
        ++m_cuts;
        close(link);
        return;
    }
    if (m_requestBudget >= 0)
        m_requestBudget -= bytes.size();
    link->server->write(bytes);
}

bool FaultProxy::pumpToClient(Link *link, const QByteArray &bytes)
{
    if (m_replyBudget >= 0 && bytes.size() >= m_replyBudget) {
        // The client gets a reply stream's first part, possibly ending inside a reply, then end of stream.
        link->client->write(bytes.left(m_replyBudget));
        link->client->flush();
        m_replyBudget = -1;
        ++m_cuts;
        close(link);
        return false;
    }
    if (m_replyBudget >= 0)
        m_replyBudget -= bytes.size();
    link->client->write(bytes);
    return true;
}

void FaultProxy::deliverDue()
{
    const qint64 now = m_clock.elapsed();
    qint64 next = -1;
    for (Link *link : QList<Link *>(m_links)) {
        bool open = true;
        while (open && !link->delayed.empty() && link->delayed.front().first <= now) {
            const QByteArray bytes = std::move(link->delayed.front().second);
            link->delayed.pop_front();
            open = pumpToClient(link, bytes);
        }
        if (open && !link->delayed.empty())
            next = next < 0 ? link->delayed.front().first : qMin(next, link->delayed.front().first);
    }
    if (next >= 0)
        m_delayTimer.start(int(qMax<qint64>(0, next - now)));
}

void FaultProxy::close(Link *link)
{
    if (!m_links.removeOne(link))
        return;
    for (QTcpSocket *socket : { link->client, link->server }) {
        socket->disconnect(this);
        // Bytes already written (a cut's first part) leave before the end of stream; nothing else does.
        socket->disconnectFromHost();
        socket->deleteLater();
    }
    delete link;
}

} // namespace LockScope::Test
