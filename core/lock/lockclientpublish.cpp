// How this client's releases wake waiters (protocol §3): the publish mode asked for, or Redisson's AUTO resolved once
// the server's kind is known, and the namespaces its own waiters listen on.
#include "lockclient.h"
#include "redisrouter.h"
#include "routedsubscriber.h"

namespace LockScope {

RedisSubscriptions *LockClient::subscriber() const
{
    return m_subscriber;
}

void LockClient::resolvePublishMode()
{
    const PublishMode wanted = m_connection->options().publishMode;
    if (wanted != PublishMode::Auto) {
        m_publish = wanted;
        return;
    }
    if (m_connection->mode() == RedisRouter::Mode::Standalone) {
        m_publish = PublishMode::Plain; // outside a cluster Redisson always publishes plainly
        return;
    }
    connect(m_connection, &RedisRouter::modeDecided, this, [this](RedisRouter::Mode mode) {
        if (m_publish != PublishMode::Auto)
            return;
        if (mode != RedisRouter::Mode::Cluster) {
            setPublishMode(PublishMode::Plain);
            return;
        }
        // Redisson's AUTO probes PUBSUB SHARDNUMSUB: Redis 7 answers it, older servers do not know it.
        QPointer<LockClient> self(this);
        m_connection->command({ "PUBSUB", "SHARDNUMSUB" }, [self](const RedisResult &r) {
            if (self)
                self->setPublishMode(r.ok() ? PublishMode::Sharded : PublishMode::Plain);
        });
    });
    // Not even the server's kind is known while it cannot be reached: go on with Redisson's default guess, so
    // nothing waits forever; the commands themselves report the connection error.
    connect(m_connection, &RedisCommander::disconnected, this, [this] {
        if (m_publish == PublishMode::Auto && m_connection->mode() == RedisRouter::Mode::Probing) {
            const auto waiting = std::exchange(m_whenPublishKnown, {});
            for (const auto &run : waiting)
                run();
        }
    });
}

void LockClient::setPublishMode(PublishMode mode)
{
    m_publish = mode;
    emit publishModeResolved(mode);
    const auto waiting = std::exchange(m_whenPublishKnown, {});
    for (const auto &run : waiting)
        run();
}

void LockClient::whenPublishKnown(std::function<void()> run)
{
    if (m_publish != PublishMode::Auto)
        run();
    else
        m_whenPublishKnown << std::move(run);
}

QByteArray LockClient::publishCommand() const
{
    switch (m_publish) {
    case PublishMode::Sharded:
        return "SPUBLISH";
    case PublishMode::Both:
        return "PUBLISH,SPUBLISH";
    case PublishMode::Auto:
    case PublishMode::Plain:
        break;
    }
    return "PUBLISH";
}

QList<RedisSubscriptions::Kind> LockClient::waitKinds() const
{
    switch (m_publish) {
    case PublishMode::Sharded:
        return { RedisSubscriptions::Kind::Shard };
    case PublishMode::Both:
        return { RedisSubscriptions::Kind::Channel, RedisSubscriptions::Kind::Shard };
    case PublishMode::Auto:
    case PublishMode::Plain:
        break;
    }
    return { RedisSubscriptions::Kind::Channel };
}

} // namespace LockScope
