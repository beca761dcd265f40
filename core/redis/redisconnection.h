#pragma once

#include "redis/rediscommander.h"
#include "redis/respcodec.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

class QTcpSocket;

namespace LockScope {

class RedisScript;
class SentinelResolver;
class SshTunnel;

// One Redis connection over a Qt socket (QSslSocket, plain or TLS), with hiredis only framing RESP.
// Commands pipeline freely: each is written at once and its reply is matched in order. Callbacks always run
// later, in this object's thread, never inside command(). Commands sent while (re)connecting wait in order
// and leave once the handshake (AUTH, SELECT) is done; each still has its own deadline.
class RedisConnection : public RedisCommander
{
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Ready, Closed };
    Q_ENUM(State)
    using PushHandler = std::function<void(const RedisValue &)>;

    explicit RedisConnection(ConnectionOptions options, QObject *parent = nullptr);
    ~RedisConnection() override;

    const ConnectionOptions &options() const override { return m_options; }
    State state() const { return m_state; }
    RedisError lastError() const { return m_lastError; }
    bool isReady() const override { return m_state == State::Ready; }
    int retryDelayMs() const override;
    // Commands sent or waiting to be sent whose replies have not come back yet, deferred ones included.
    int pendingCount() const override { return int(m_inFlight.size() + m_queued.size()) + m_deferredCount; }

    void open() override;
    // Fails whatever is pending and stays closed; open() starts again.
    void close();
    // The owner knows the connection is dead (a liveness check went unanswered): drop it and reconnect.
    void abandon(const RedisError &error);

    void command(QList<QByteArray> argv, Callback callback = {}) override;
    // EVAL the first time on this connection, EVALSHA after; EVAL again if the server answers NOSCRIPT.
    void eval(const RedisScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
        Callback callback) override;

    // One pending entry for the whole batch: its replies are gathered as they come and handed over together. It counts
    // as one in pendingCount().
    void commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback) override;
    void commandEach(const QList<QByteArray> &head, const QList<QByteArray> &keys, const QList<QByteArray> &tail,
        BatchCallback callback) override;

    // A command whose reply nobody needs (housekeeping such as deleting an unlock latch): it leaves with the
    // next command's write, or within 50 ms, instead of costing a write of its own.
    void commandDeferred(const QList<QByteArray> &argv) override;
    void flushDeferred() override;

    // While corked, commands are buffered and leave in one write when the last uncork() comes.
    void cork() override { ++m_corked; }
    void uncork() override;

    // Pub/sub mode: once ready, every reply goes to the handler instead of a command's callback.
    void setPushHandler(PushHandler handler) { m_pushHandler = std::move(handler); }
    void sendPush(const QList<QByteArray> &argv);

    // Milliseconds on a monotonic clock shared by the connection's deadlines.
    qint64 nowMs() const override { return m_clock.elapsed(); }

signals:
    void stateChanged(LockScope::RedisConnection::State state);

private:
    struct Batch
    {
        BatchCallback callback;
        qsizetype expected = 0;
        QList<RedisValue> replies;
    };
    struct Pending
    {
        Callback callback; // a batch's: its failure, called as a command's would be
        qint64 deadlineMs = 0; // 0: none
        std::shared_ptr<Batch> batch; // set: this entry stands for the batch's replies, all of them
    };
    struct Queued
    {
        QByteArray bytes;
        Pending pending;
        bool push = false;
    };

    void setState(State state);
    void startSocket();
    void makeSocket();
    void startTunnelled();
    void attachTunnelled(int fd);
    void onTransportUp();
    // Wrong credentials, an unknown host key: retrying would not help, so the connection closes for good.
    void closeFinal(const RedisError &error);
    void onReadyRead();
    // Hands the replies read so far to their commands, in order. bounded: for at most about kDispatchBudgetMs, the
    // rest at the next turn of the event loop. False when the connection went (dropped, closed, deleted) meanwhile.
    bool dispatchReplies(bool bounded);
    void onSocketError();
    void onSocketDisconnected();
    void tunnelClosed(); // the channel's socket ended: say why, from the SSH session if it went down
    void handshakeStep(RedisValue reply);
    void becomeReady();
    void dropConnection(const RedisError &error, bool reconnect);
    void scheduleReconnect();
    // Sends a batch already formatted: commands RESP commands in bytes.
    void sendBatch(QByteArray bytes, qsizetype commands, BatchCallback callback);
    // A batch's reply: kept until the last one, then the batch's callback runs. False: the batch is not complete yet.
    bool takeBatchReply(Pending &pending, RedisValue &&value);
    void writeNow(const QByteArray &bytes);
    void transmit(const QByteArray &bytes);
    void checkDeadlines();
    void armDeadlineTimer();
    void fail(Callback callback, const RedisError &error);
    qint64 deadlineFromNow() const;

    ConnectionOptions m_options;
    QTcpSocket *m_socket = nullptr; // a QSslSocket for TLS: plain connections never load the TLS backend
    RespReader m_reader;
    static constexpr int kDispatchBudgetMs = 8;
    static constexpr int kRepliesPerClockRead = 8;
    bool m_repliesWaiting = false; // replies read but not yet handed over: dispatchReplies() goes on next turn
    State m_state = State::Disconnected;
    RedisError m_lastError;
    std::deque<Pending> m_inFlight;
    std::deque<Queued> m_queued;
    QList<QList<QByteArray>> m_handshake;
    int m_handshakeReplies = 0;
    PushHandler m_pushHandler;
    QByteArray m_corkBuffer;
    QByteArray m_deferred;
    QSet<QByteArray> m_loadedScripts; // SHA1s this connection has run
    int m_deferredCount = 0;
    QTimer m_deferredTimer;
    int m_corked = 0;
    QElapsedTimer m_clock;
    QTimer m_deadlineTimer;
    QTimer m_connectTimer;
    QTimer m_reconnectTimer;
    int m_reconnectDelayMs = 0;
    bool m_everOpened = false;
    QString m_sslErrors;
    SentinelResolver *m_sentinel = nullptr; // Sentinel deployments: where the master is, asked before each connect
    bool m_addressFresh = false; // the address was just resolved: connect to it without asking again
    std::shared_ptr<SshTunnel> m_tunnel; // options.ssh set: shared with every connection of the profile
    quint64 m_channelRequest = 0; // the channel asked for last: answers to older requests are stale
};

} // namespace LockScope
