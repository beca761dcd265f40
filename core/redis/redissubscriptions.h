#pragma once

#include "base/rediserror.h"

#include <QByteArray>
#include <QObject>

#include <functional>

namespace LockScope {

// Reference-counted pub/sub subscriptions: on one node (RedisSubscriber), or spread over a cluster's nodes by
// channel slot (RoutedSubscriber). A subscription counts as confirmed only once the server acknowledged it.
class RedisSubscriptions : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Channel, Pattern, Shard };
    using Confirmed = std::function<void(const RedisError &)>;
    using QObject::QObject;

    virtual void subscribe(Kind kind, const QByteArray &name, Confirmed confirmed = {}) = 0;
    virtual void unsubscribe(Kind kind, const QByteArray &name) = 0;
    virtual bool isConfirmed(Kind kind, const QByteArray &name) const = 0;

signals:
    void message(const QByteArray &channel, const QByteArray &payload);
    void shardMessage(const QByteArray &channel, const QByteArray &payload);
    void patternMessage(const QByteArray &pattern, const QByteArray &channel, const QByteArray &payload);
    // After a reconnect (or a move to another node) the subscriptions are back; messages may have been lost.
    void resubscribed();
    void disconnected(const LockScope::RedisError &error);
};

} // namespace LockScope
