#include "faultproxy.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace LockScope::Test {

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
        QByteArray held = std::exchange(link->toClient, {});
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
        connect(client, &QTcpSocket::readyRead, this, [this, link] {
            link->toServer += link->client->readAll();
            link->subscriber = link->subscriber || link->toServer.contains("SUBSCRIBE");
            pumpToServer(link);
        });
        connect(client, &QTcpSocket::disconnected, this, [this, link] { close(link); });
        connect(link->server, &QTcpSocket::connected, this, [this, link] { pumpToServer(link); });
        connect(link->server, &QTcpSocket::readyRead, this, [this, link] {
            QByteArray bytes = link->server->readAll();
            if (isFrozen(link)) {
                link->toClient += bytes;
            } else if (m_replyDelayMs > 0) {
                link->delayed.emplace_back(m_clock.elapsed() + m_replyDelayMs, std::move(bytes));
                if (!m_delayTimer.isActive())
                    m_delayTimer.start(m_replyDelayMs);
            } else {
                pumpToClient(link, bytes);
            }
        });
        connect(link->server, &QTcpSocket::disconnected, this, [this, link] { close(link); });
        link->server->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
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
