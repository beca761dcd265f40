#include "lock/lockwaiters.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/redissubscriptions.h"

#include <QPointer>
#include <QTimer>

namespace LockScope {

struct LockWaiters::Waiter
{
    AcquireRequest request;
    QByteArray owner;
    qint64 deadlineMs = -1; // on m_clock; -1: none
    Done done;
    std::unique_ptr<QTimer> timer;
    bool attempting = false;
    bool sleeping = false;
    bool cancelled = false;
    int attempts = 0;
};

LockWaiters::LockWaiters(LockClient *client, RedisSubscriptions *subscriber)
    : QObject(client)
    , m_client(client)
    , m_subscriber(subscriber)
{
    m_clock.start();
    // Either namespace wakes: in "both" mode a waiter listens on the two, and a release reaching it twice only
    // costs one more try.
    connect(m_subscriber, &RedisSubscriptions::message, this, &LockWaiters::onMessage);
    connect(m_subscriber, &RedisSubscriptions::shardMessage, this, &LockWaiters::onMessage);
    // Messages sent while the pub/sub connection was down are gone: everyone tries again.
    connect(m_subscriber, &RedisSubscriptions::resubscribed, this, [this] {
        const auto channels = m_entries.keys();
        for (const auto &channel : channels)
            wakeAll(channel);
    });
}

LockWaiters::~LockWaiters()
{
    const auto entries = std::exchange(m_entries, {});
    for (const auto &entry : entries) {
        for (const auto &w : entry.waiters) {
            AcquireResult r;
            r.name = w->request.name;
            r.owner = w->owner;
            r.attempts = w->attempts;
            r.error = RedisError(RedisError::Kind::Io, tr("the lock client shut down while waiting"));
            if (w->done)
                w->done(r);
        }
    }
}

int LockWaiters::waiterCount() const
{
    int n = 0;
    for (const auto &e : m_entries)
        n += e.waiters.size();
    return n;
}

void LockWaiters::wait(const AcquireRequest &request, const QByteArray &owner, const QByteArray &channel,
    const AcquireResult &firstTry, Done done)
{
    auto w = std::make_shared<Waiter>();
    w->request = request;
    w->owner = owner;
    w->deadlineMs = request.waitMs < 0 ? -1 : m_clock.elapsed() + request.waitMs;
    w->done = std::move(done);
    w->attempts = firstTry.attempts;
    w->timer = std::make_unique<QTimer>();
    w->timer->setSingleShot(true);
    std::weak_ptr<Waiter> weak = w;
    connect(w->timer.get(), &QTimer::timeout, this, [this, channel, weak] {
        if (auto w = weak.lock()) {
            w->sleeping = false;
            attempt(channel, w);
        }
    });
    // The deadline holds even if the subscription is never confirmed (pub/sub connection down).
    if (w->deadlineMs >= 0) {
        w->sleeping = true;
        w->timer->start(int(qMin<qint64>(request.waitMs, std::numeric_limits<int>::max())));
    }
    Entry &entry = m_entries[channel];
    entry.waiters.append(w);
    if (channel.isEmpty()) {
        // A layout that wakes nobody (a string lock): nothing to listen to, its waiters retry on their own.
        entry.confirmed = true;
        sleep(channel, w, firstTry.ttlMs);
        return;
    }
    if (entry.waiters.size() == 1) {
        entry.confirmed = false;
        entry.permits = 0;
        // Confirmed once every namespace the fleet may publish on listens.
        const QList<RedisSubscriptions::Kind> kinds = m_client->waitKinds();
        for (RedisSubscriptions::Kind kind : kinds)
            entry.kinds << int(kind);
        auto remaining = std::make_shared<int>(int(kinds.size()));
        auto firstError = std::make_shared<RedisError>();
        QPointer<LockWaiters> self(this);
        for (RedisSubscriptions::Kind kind : kinds)
            m_subscriber->subscribe(kind, channel, [self, channel, remaining, firstError](const RedisError &error) {
                if (error.isError() && !firstError->isError())
                    *firstError = error;
                if (--*remaining == 0 && self)
                    self->onConfirmed(channel, *firstError);
            });
    } else if (entry.confirmed) {
        w->timer->stop();
        w->sleeping = false;
        attempt(channel, w);
    }
    // Otherwise onConfirmed() starts it: trying before the subscription is confirmed could miss the release.
}

void LockWaiters::onConfirmed(const QByteArray &channel, const RedisError &error)
{
    auto it = m_entries.find(channel);
    if (it == m_entries.end())
        return;
    // Without the channel (an ACL that denies it) waiters still wake when the holder's TTL runs out.
    it->confirmed = true;
    Q_UNUSED(error);
    // Everyone not already trying was waiting for this confirmation (asleep only on its deadline timer). A try
    // already on the wire may have run before the subscription was live and missed a release in between: it
    // gets a permit, so it tries once more instead of sleeping.
    const auto waiters = it->waiters;
    int busy = 0;
    for (const auto &w : waiters) {
        if (w->attempting) {
            ++busy;
            continue;
        }
        w->timer->stop();
        w->sleeping = false;
        attempt(channel, w);
    }
    it = m_entries.find(channel);
    if (it != m_entries.end())
        it->permits = qMin(it->permits + busy, int(it->waiters.size()));
}

void LockWaiters::attempt(const QByteArray &channel, const std::shared_ptr<Waiter> &w)
{
    w->attempting = true;
    ++w->attempts;
    std::weak_ptr<Waiter> weak = w;
    m_client->runAcquire(w->request, w->owner, [this, channel, weak](const AcquireResult &result) {
        auto w = weak.lock();
        if (!w)
            return;
        w->attempting = false;
        if (w->cancelled) {
            // Too late to stop the try on the server: a lock it won goes straight back.
            AcquireResult r = result;
            if (r.acquired)
                m_client->release(
                    r.name, r.owner, [](const ReleaseResult &) {}, w->request.kind);
            r.acquired = false;
            r.cancelled = true;
            finish(channel, w, r);
            return;
        }
        if (result.acquired || result.error.isError()) {
            finish(channel, w, result);
            return;
        }
        if (w->deadlineMs >= 0 && m_clock.elapsed() >= w->deadlineMs) {
            finish(channel, w, result);
            return;
        }
        auto it = m_entries.find(channel);
        if (it != m_entries.end() && it->permits > 0) {
            --it->permits;
            attempt(channel, w);
            return;
        }
        sleep(channel, w, result.ttlMs);
    });
}

void LockWaiters::sleep(const QByteArray &channel, const std::shared_ptr<Waiter> &w, qint64 ttlMs)
{
    qint64 delay = -1;
    if (ttlMs >= 0)
        delay = ttlMs;
    // Nobody will say when it is free: retry at the layout's pace, as its own clients do.
    if (const int poll = LockLayouts::actionsFor(w->request.kind).pollIntervalMs(); channel.isEmpty() && poll > 0)
        delay = delay < 0 ? poll : qMin<qint64>(delay, poll);
    if (w->deadlineMs >= 0) {
        const qint64 left = qMax<qint64>(0, w->deadlineMs - m_clock.elapsed());
        delay = delay < 0 ? left : qMin(delay, left);
    }
    w->sleeping = true;
    // TTL -1 and no deadline: only a message can wake it, exactly like Redisson's lock().
    if (delay >= 0)
        w->timer->start(int(qMin<qint64>(delay, std::numeric_limits<int>::max())));
}

void LockWaiters::finish(const QByteArray &channel, const std::shared_ptr<Waiter> &w, AcquireResult result)
{
    w->timer->stop();
    result.attempts = w->attempts;
    auto it = m_entries.find(channel);
    if (it != m_entries.end()) {
        it->waiters.removeOne(w);
        if (it->waiters.isEmpty()) {
            const QList<int> kinds = it->kinds;
            m_entries.erase(it);
            for (int kind : kinds)
                m_subscriber->unsubscribe(RedisSubscriptions::Kind(kind), channel);
        }
    }
    const Done done = std::move(w->done);
    if (done)
        done(result);
}

void LockWaiters::cancel(const QByteArray &channel, const QByteArray &owner)
{
    const auto it = m_entries.constFind(channel);
    if (it == m_entries.cend())
        return;
    const auto waiters = it->waiters;
    for (const auto &w : waiters) {
        if (w->owner != owner)
            continue;
        w->cancelled = true;
        if (!w->attempting) {
            AcquireResult r;
            r.name = w->request.name;
            r.owner = w->owner;
            r.cancelled = true;
            finish(channel, w, r);
        }
    }
}

void LockWaiters::onMessage(const QByteArray &channel, const QByteArray &payload)
{
    auto it = m_entries.find(channel);
    if (it == m_entries.end())
        return;
    bool ok = false;
    const qint64 kind = payload.toLongLong(&ok);
    if (!ok || (kind != 0 && kind != 1))
        return;
    if (kind == 1) {
        wakeAll(channel);
        return;
    }
    for (const auto &w : std::as_const(it->waiters)) {
        if (w->sleeping) {
            w->timer->stop();
            w->sleeping = false;
            attempt(channel, w);
            return;
        }
    }
    it->permits = qMin(it->permits + 1, int(it->waiters.size()));
}

void LockWaiters::wakeAll(const QByteArray &channel)
{
    auto it = m_entries.find(channel);
    if (it == m_entries.end())
        return;
    const auto waiters = it->waiters;
    int busy = 0;
    for (const auto &w : waiters) {
        if (w->sleeping) {
            w->timer->stop();
            w->sleeping = false;
            attempt(channel, w);
        } else if (w->attempting) {
            ++busy;
        }
    }
    it = m_entries.find(channel);
    if (it != m_entries.end())
        it->permits = qMin(it->permits + busy, int(it->waiters.size()));
}

} // namespace LockScope
