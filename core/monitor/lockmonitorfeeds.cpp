#include "monitor/lockmonitor.h"

#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "monitor/passscheduler.h"
#include "monitor/releasenamespacewatch.h"
#include "redis/redisrouter.h"
#include "redis/routedsubscriber.h"

#include <QDateTime>
#include <QPointer>

#include <memory>

// Where the monitor's events come from: one feed per master (keyspace notifications are node-local), the combined
// mode they add up to, reads held until the feeds caught up with them, and the shard channels of known locks (sharded
// pub/sub has no pattern form).
namespace LockScope {

void LockMonitor::buildFeeds()
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
        auto *feed = new LockEventFeed(options, node, m_options.useKeyspaceEvents, this);
        connect(feed, &LockEventFeed::touched, this, &LockMonitor::onTouched);
        connect(feed, &LockEventFeed::touched, this,
            [this](const QList<QByteArray> &names, LockEventFeed::Touch touch, const QByteArray &, bool) {
                if (touch == LockEventFeed::Touch::ReleaseMessage && m_shardEars)
                    m_namespaces->note(names, false);
            });
        connect(feed, &LockEventFeed::modeChanged, this, &LockMonitor::onFeedModeChanged);
        // Whatever happened while the events were not arriving is found by one more pass.
        connect(feed, &LockEventFeed::eventsMayBeLost, m_passes, &PassScheduler::passAgain);
        m_feeds << feed;
        feed->start();
    }
    // A master that joined later (a failover) had no feed for a while: what it saw meanwhile needs a pass.
    if (!fresh && !nodes.isEmpty() && m_initialDone)
        m_passes->passAgain();
    onFeedModeChanged();
}

LockEventFeed::Mode LockMonitor::combinedMode() const
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

bool LockMonitor::pubSubAvailable() const
{
    return std::any_of(m_feeds.cbegin(), m_feeds.cend(), [](const LockEventFeed *f) { return f->pubSubAvailable(); });
}

void LockMonitor::onFeedModeChanged()
{
    const LockEventFeed::Mode mode = combinedMode();
    if (mode == m_mode || mode == LockEventFeed::Mode::Starting)
        return;
    m_mode = mode;
    m_passes->feedsLive(mode == LockEventFeed::Mode::KeyspaceEvents, m_initialDone);
    emit modeChanged(mode);
}

void LockMonitor::holdUntilSynced(
    const QByteArray &name, const std::optional<LockInfo> &read, bool initial, bool refreshed)
{
    // The read came back before the events that led to it (they travel on the feed's connection): once a PING sent
    // now is answered there, everything the server did before this read has been delivered, and the read is judged
    // with it. In a cluster only the key's master sends its events; asking every feed costs one PING each, rarely.
    const quint64 ticket = ++m_syncTicket;
    m_held.insert(name, HeldRead { read, initial, refreshed, ticket });
    afterFeedsSync([this, name, ticket] {
        const auto it = m_held.find(name);
        if (it == m_held.end() || it->ticket != ticket)
            return; // a later read was judged, or is held in its place
        const HeldRead held = it.value();
        m_held.erase(it);
        ingest(name, held.read, held.initial, held.refreshed, true);
        flush();
    });
}

void LockMonitor::afterFeedsSync(std::function<void()> done)
{
    // One PING through each feed; done when the last answers (and never after this monitor is gone).
    auto left = std::make_shared<int>(qMax(1, int(m_feeds.size())));
    QPointer<LockMonitor> self(this);
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

void LockMonitor::listenOnShardChannels(const Changes &changes)
{
    if (!m_shardEars)
        return;
    for (const QByteArray &name : changes.removed) {
        const QByteArray channel = m_shardChannels.take(name);
        if (!channel.isEmpty())
            m_shardEars->unsubscribe(RedisSubscriptions::Kind::Shard, channel);
    }
    for (const QByteArray &name : changes.updated) {
        if (m_shardChannels.size() >= m_options.watchAllLimit)
            break;
        const LockRecord *r = m_store.find(name);
        if (!r || m_shardChannels.contains(name))
            continue;
        // Fair waiters have channels of their own, and a fair release names its head: not followed here. A layout
        // that wakes nobody has no channel to follow.
        const QByteArray channel = LockLayouts::forRecord(r->info.kind).releaseChannel(name);
        if (channel.isEmpty())
            continue;
        m_shardChannels.insert(name, channel);
        m_shardEars->subscribe(RedisSubscriptions::Kind::Shard, channel);
    }
}

} // namespace LockScope
