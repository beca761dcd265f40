#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <deque>

class QTcpServer;
class QTcpSocket;

namespace LockScope::Test {

// A TCP proxy between a client under test and a real redis-server, run on the test's own event loop, that
// injects network faults on command: replies cut off part-way, a pipeline cut off part-way on its way to the
// server, replies held back, or nothing forwarded at all while every connection stays open.
class FaultProxy : public QObject
{
    Q_OBJECT
public:
    explicit FaultProxy(quint16 upstreamPort, QObject *parent = nullptr);
    ~FaultProxy() override;

    // On 127.0.0.1, an ephemeral port.
    bool listen();
    quint16 port() const;
    QString url() const;

    // Once n more bytes of replies have reached the client, both sides are closed (the client gets those n
    // bytes, then end of stream). One-shot: later connections pass everything.
    void cutRepliesAfter(qint64 n) { m_replyBudget = n; }
    // The same on the way to the server: it receives n more bytes of commands, then end of stream.
    void cutRequestsAfter(qint64 n) { m_requestBudget = n; }
    // Replies reach the client this much later than the server sent them (order kept).
    void setReplyDelay(int ms) { m_replyDelayMs = ms; }
    // Nothing moves either way; connections stay open, bytes wait. Thawing forwards what is still wanted.
    void setFrozen(bool frozen);
    // The same for the links that subscribed (pub/sub connections) only, or for the others only: commands keep
    // flowing while messages wait, or the other way round.
    void setSubscribersFrozen(bool frozen);
    void setCommandsFrozen(bool frozen);
    // Whether the bytes held back on their way to the server contain this (a command sent while frozen).
    bool holdsRequest(const QByteArray &part) const;
    // Every open connection closed at once.
    void dropAll();

    int accepted() const { return m_accepted; }
    int cuts() const { return m_cuts; }
    int openLinks() const { return int(m_links.size()); }

private:
    struct Link
    {
        QTcpSocket *client = nullptr;
        QTcpSocket *server = nullptr;
        QByteArray toServer; // waiting for the upstream connection or a thaw
        QByteArray toClient; // waiting for a thaw
        std::deque<std::pair<qint64, QByteArray>> delayed; // (due, bytes) on the way to the client
        bool subscriber = false; // it sent a SUBSCRIBE of some kind
    };

    void onNewConnection();
    bool isFrozen(const Link *link) const;
    void thaw();
    void pumpToServer(Link *link);
    // False once the link is gone (a cut).
    bool pumpToClient(Link *link, const QByteArray &bytes);
    void deliverDue();
    void close(Link *link);
    Link *find(QTcpSocket *socket) const;

    quint16 m_upstreamPort;
    QTcpServer *m_listener;
    QList<Link *> m_links;
    qint64 m_replyBudget = -1;
    qint64 m_requestBudget = -1;
    int m_replyDelayMs = 0;
    bool m_frozen = false;
    bool m_subscribersFrozen = false;
    bool m_commandsFrozen = false;
    int m_accepted = 0;
    int m_cuts = 0;
    QElapsedTimer m_clock;
    QTimer m_delayTimer;
};

} // namespace LockScope::Test
