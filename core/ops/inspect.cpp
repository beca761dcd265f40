#include "ops/inspect.h"

#include "kinds/lockatname.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "redis/redisrouter.h"

#include <QPointer>

namespace LockScope {

QList<QByteArray> LockNow::owners() const
{
    QList<QByteArray> out;
    for (const LockHolder &h : holders)
        out << h.owner;
    return out;
}

LockMode LockNow::actionMode(const QByteArray &owner) const
{
    return LockLayouts::releaseMode(layout ? *layout : LockLayouts::forRecord(LockInfo::Kind::Reentrant), owner);
}

namespace Ops {

namespace {
LockNow fromReading(const NameReading &reading, LockAction action, const LockClient &client)
{
    LockNow now;
    now.name = reading.name;
    now.error = LockAtName::refusal(reading, action, client.options().stringPatterns);
    if (now.error.isError() || !reading.lock)
        return now;
    const LockInfo &info = *reading.lock;
    now.lock = info;
    now.layout = &LockLayouts::forRecord(info.kind);
    now.holders = info.holders;
    now.mode = info.mode;
    now.ttlMs = info.ttlMs;
    // Whom a release wakes: the listeners on the layout's own channel, where its waiters all listen on one. Our own
    // subscribers (the console's monitor following sharded releases) are no waiters.
    const LockCapabilities caps = now.layout->capabilities();
    const QByteArray channel = now.layout->recogniser().releaseChannel(now.name);
    if (caps.wakeChannel && !caps.queue && !channel.isEmpty() && info.waiters >= 0)
        now.listeners = qMax(0, info.waiters - client.ownListeners(channel));
    // A value the layout would never release (a counter under a string lock's name) is no lock to show.
    if (const LockActions *actions = now.layout->lockActions())
        for (const LockHolder &h : std::as_const(now.holders))
            if (const RedisError refusal = actions->checkRelease(now.name, h.owner); refusal && !now.error)
                now.error = refusal;
    return now;
}
} // namespace

LockNow readingOf(const LockInfo &lock, const LockClient &client, LockAction action)
{
    NameReading reading;
    reading.name = lock.name;
    reading.lock = lock;
    return fromReading(reading, action, client);
}

void inspect(LockClient *client, const QByteArray &name, std::function<void(const LockNow &)> done, LockAction action)
{
    if (const RedisError error = client->validateName(name)) {
        LockNow now;
        now.name = name;
        now.error = error;
        QMetaObject::invokeMethod(
            client, [done, now] { done(now); }, Qt::QueuedConnection);
        return;
    }
    QPointer<LockClient> guard(client);
    LockAtName::Options options;
    options.patterns = client->options().stringPatterns;
    options.shardWaiters = true; // a server before 7.0 refuses SHARDNUMSUB: the plain count stands alone
    LockAtName::read(client->connection(), name, options, [guard, action, done](const NameReading &reading) {
        if (guard)
            done(fromReading(reading, action, *guard));
    });
}

} // namespace Ops

} // namespace LockScope
