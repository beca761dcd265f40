#pragma once

#include "redis/redisconnection.h"
#include "redis/redissubscriptions.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <deque>
#include <functional>

namespace LockScope {

// A pub/sub connection with reference-counted subscriptions: the first subscribe() of a channel sends
// SUBSCRIBE, the last unsubscribe() sends UNSUBSCRIBE. A subscription counts as confirmed only when the
// server's acknowledgement for the latest SUBSCRIBE arrived: a waiter must not rely on it earlier, or it could
// miss the wake-up it is waiting for. After a reconnect every subscription is sent again and resubscribed()
// tells listeners that messages may have been lost meanwhile.
class RedisSubscriber : public RedisSubscriptions
{
    Q_OBJECT
public:
    explicit RedisSubscriber(ConnectionOptions options, QObject *parent = nullptr);
    ~RedisSubscriber() override;

    void subscribe(Kind kind, const QByteArray &name, Confirmed confirmed = {}) override;
    void unsubscribe(Kind kind, const QByteArray &name) override;
    bool isConfirmed(Kind kind, const QByteArray &name) const override;
    // A silent subscription looks exactly like a quiet one, so the connection is pinged every intervalMs; a PING
    // unanswered within the command timeout drops it, and the reconnect resubscribes. 0 switches this off.
    void setPingInterval(int intervalMs);
    // Calls done(true) once everything the server sent on this connection before it read this call's PING has
    // arrived: whatever happened on the server before a moment seen on another connection is then all in (one
    // connection delivers in order). done(false) when the connection is not up or drops first, or (queued) when
    // this subscriber is destroyed first.
    void sync(std::function<void(bool delivered)> done);
    int subscriptionCount() const { return m_entries.size(); }
    RedisConnection *connection() const { return m_connection; }

signals:
    // The server ended a shard channel's subscription by itself: its slot moved to another node.
    void shardChannelMoved(const QByteArray &channel);

private:
    struct Entry
    {
        int refs = 0;
        int pendingAcks = 0;
        bool confirmed = false;
        QList<Confirmed> waiting;
    };
    struct Ack
    {
        Kind kind;
        QByteArray name;
        bool subscribe;
    };
    using Key = QPair<int, QByteArray>;

    void onPush(const RedisValue &value);
    void onReady();
    void send(Kind kind, const QByteArray &name, bool subscribe);
    void onAck(bool subscribe, const RedisError &error);
    bool expectsAck(Kind kind, const QByteArray &name, bool subscribe) const;
    void ping();

    RedisConnection *m_connection;
    QHash<Key, Entry> m_entries;
    std::deque<Ack> m_acks;
    bool m_connectedOnce = false;
    bool m_announceResubscribe = false;
    QTimer m_pingTimer;
    qint64 m_pingSentMs = -1; // on the connection's clock; -1: none outstanding
    std::deque<std::function<void(bool)>> m_syncs; // in the order their PINGs went out
};

} // namespace LockScope
