#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <deque>
#include <functional>

class QTcpServer;
class QTcpSocket;

namespace LockScope::Test {

// A TCP proxy between a client under test and a real redis-server, run on the test's own event loop, that
// injects network faults on command: replies cut off part-way, a pipeline cut off part-way on its way to the
// server, replies held back, or nothing forwarded at all while every connection stays open. It can also stand in
// for an older server: chosen commands are answered by the proxy itself (setAnswers), the rest are forwarded.
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
    // Replies wait (commands still reach the server) until released: later than any deadline, however busy the
    // machine, for as long as the test needs. Released replies go on to the connections still open.
    void setRepliesHeld(bool held);
    // Bytes of replies waiting for the client (held, frozen or delayed), over every open connection.
    qint64 heldReplyBytes() const;
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

    // Emulating an older server: a command for which answer returns bytes (one RESP reply, e.g.
    // errorReply("ERR syntax error")) never reaches the server, and the client gets those bytes in the place of the
    // server's reply: after the server's replies to the commands pipelined before it. Every other command is
    // forwarded. Applies to connections accepted from now on.
    using Answer = std::function<QByteArray(const QList<QByteArray> &argv)>;
    void setAnswers(Answer answer) { m_answer = std::move(answer); }
    static QByteArray errorReply(const QByteArray &message) { return '-' + message + "\r\n"; }
    // What Redis 5.0 answers that 7.0 does not: SCAN ... TYPE is a syntax error.
    static QByteArray redis5(const QList<QByteArray> &argv);
    // What Redis 6.x answers that 7.0 does not: no PUBSUB SHARDNUMSUB, no CLUSTER SHARDS (start the server with
    // SPUBLISH, SSUBSCRIBE and SUNSUBSCRIBE renamed away as well: withoutShardedPubSub()).
    static QByteArray redis6(const QList<QByteArray> &argv);
    static QStringList withoutShardedPubSub();

    // Commands the proxy answered itself.
    int answered() const { return m_answered; }

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
        // With answers: the client's bytes not yet parsed into commands, the server's not yet whole replies, and
        // per command still waiting for its reply either nothing (the server's) or the proxy's own answer.
        bool answering = false;
        bool subscribed = false; // pub/sub pushes have no command: from here on replies pass straight through
        QByteArray fromClient;
        QByteArray fromServer;
        std::deque<QByteArray> pending; // empty: the server answers this one
        bool subscriber = false; // it sent a SUBSCRIBE of some kind
    };

    void onNewConnection();
    void readClient(Link *link);
    void readServer(Link *link);
    // Server bytes on their way to the client: held while frozen, delayed, or passed on.
    void toClient(Link *link, QByteArray bytes);
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
    bool m_repliesHeld = false;
    bool m_subscribersFrozen = false;
    bool m_commandsFrozen = false;
    int m_accepted = 0;
    int m_cuts = 0;
    QElapsedTimer m_clock;
    QTimer m_delayTimer;
    Answer m_answer;
    int m_answered = 0;
};

} // namespace LockScope::Test
