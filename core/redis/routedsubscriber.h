#pragma once

#include "redis/redissubscriptions.h"

#include <QHash>

namespace LockScope {

class RedisRouter;
class RedisSubscriber;

// Subscriptions placed where a Redisson client would place them: on the one server, or in a cluster on the master
// serving the channel's slot (shard channels exist only there; plain channels reach every node, and Redisson
// listens for them on the slot's master too, which is where PUBSUB NUMSUB counts them). When the slot map changes,
// or the server drops a shard channel because its slot moved, each subscription moves to the new owner and
// resubscribed() follows once the move is confirmed.
class RoutedSubscriber : public RedisSubscriptions
{
    Q_OBJECT
public:
    explicit RoutedSubscriber(RedisRouter *router, QObject *parent = nullptr);

    void subscribe(Kind kind, const QByteArray &name, Confirmed confirmed = {}) override;
    void unsubscribe(Kind kind, const QByteArray &name) override;
    bool isConfirmed(Kind kind, const QByteArray &name) const override;

private:
    struct Entry
    {
        QString place; // "" while the router is still finding out what it talks to
        int refs = 0;
        QList<Confirmed> waiting;
        bool dropped = false; // the server ended it (slot moved): subscribe again wherever the slot is now
    };
    using Key = QPair<int, QByteArray>;

    QString placeFor(Kind kind, const QByteArray &name) const;
    RedisSubscriber *subscriberAt(const QString &place);
    void placeAll();
    void forgetIdle();

    RedisRouter *m_router;
    QHash<Key, Entry> m_entries;
    QHash<QString, RedisSubscriber *> m_subscribers;
};

} // namespace LockScope
