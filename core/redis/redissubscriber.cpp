#include "redis/redissubscriber.h"

namespace LockScope {

namespace {
// A sync's PING carries this, so its answer is told from a keep-alive's.
const QByteArray kSyncToken = "lockscope-sync";

QByteArray commandFor(RedisSubscriber::Kind kind, bool subscribe)
{
    switch (kind) {
    case RedisSubscriber::Kind::Channel:
        return subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE";
    case RedisSubscriber::Kind::Pattern:
        return subscribe ? "PSUBSCRIBE" : "PUNSUBSCRIBE";
    case RedisSubscriber::Kind::Shard:
        return subscribe ? "SSUBSCRIBE" : "SUNSUBSCRIBE";
    }
    return {};
}
} // namespace

RedisSubscriber::RedisSubscriber(ConnectionOptions options, QObject *parent)
    : RedisSubscriptions(parent)
    , m_connection(new RedisConnection(std::move(options), this))
{
    m_connection->setPushHandler([this](const RedisValue &v) { onPush(v); });
    connect(m_connection, &RedisConnection::ready, this, &RedisSubscriber::onReady);
    connect(&m_pingTimer, &QTimer::timeout, this, &RedisSubscriber::ping);
    setPingInterval(10000);
    connect(m_connection, &RedisConnection::disconnected, this, [this](const RedisError &error) {
        m_pingSentMs = -1;
        for (auto syncs = std::exchange(m_syncs, {}); !syncs.empty(); syncs.pop_front())
            syncs.front()(false);
        m_acks.clear();
        for (auto &e : m_entries) {
            e.pendingAcks = 0;
            e.confirmed = false;
        }
        emit disconnected(error);
    });
}

RedisSubscriber::~RedisSubscriber()
{
    for (auto &done : m_syncs)
        QTimer::singleShot(0, [done = std::move(done)] { done(false); });
}

void RedisSubscriber::setPingInterval(int intervalMs)
{
    m_pingTimer.stop();
    if (intervalMs > 0) {
        m_pingTimer.setInterval(intervalMs);
        m_pingTimer.start();
    }
}

void RedisSubscriber::ping()
{
    if (!m_connection->isReady())
        return;
    const qint64 timeout = m_connection->options().commandTimeoutMs;
    if (m_pingSentMs >= 0) {
        if (timeout > 0 && m_connection->nowMs() - m_pingSentMs > timeout) {
            m_pingSentMs = -1;
            m_connection->abandon(RedisError(RedisError::Kind::Timeout,
                tr("the pub/sub connection did not answer a PING within %1 ms").arg(timeout)));
        }
        return;
    }
    m_pingSentMs = m_connection->nowMs();
    m_connection->sendPush({ "PING" });
}

void RedisSubscriber::sync(std::function<void(bool)> done)
{
    if (!m_connection->isReady()) {
        QMetaObject::invokeMethod(
            this, [done = std::move(done)] { done(false); }, Qt::QueuedConnection);
        return;
    }
    m_syncs.push_back(std::move(done));
    m_connection->sendPush({ "PING", kSyncToken });
}

void RedisSubscriber::subscribe(Kind kind, const QByteArray &name, Confirmed confirmed)
{
    Entry &e = m_entries[{ int(kind), name }];
    if (++e.refs == 1)
        send(kind, name, true);
    if (!confirmed)
        return;
    if (e.confirmed && e.pendingAcks == 0)
        QMetaObject::invokeMethod(
            this, [confirmed] { confirmed({}); }, Qt::QueuedConnection);
    else
        e.waiting.append(std::move(confirmed));
}

void RedisSubscriber::unsubscribe(Kind kind, const QByteArray &name)
{
    const Key key { int(kind), name };
    auto it = m_entries.find(key);
    if (it == m_entries.end() || it->refs == 0)
        return;
    if (--it->refs == 0) {
        it->confirmed = false;
        if (m_connection->isReady())
            send(kind, name, false);
        if (it->pendingAcks == 0)
            m_entries.erase(it);
    }
}

bool RedisSubscriber::isConfirmed(Kind kind, const QByteArray &name) const
{
    const auto it = m_entries.constFind({ int(kind), name });
    return it != m_entries.cend() && it->confirmed && it->pendingAcks == 0;
}

void RedisSubscriber::send(Kind kind, const QByteArray &name, bool subscribe)
{
    Entry &e = m_entries[{ int(kind), name }];
    // While disconnected nothing is sent: onReady() subscribes whatever is wanted at that moment.
    if (m_connection->isReady()) {
        ++e.pendingAcks;
        m_acks.push_back({ kind, name, subscribe });
        m_connection->sendPush({ commandFor(kind, subscribe), name });
    } else {
        m_connection->open();
    }
}

void RedisSubscriber::onReady()
{
    m_acks.clear();
    const bool again = m_connectedOnce;
    m_connectedOnce = true;
    m_connection->cork();
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it->refs == 0) {
            it = m_entries.erase(it);
            continue;
        }
        it->pendingAcks = 0;
        it->confirmed = false;
        send(Kind(it.key().first), it.key().second, true);
        ++it;
    }
    m_connection->uncork();
    m_announceResubscribe = again;
    if (again && m_acks.empty())
        emit resubscribed();
}

void RedisSubscriber::onAck(bool subscribe, const RedisError &error)
{
    if (m_acks.empty())
        return;
    const Ack ack = m_acks.front();
    m_acks.pop_front();
    const Key key { int(ack.kind), ack.name };
    auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    --it->pendingAcks;
    if (error.isError() && ack.subscribe) {
        const auto waiting = std::exchange(it->waiting, {});
        for (const auto &cb : waiting)
            cb(error);
        it = m_entries.find(key);
        if (it != m_entries.end() && it->pendingAcks == 0)
            m_entries.erase(it);
    } else if (it->pendingAcks == 0) {
        if (it->refs == 0) {
            m_entries.erase(it);
        } else if (ack.subscribe) {
            it->confirmed = true;
            const auto waiting = std::exchange(it->waiting, {});
            for (const auto &cb : waiting)
                cb({});
        }
    }
    if (m_announceResubscribe && m_acks.empty()) {
        m_announceResubscribe = false;
        emit resubscribed();
    }
}

bool RedisSubscriber::expectsAck(Kind kind, const QByteArray &name, bool subscribe) const
{
    return !m_acks.empty() && m_acks.front().kind == kind && m_acks.front().name == name
        && m_acks.front().subscribe == subscribe;
}

void RedisSubscriber::onPush(const RedisValue &value)
{
    // Subscribed, a PING is answered ["pong", ""]; with no subscription, +PONG.
    if (value.isStatus() && value.bytes() == "PONG") {
        m_pingSentMs = -1;
        return;
    }
    // A sync's PING: ["pong", token] while subscribed, the bare token otherwise.
    const bool synced = (value.isString() && value.bytes() == kSyncToken)
        || (value.isArray() && value.size() == 2 && value.at(0).bytes().toLower() == "pong"
            && value.at(1).bytes() == kSyncToken);
    if (synced) {
        m_pingSentMs = -1;
        if (!m_syncs.empty()) {
            const auto done = std::move(m_syncs.front());
            m_syncs.pop_front();
            done(true);
        }
        return;
    }
    if (value.isError()) {
        onAck(true, RedisError::fromReply(value.bytes(), value.errorCode()));
        return;
    }
    if (!value.isArray() || value.size() < 2)
        return;
    const QByteArray type = value.at(0).bytes().toLower();
    if (type == "message" && value.size() >= 3) {
        emit message(value.at(1).bytes(), value.at(2).bytes());
    } else if (type == "smessage" && value.size() >= 3) {
        emit shardMessage(value.at(1).bytes(), value.at(2).bytes());
    } else if (type == "pmessage" && value.size() >= 4) {
        emit patternMessage(value.at(1).bytes(), value.at(2).bytes(), value.at(3).bytes());
    } else if (type == "subscribe" || type == "psubscribe" || type == "ssubscribe") {
        onAck(true, {});
    } else if (type == "sunsubscribe" && !expectsAck(Kind::Shard, value.at(1).bytes(), false)) {
        // Not ours: the slot migrated and the server dropped the subscription (Redis 7 does that).
        const auto it = m_entries.find({ int(Kind::Shard), value.at(1).bytes() });
        if (it != m_entries.end() && it->refs > 0) {
            it->confirmed = false;
            emit shardChannelMoved(value.at(1).bytes());
        }
    } else if (type == "unsubscribe" || type == "punsubscribe" || type == "sunsubscribe") {
        onAck(false, {});
    } else if (type == "pong") {
        m_pingSentMs = -1;
    }
}

} // namespace LockScope
