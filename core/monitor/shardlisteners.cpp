#include "monitor/shardlisteners.h"

#include "kinds/locklayouts.h"
#include "kinds/locknamemap.h"
#include "monitor/lockrecordstore.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "redis/routedsubscriber.h"

#include <QPointer>

#include <memory>

namespace LockScope {

ShardListeners::ShardListeners(
    RedisRouter *connection, const LockRecordStore *records, bool useKeyspaceEvents, int channelLimit, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_records(records)
    , m_useKeyspaceEvents(useKeyspaceEvents)
    , m_channelLimit(channelLimit)
{ }

void ShardListeners::rebuild(bool snapshotDone)
{
    if (m_connection->mode() == RedisRouter::Mode::Probing)
        return;
    QList<RedisConnection *> nodes = m_connection->masterConnections();
    QList<LockEventFeed *> keep;
    for (LockEventFeed *feed : std::as_const(m_feeds)) {
        const auto it = std::find(nodes.begin(), nodes.end(), feed->reader());
        if (it != nodes.end()) {
            keep << feed;
            nodes.erase(it);
        } else {
            feed->deleteLater(); // a master that is gone, or no longer a master
        }
    }
    m_feeds = keep;
    const bool fresh = m_feeds.isEmpty();
    for (RedisConnection *node : nodes) {
        // Outside a cluster the feed uses the caller's options as they are (Sentinel finds the master again).
        const ConnectionOptions options = m_connection->isCluster() ? node->options() : m_connection->options();
        auto *feed = new LockEventFeed(options, node, m_useKeyspaceEvents, this);
        feed->setConfigRecheckInterval(m_configRecheckMs);
        connect(feed, &LockEventFeed::touched, this, &ShardListeners::touched);
        connect(feed, &LockEventFeed::touched, this,
            [this](const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &, bool) {
                if (touch == LockEventFeed::Touch::ReleaseMessage && m_shardEars)
                    emit releaseHeard(names, false);
            });
        connect(feed, &LockEventFeed::modeChanged, this, &ShardListeners::onFeedModeChanged);
        // Whatever happened while the events were not arriving is found by one more pass.
        connect(feed, &LockEventFeed::eventsMayBeLost, this, &ShardListeners::eventsMayBeLost);
        m_feeds << feed;
        feed->start();
    }
    // A master that joined later (a failover) had no feed for a while: what it saw meanwhile needs a pass.
    if (!fresh && !nodes.isEmpty() && snapshotDone)
        emit eventsMayBeLost();
    onFeedModeChanged();
}

void ShardListeners::setConfigRecheckInterval(int ms)
{
    m_configRecheckMs = ms;
    for (LockEventFeed *feed : std::as_const(m_feeds))
        feed->setConfigRecheckInterval(ms);
}

QString ShardListeners::reason() const
{
    for (const LockEventFeed *feed : m_feeds)
        if (!feed->reason().isEmpty())
            return feed->reason();
    return {};
}

LockEventFeed::Mode ShardListeners::combinedMode() const
{
    if (m_feeds.isEmpty())
        return LockEventFeed::Mode::Starting;
    bool allKeyspace = true;
    bool anyPubSub = false;
    for (const LockEventFeed *feed : m_feeds) {
        if (feed->mode() == LockEventFeed::Mode::Starting)
            return LockEventFeed::Mode::Starting;
        allKeyspace = allKeyspace && feed->mode() == LockEventFeed::Mode::KeyspaceEvents;
        anyPubSub = anyPubSub || feed->pubSubAvailable();
    }
    return allKeyspace ? LockEventFeed::Mode::KeyspaceEvents
        : anyPubSub    ? LockEventFeed::Mode::PubSubPolling
                       : LockEventFeed::Mode::Polling;
}

bool ShardListeners::pubSubAvailable() const
{
    return std::any_of(m_feeds.cbegin(), m_feeds.cend(), [](const LockEventFeed *f) { return f->pubSubAvailable(); });
}

void ShardListeners::onFeedModeChanged()
{
    const LockEventFeed::Mode mode = combinedMode();
    if (mode == m_mode || mode == LockEventFeed::Mode::Starting)
        return;
    m_mode = mode;
    emit modeChanged(mode);
}

void ShardListeners::sync(std::function<void()> done)
{
    // One PING through each feed; done when the last answers. In a cluster only a key's master sends its events;
    // asking every feed costs one PING each, rarely.
    auto left = std::make_shared<int>(qMax(1, int(m_feeds.size())));
    QPointer<ShardListeners> self(this);
    const auto synced = [self, left, done](bool) {
        if (self && --*left == 0)
            done();
    };
    if (m_feeds.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [synced] { synced(false); }, Qt::QueuedConnection);
        return;
    }
    for (LockEventFeed *feed : std::as_const(m_feeds))
        feed->sync(synced);
}

void ShardListeners::listenOnShards()
{
    if (m_shardEars)
        return;
    m_shardEars = new RoutedSubscriber(m_connection, this);
    connect(m_shardEars, &RedisSubscriptions::shardMessage, this, [this](const QByteArray &channel) {
        const QList<QByteArray> names = LockNameMap::fromChannel(channel);
        if (names.isEmpty())
            return;
        emit releaseHeard(names, true);
        emit touched(names, LockEventFeed::Touch::ReleaseMessage, {}, false);
    });
}

int ShardListeners::ownShardListeners(const QByteArray &channel) const
{
    return m_shardEars && m_shardEars->isConfirmed(RedisSubscriptions::Kind::Shard, channel) ? 1 : 0;
}

void ShardListeners::followChannels(const QList<QByteArray> &updated, const QList<QByteArray> &removed)
{
    if (!m_shardEars)
        return;
    for (const QByteArray &name : removed) {
        const QByteArray channel = m_shardChannels.take(name);
        if (!channel.isEmpty())
            m_shardEars->unsubscribe(RedisSubscriptions::Kind::Shard, channel);
    }
    for (const QByteArray &name : updated) {
        if (m_shardChannels.size() >= m_channelLimit)
            break;
        const LockRecord *r = m_records->find(name);
        if (!r || m_shardChannels.contains(name))
            continue;
        // Fair waiters have channels of their own, and a fair release names its head: not followed here. A layout
        // that wakes nobody has no channel to follow.
        const QByteArray channel = LockLayouts::forRecord(r->info.kind).recogniser().releaseChannel(name);
        if (channel.isEmpty())
            continue;
        m_shardChannels.insert(name, channel);
        m_shardEars->subscribe(RedisSubscriptions::Kind::Shard, channel);
    }
}

} // namespace LockScope
