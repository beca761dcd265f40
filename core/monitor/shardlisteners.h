#pragma once

#include "monitor/lockeventfeed.h"

#include <QHash>
#include <QObject>

#include <functional>

namespace LockScope {

class LockRecordStore;
class RedisRouter;
class RoutedSubscriber;

// Where the monitor's events come from, per shard: one LockEventFeed per master (keyspace notifications are
// node-local), the mode they add up to, and, for fleets that publish on sharded pub/sub (which has no pattern form),
// an ear on each known lock's shard channel on its slot's master. It tells what it heard; what that means for each
// lock is ReadJudge's business.
class ShardListeners : public QObject
{
    Q_OBJECT
public:
    // records: what the shard channels are chosen by (each present lock's layout names its channel); channelLimit:
    // how many shard channels at most.
    ShardListeners(RedisRouter *connection, const LockRecordStore *records, bool useKeyspaceEvents, int channelLimit,
        QObject *parent = nullptr);

    // One feed per master of the connection as it is now: feeds of masters that went are dropped, masters that came
    // get one. snapshotDone: a master that joined after the first snapshot had no feed for a while (eventsMayBeLost).
    void rebuild(bool snapshotDone);
    // Every feed's LockEventFeed::setConfigRecheckInterval, now and for the feeds to come.
    void setConfigRecheckInterval(int ms);
    // Starting until every feed has decided; then the mode all of them together give.
    LockEventFeed::Mode mode() const { return m_mode; }
    QString reason() const; // why keyspace events are not in use, when they are not
    bool pubSubAvailable() const;
    // done() once every feed has delivered all the server sent before now (a PING through each), never after this
    // object is gone.
    void sync(std::function<void()> done);

    // Sharded pub/sub: from now on, listen on shard channels (followChannels says which).
    void listenOnShards();
    RoutedSubscriber *shardEars() const { return m_shardEars; }
    // Our own subscribers on a shard channel: the server counts them, and they are no waiters.
    int ownShardListeners(const QByteArray &channel) const;
    // Locks that came, changed or went: their shard channels are followed, or dropped.
    void followChannels(const QList<QByteArray> &updated, const QList<QByteArray> &removed);

signals:
    void touched(
        const QList<QByteArray> &names, LockScope::LockEventFeed::Touch touch, const QByteArray &event, bool auxKey);
    // A release message reached us in one pub/sub namespace (only told while the shard channels are listened on:
    // without them nothing can be compared).
    void releaseHeard(const QList<QByteArray> &names, bool sharded);
    void modeChanged(LockScope::LockEventFeed::Mode mode);
    // Events may have happened that no feed delivered (a reconnect, a master without a feed for a while): one more
    // pass finds them.
    void eventsMayBeLost();

private:
    void onFeedModeChanged();
    LockEventFeed::Mode combinedMode() const;

    RedisRouter *m_connection;
    const LockRecordStore *m_records;
    bool m_useKeyspaceEvents;
    int m_configRecheckMs = 10000;
    int m_channelLimit;
    QList<LockEventFeed *> m_feeds; // one per master
    LockEventFeed::Mode m_mode = LockEventFeed::Mode::Starting;
    RoutedSubscriber *m_shardEars = nullptr;
    QHash<QByteArray, QByteArray> m_shardChannels; // lock name -> the shard channel subscribed for it
};

} // namespace LockScope
