#include "redis/routedsubscriber.h"

#include "redis/redisrouter.h"
#include "redis/redissubscriber.h"

#include <memory>

namespace LockScope {

namespace {
const QString kStandalone = QStringLiteral("standalone");
}

RoutedSubscriber::RoutedSubscriber(RedisRouter *router, QObject *parent)
    : RedisSubscriptions(parent)
    , m_router(router)
{
    connect(m_router, &RedisRouter::modeDecided, this, &RoutedSubscriber::placeAll);
    connect(m_router, &RedisRouter::topologyChanged, this, &RoutedSubscriber::placeAll);
}

QString RoutedSubscriber::placeFor(Kind kind, const QByteArray &name) const
{
    switch (m_router->mode()) {
    case RedisRouter::Mode::Probing:
        return {};
    case RedisRouter::Mode::Standalone:
        return kStandalone;
    case RedisRouter::Mode::Cluster:
        break;
    }
    // Plain messages reach every node, so a pattern listens on any one.
    const ClusterNode owner
        = kind == Kind::Pattern ? m_router->slotMap().masters().value(0) : m_router->slotMap().masterFor(keySlot(name));
    if (owner.port == 0)
        return {};
    return owner.host + QLatin1Char(':') + QString::number(owner.port);
}

RedisSubscriber *RoutedSubscriber::subscriberAt(const QString &place)
{
    RedisSubscriber *&s = m_subscribers[place];
    if (!s) {
        ConnectionOptions options = m_router->options();
        if (place != kStandalone) {
            const int colon = place.lastIndexOf(QLatin1Char(':'));
            options = m_router->nodeOptions(place.left(colon), quint16(place.mid(colon + 1).toUInt()));
        }
        s = new RedisSubscriber(options, this);
        connect(s, &RedisSubscriber::message, this, &RedisSubscriptions::message);
        connect(s, &RedisSubscriber::shardMessage, this, &RedisSubscriptions::shardMessage);
        connect(s, &RedisSubscriber::patternMessage, this, &RedisSubscriptions::patternMessage);
        connect(s, &RedisSubscriber::resubscribed, this, &RedisSubscriptions::resubscribed);
        connect(s, &RedisSubscriber::disconnected, this, [this](const RedisError &error) {
            emit disconnected(error);
            m_router->refreshTopology(); // a cluster node that went away: find where its slots went
        });
        connect(s, &RedisSubscriber::shardChannelMoved, this, [this](const QByteArray &channel) {
            const auto it = m_entries.find({ int(Kind::Shard), channel });
            if (it != m_entries.end())
                it->dropped = true;
            m_router->refreshTopology();
        });
    }
    return s;
}

void RoutedSubscriber::subscribe(Kind kind, const QByteArray &name, Confirmed confirmed)
{
    Entry &e = m_entries[{ int(kind), name }];
    ++e.refs;
    if (e.place.isEmpty())
        e.place = placeFor(kind, name);
    if (e.place.isEmpty()) {
        if (confirmed)
            e.waiting << std::move(confirmed);
        m_router->open(); // the router decides where things go; it answers with modeDecided
        return;
    }
    subscriberAt(e.place)->subscribe(kind, name, std::move(confirmed));
}

void RoutedSubscriber::unsubscribe(Kind kind, const QByteArray &name)
{
    const auto it = m_entries.find({ int(kind), name });
    if (it == m_entries.end() || it->refs == 0)
        return;
    --it->refs;
    if (!it->place.isEmpty())
        subscriberAt(it->place)->unsubscribe(kind, name);
    if (it->refs == 0)
        m_entries.erase(it);
}

bool RoutedSubscriber::isConfirmed(Kind kind, const QByteArray &name) const
{
    const auto it = m_entries.constFind({ int(kind), name });
    if (it == m_entries.cend() || it->place.isEmpty() || it->dropped)
        return false;
    const RedisSubscriber *s = m_subscribers.value(it->place);
    return s && s->isConfirmed(kind, name);
}

void RoutedSubscriber::placeAll()
{
    // Moves are confirmed together: resubscribed() says that every moved subscription listens again.
    auto moving = std::make_shared<int>(0);
    QPointer<RoutedSubscriber> self(this);
    const auto movedOne = [self, moving](const RedisError &) {
        if (--*moving == 0 && self)
            emit self->resubscribed();
    };
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        const Kind kind = Kind(it.key().first);
        const QByteArray &name = it.key().second;
        const QString place = placeFor(kind, name);
        if (place.isEmpty() || (place == it->place && !it->dropped))
            continue;
        if (it->place.isEmpty()) {
            // First placement: the callers' confirmations wait for this subscription.
            RedisSubscriber *s = subscriberAt(place);
            const auto waiting = std::exchange(it->waiting, {});
            for (const Confirmed &c : waiting)
                s->subscribe(kind, name, c);
            for (int i = int(waiting.size()); i < it->refs; ++i)
                s->subscribe(kind, name);
            it->place = place;
            continue;
        }
        RedisSubscriber *old = subscriberAt(it->place);
        for (int i = 0; i < it->refs; ++i)
            old->unsubscribe(kind, name);
        RedisSubscriber *s = subscriberAt(place);
        ++*moving;
        s->subscribe(kind, name, movedOne);
        for (int i = 1; i < it->refs; ++i)
            s->subscribe(kind, name);
        it->place = place;
        it->dropped = false;
    }
    forgetIdle();
}

void RoutedSubscriber::forgetIdle()
{
    QSet<QString> used;
    for (const Entry &e : std::as_const(m_entries))
        used.insert(e.place);
    for (auto it = m_subscribers.begin(); it != m_subscribers.end();) {
        if (!used.contains(it.key()) && it.key() != kStandalone && it.value()->subscriptionCount() == 0) {
            it.value()->deleteLater();
            it = m_subscribers.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace LockScope
