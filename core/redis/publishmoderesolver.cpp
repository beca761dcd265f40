#include "redis/publishmoderesolver.h"

#include "redis/redisrouter.h"
#include "redis/replyjoin.h"

#include <QCoreApplication>
#include <QPointer>

#include <memory>

namespace LockScope {

PublishModeResolver::PublishModeResolver(RedisRouter *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    resolve();
}

QList<RedisSubscriptions::Kind> PublishModeResolver::listenerKinds(PublishMode asked, bool cluster)
{
    if (cluster || asked == PublishMode::Sharded || asked == PublishMode::Both)
        return { RedisSubscriptions::Kind::Channel, RedisSubscriptions::Kind::Shard };
    return { RedisSubscriptions::Kind::Channel };
}

void PublishModeResolver::resolve()
{
    const PublishMode wanted = m_connection->options().publishMode;
    if (wanted != PublishMode::Auto) {
        m_publish = wanted;
        if (wanted != PublishMode::Plain)
            m_shardCheck = ShardCheck::Needed;
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
            setMode(PublishMode::Plain);
            return;
        }
        // Redisson's AUTO probes PUBSUB SHARDNUMSUB: Redis 7 answers it, older servers do not know it.
        QPointer<PublishModeResolver> self(this);
        m_connection->command({ "PUBSUB", "SHARDNUMSUB" }, [self](const RedisResult &r) {
            if (self)
                self->setMode(r.ok() ? PublishMode::Sharded : PublishMode::Plain);
        });
    });
    // Not even the server's kind is known while it cannot be reached: go on with Redisson's default guess, so
    // nothing waits forever; the commands themselves report the connection error.
    connect(m_connection, &RedisCommander::disconnected, this, [this] {
        if (m_publish == PublishMode::Auto && m_connection->mode() == RedisRouter::Mode::Probing)
            runWaiting();
    });
}

void PublishModeResolver::setMode(PublishMode mode)
{
    m_publish = mode;
    emit resolved(mode);
    runWaiting();
}

void PublishModeResolver::runWaiting()
{
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &run : waiting)
        run();
}

void PublishModeResolver::whenKnown(std::function<void()> run)
{
    if (m_publish != PublishMode::Auto && m_shardCheck == ShardCheck::Done) {
        run();
        return;
    }
    m_waiting << std::move(run);
    if (m_shardCheck == ShardCheck::Needed)
        checkShardedPubSub();
}

void PublishModeResolver::checkShardedPubSub()
{
    m_shardCheck = ShardCheck::Running;
    QPointer<PublishModeResolver> self(this);
    auto info = std::make_shared<RedisResult>();
    auto numsub = std::make_shared<RedisResult>();
    const auto join = ReplyJoin::create([self, info, numsub](const RedisError &error) {
        if (!self)
            return;
        if (error.isError()) {
            // Not answered (connection lost, deadline): the commands waiting report that themselves; ask again
            // before the next release.
            self->m_shardCheck = ShardCheck::Needed;
            self->runWaiting();
            return;
        }
        self->m_shardCheck = ShardCheck::Done;
        // Before Redis 7 PUBSUB has no SHARDNUMSUB ("unknown subcommand") and COMMAND INFO SPUBLISH answers nil, as it
        // does where SPUBLISH is renamed away. A denied probe (an ACL without PUBSUB or COMMAND) says nothing: the
        // mode asked for stands.
        const bool noNumsub = numsub->error.kind() == RedisError::Kind::Reply;
        const bool noSpublish
            = info->ok() && info->value.isArray() && info->value.size() == 1 && info->value.at(0).isNil();
        if (noNumsub || noSpublish) {
            if (self->m_publish == PublishMode::Both) {
                // The lock client said these first: their translations stay under its name.
                emit self->notice(QCoreApplication::translate("LockScope::LockClient",
                    "this server has no sharded pub/sub (SPUBLISH, Redis 7.0 or later): publish mode \"both\" wakes "
                    "waiters with plain PUBLISH only"));
                self->setMode(PublishMode::Plain);
                return;
            }
            self->m_publishRefusal = RedisError(RedisError::Kind::InvalidArgument,
                QCoreApplication::translate("LockScope::LockClient",
                    "publish mode \"sharded\" needs sharded pub/sub (SPUBLISH, Redis 7.0 or later), which this server "
                    "does not have; nothing was changed. Use publish mode \"plain\" or \"auto\""));
        }
        self->runWaiting();
    });
    m_connection->cork();
    m_connection->command({ "COMMAND", "INFO", "SPUBLISH" }, join->track([info](const RedisResult &r) { *info = r; }));
    m_connection->command({ "PUBSUB", "SHARDNUMSUB" }, join->track([numsub](const RedisResult &r) { *numsub = r; }));
    join->seal(this);
    m_connection->uncork();
}

QByteArray PublishModeResolver::publishCommand() const
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

QList<RedisSubscriptions::Kind> PublishModeResolver::waitKinds() const
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
