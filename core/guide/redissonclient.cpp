#include "guide/redissonclient.h"

#include "redis/redisconnection.h"
#include "redis/redissubscriber.h"

#include <QRandomGenerator>

namespace LockScope::Guide {

namespace {
// Redisson's unlock message: the lock is free, one waiter per client may try.
const QByteArray unlockMessage = "0";

QByteArray randomRequestId()
{
    // 16 random bytes in lower-case hex, as Redisson's ServiceManager.generateId() draws them.
    QByteArray bytes(16, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), 4);
    return bytes.toHex();
}

// The unlock latch's lifetime of Redisson 3.48+: (timeout + retry delay) x attempts, the delay an equal jitter
// between 1 and 2 s: between 16 and 20 s with the defaults.
qint64 latchLifetimeMs()
{
    return 4 * (3000 + 1000 + QRandomGenerator::global()->bounded(1001));
}
} // namespace

RedissonClient::RedissonClient(
    ConnectionOptions connection, Options options, std::function<qint64()> clock, QObject *parent)
    : GuideClient(parent)
    , m_options(std::move(options))
    , m_clock(std::move(clock))
{
    connection.autoReconnect = false;
    m_connection = new RedisConnection(connection, this);
    m_subscriber = new RedisSubscriber(connection, this);
    m_subscriber->setPingInterval(0);
    connect(m_subscriber, &RedisSubscriber::message, this, &RedissonClient::onMessage);
    m_watchdog = new RedissonWatchdog(
        m_options.watchdogTimeoutMs, [this](qint64 thread) { return owner(thread); },
        [this](const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done) {
            const GuideScript &s = script(ScriptId::RenewBatch);
            QList<QByteArray> argv { "EVAL", s.source, QByteArray::number(keys.size()) };
            argv << keys << args;
            send(0, m_options.client, argv, s.name, keys, args, std::move(done), tr("watchdog"));
        },
        this);
    // Redisson says nothing of either: they are the lanes' events, not the Java caller's.
    connect(m_watchdog, &RedissonWatchdog::dropped, this, [this](const QByteArray &name) {
        emitEvent(0, ActorEvent::RenewalDropped, -1, QString::fromUtf8(name), {}, m_options.client);
    });
    connect(m_watchdog, &RedissonWatchdog::stopped, this,
        [this] { emitEvent(0, ActorEvent::WatchdogStopped, -1, {}, {}, m_options.client); });
    // The client's name shows in CLIENT LIST, where a presenter finds the guided clients among others.
    m_connection->command({ "CLIENT", "SETNAME", "guided:" + m_options.client });
}

RedissonClient::~RedissonClient() = default;

QByteArray RedissonClient::owner(qint64 thread) const
{
    return m_options.uuid + ':' + QByteArray::number(thread);
}

QByteArray RedissonClient::alias(qint64 thread) const
{
    return m_options.threads.value(thread, m_options.client + QByteArray::number(thread));
}

QByteArray RedissonClient::channel(const QByteArray &name)
{
    return "redisson_lock__channel:{" + name + '}';
}

QByteArray RedissonClient::unlockLatch(const QByteArray &name, const QByteArray &requestId)
{
    return "redisson_unlock_latch:{" + name + "}:" + requestId;
}

void RedissonClient::send(qint64 thread, const QByteArray &actor, const QList<QByteArray> &argv,
    const QByteArray &scriptName, const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done,
    const QString &detail)
{
    if (m_stopped)
        return;
    QPointer<RedissonClient> self(this);
    m_connection->command(
        argv, [self, thread, actor, argv, scriptName, keys, args, done, detail](const RedisResult &r) {
            if (!self || self->m_stopped)
                return;
            GuideRecord record;
            record.type = GuideRecord::Type::Wire;
            record.tMs = self->m_clock();
            record.actor = actor.isEmpty() ? self->alias(thread) : actor;
            record.op = argv.first();
            record.script = scriptName;
            record.keys = scriptName.isEmpty() ? argv.mid(1) : keys;
            record.argv = scriptName.isEmpty() ? QList<QByteArray>() : args;
            record.hasReply = true;
            record.reply
                = r.error.isError() && !r.value.isError() ? RedisValue::error(r.error.message().toUtf8()) : r.value;
            record.detail = detail;
            emit self->record(record);
            if (done)
                done(record.reply);
        });
}

void RedissonClient::eval(
    qint64 thread, ScriptId id, const QList<QByteArray> &keys, const QList<QByteArray> &args, Reply done)
{
    // EVAL every time, never EVALSHA: MONITOR then shows the script each call ran.
    const GuideScript &s = script(id);
    QList<QByteArray> argv { "EVAL", s.source, QByteArray::number(keys.size()) };
    argv << keys << args;
    send(thread, {}, argv, s.name, keys, args, std::move(done));
}

void RedissonClient::emitEvent(
    qint64 thread, ActorEvent event, qint64 ms, const QString &detail, const QString &java, const QByteArray &actor)
{
    GuideRecord record;
    record.type = GuideRecord::Type::Event;
    record.tMs = m_clock();
    record.actor = actor.isEmpty() ? alias(thread) : actor;
    record.event = event;
    record.ms = ms;
    record.detail = detail;
    record.java = java;
    emit this->record(record);
}

void RedissonClient::lock(qint64 thread, const QByteArray &name, qint64 leaseMs)
{
    Call call;
    call.name = name;
    call.leaseMs = leaseMs;
    m_calls.insert(thread, call);
    attempt(thread);
}

void RedissonClient::tryLock(qint64 thread, const QByteArray &name, qint64 waitMs, qint64 leaseMs)
{
    Call call;
    call.tryLock = true;
    call.name = name;
    call.leaseMs = leaseMs;
    call.budgetMs = waitMs;
    call.markMs = m_clock();
    m_calls.insert(thread, call);
    attempt(thread);
}

void RedissonClient::attempt(qint64 thread)
{
    const Call &call = m_calls[thread];
    // Without a lease of its own the lock lives for the watchdog timeout, and the watchdog keeps it.
    const qint64 lease = call.leaseMs > 0 ? call.leaseMs : m_options.watchdogTimeoutMs;
    eval(thread, ScriptId::Acquire, { call.name }, { QByteArray::number(lease), owner(thread) },
        [this, thread](const RedisValue &reply) {
            if (!m_calls.contains(thread))
                return;
            if (reply.isNil())
                onAcquired(thread);
            else if (reply.isInteger())
                onTtl(thread, reply.toInteger());
            else
                finishCall(thread); // an error: the call throws
        });
}

void RedissonClient::charge(Call &call)
{
    const qint64 now = m_clock();
    call.budgetMs -= now - call.markMs;
    call.markMs = now;
}

void RedissonClient::onTtl(qint64 thread, qint64 ttl)
{
    Call &call = m_calls[thread];
    if (call.tryLock) {
        if (call.budgetMs < 0 && !call.subscribed) { // tryLock(): one try, no subscription
            emitEvent(thread, ActorEvent::NotAcquired, ttl, {}, QStringLiteral("tryLock() → false"));
            finishCall(thread);
            return;
        }
        charge(call);
        if (call.budgetMs <= 0) {
            emitEvent(thread, ActorEvent::BudgetSpent, 0, {}, QStringLiteral("tryLock(wait) → false"));
            finishCall(thread);
            return;
        }
    }
    if (!call.subscribed) {
        // Subscribe first, then try again: the holder may have left before the subscription was in place, and its
        // message would then never reach us.
        subscribe(thread, [this, thread] {
            if (!m_calls.contains(thread))
                return;
            Call &c = m_calls[thread];
            c.subscribed = true;
            if (c.tryLock) {
                charge(c);
                if (c.budgetMs <= 0) {
                    emitEvent(thread, ActorEvent::BudgetSpent, 0, {}, QStringLiteral("tryLock(wait) → false"));
                    finishCall(thread);
                    return;
                }
            }
            attempt(thread);
        });
        return;
    }
    // Sleep until a message, or until the holder's lease would end; a lock with no TTL only wakes by message.
    // tryLock(wait) sleeps at most what is left of its wait time.
    qint64 sleepMs = ttl;
    if (call.tryLock)
        sleepMs = ttl >= 0 && ttl < call.budgetMs ? ttl : call.budgetMs;
    sleep(thread, sleepMs);
}

void RedissonClient::sleep(qint64 thread, qint64 ms)
{
    Call &call = m_calls[thread];
    Entry &entry = m_entries[call.name];
    if (entry.permits > 0) {
        // A message that came while nobody slept left its permit: take it and try at once.
        --entry.permits;
        emitEvent(thread, ActorEvent::WokenByMessage, 0, tr("took a permit a message had left"));
        attempt(thread);
        return;
    }
    entry.waiters << thread;
    call.sleptAtMs = m_clock();
    emitEvent(thread, ActorEvent::Sleeping, ms);
    if (ms >= 0) {
        call.timer = new QTimer(this);
        call.timer->setSingleShot(true);
        // Java's sleep ends on time; a coarse timer may fire up to 5% early, while the holder's TTL still runs, and
        // add a try Redisson would not make.
        call.timer->setTimerType(Qt::PreciseTimer);
        connect(call.timer, &QTimer::timeout, this, [this, thread] { wake(thread, ActorEvent::WokenByTimer); });
        call.timer->start(int(qMax<qint64>(0, ms)));
    }
}

void RedissonClient::wake(qint64 thread, ActorEvent cause)
{
    if (!m_calls.contains(thread))
        return;
    Call &call = m_calls[thread];
    m_entries[call.name].waiters.removeAll(thread);
    if (call.timer) {
        call.timer->deleteLater();
        call.timer = nullptr;
    }
    emitEvent(thread, cause, m_clock() - call.sleptAtMs);
    if (call.tryLock) {
        charge(call);
        if (call.budgetMs <= 0) {
            emitEvent(thread, ActorEvent::BudgetSpent, 0, {}, QStringLiteral("tryLock(wait) → false"));
            finishCall(thread);
            return;
        }
    }
    attempt(thread);
}

void RedissonClient::onAcquired(qint64 thread)
{
    const Call &call = m_calls[thread];
    if (call.leaseMs > 0) {
        m_leaseTime.insert(call.name, call.leaseMs);
    } else {
        m_leaseTime.insert(call.name, m_options.watchdogTimeoutMs);
        m_watchdog->add(call.name, thread);
    }
    const QString java = call.tryLock ? QStringLiteral("tryLock → true") : QStringLiteral("lock() returned");
    emitEvent(thread, ActorEvent::Acquired, -1, {}, java);
    finishCall(thread);
}

void RedissonClient::finishCall(qint64 thread)
{
    Call call = m_calls.take(thread);
    if (call.timer)
        call.timer->deleteLater();
    m_entries[call.name].waiters.removeAll(thread);
    // The finally block of the loop: give the subscription back.
    if (call.subscribed)
        unsubscribe(call.name);
    else if (m_entries.value(call.name).refs == 0)
        m_entries.remove(call.name);
    emit callDone(thread);
}

void RedissonClient::subscribe(qint64 thread, std::function<void()> then)
{
    const QByteArray name = m_calls[thread].name;
    Entry &entry = m_entries[name];
    ++entry.refs;
    if (entry.refs > 1) {
        if (entry.confirmed) {
            emitEvent(thread, ActorEvent::Subscribed, -1,
                tr("this client's entry for the lock is reused: no new SUBSCRIBE (shared by %n thread(s))", nullptr,
                    entry.refs));
            then();
        } else {
            entry.onConfirmed << then;
        }
        return;
    }
    entry.onConfirmed << then;
    const QByteArray ch = channel(name);
    QPointer<RedissonClient> self(this);
    m_subscriber->subscribe(RedisSubscriptions::Kind::Channel, ch, [self, thread, name, ch](const RedisError &error) {
        if (!self || self->m_stopped)
            return;
        GuideRecord record;
        record.type = GuideRecord::Type::Wire;
        record.tMs = self->m_clock();
        record.actor = self->alias(thread);
        record.op = "SUBSCRIBE";
        record.keys = { ch };
        record.hasReply = true;
        record.reply = error.isError() ? RedisValue::error(error.message().toUtf8()) : RedisValue::status("confirmed");
        emit self->record(record);
        Entry &entry = self->m_entries[name];
        entry.confirmed = !error.isError();
        const auto waiting = std::exchange(entry.onConfirmed, {});
        for (const auto &next : waiting)
            next();
    });
}

void RedissonClient::unsubscribe(const QByteArray &name)
{
    auto it = m_entries.find(name);
    if (it == m_entries.end())
        return;
    if (--it->refs > 0)
        return;
    m_entries.erase(it);
    const QByteArray ch = channel(name);
    m_subscriber->unsubscribe(RedisSubscriptions::Kind::Channel, ch);
    GuideRecord record;
    record.type = GuideRecord::Type::Wire;
    record.tMs = m_clock();
    record.actor = m_options.client;
    record.op = "UNSUBSCRIBE";
    record.keys = { ch };
    emit this->record(record);
}

void RedissonClient::onMessage(const QByteArray &ch, const QByteArray &payload)
{
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (channel(it.key()) != ch)
            continue;
        if (payload != unlockMessage)
            return;
        // One message releases one permit of this client's latch: one sleeping thread wakes, the longest waiting
        // first here; with nobody asleep the permit is kept for the next thread that would sleep.
        if (!it->waiters.isEmpty()) {
            wake(it->waiters.first(), ActorEvent::WokenByMessage);
        } else {
            ++it->permits;
            emitEvent(0, ActorEvent::PermitKept, -1, {}, {}, m_options.client);
        }
        return;
    }
}

void RedissonClient::unlock(qint64 thread, const QByteArray &name, bool dropReply, std::optional<UnlockEffect> effect)
{
    Unlock unlock;
    unlock.effect = effect.value_or(m_options.unlockEffect);
    unlock.requestId = randomRequestId();
    unlock.latchTtlMs = latchLifetimeMs();
    sendUnlock(thread, name, unlock, dropReply);
}

void RedissonClient::retryUnlock(qint64 thread, const QByteArray &name)
{
    const Unlock unlock = m_lostUnlocks.take({ thread, name });
    if (unlock.requestId.isEmpty()) {
        this->unlock(thread, name, false, std::nullopt);
        return;
    }
    sendUnlock(thread, name, unlock, false);
}

void RedissonClient::sendUnlock(qint64 thread, const QByteArray &name, const Unlock &unlock, bool dropReply)
{
    const QByteArray lease = QByteArray::number(m_leaseTime.value(name, m_options.watchdogTimeoutMs));
    const ScriptId id = unlockScript(unlock.effect);
    const QByteArray latch = unlockLatch(name, unlock.requestId);
    QList<QByteArray> keys { name, channel(name) };
    QList<QByteArray> args { unlockMessage, lease, owner(thread) };
    if (id == ScriptId::Unlock4) {
        keys << latch;
        args << "publish" << QByteArray::number(unlock.latchTtlMs);
    } else if (id == ScriptId::Unlock322) {
        args << "publish";
    }
    m_calls.insert(thread, Call { false, name });
    eval(thread, id, keys, args, [this, thread, name, latch, unlock, dropReply, id](const RedisValue &reply) {
        if (dropReply) {
            m_lostUnlocks.insert({ thread, name }, unlock);
            emitEvent(thread, ActorEvent::ReplyLost, -1,
                tr("the script ran, but its reply never reached the client, which cannot tell whether it ran"));
            m_calls.remove(thread);
            emit callDone(thread);
            return;
        }
        onUnlocked(thread, name, id == ScriptId::Unlock4 ? latch : QByteArray(), reply);
    });
}

void RedissonClient::onUnlocked(qint64 thread, const QByteArray &name, const QByteArray &latch, const RedisValue &reply)
{
    // The latch served this call; a retry would have found it. Deleted as a command of its own, as Redisson does.
    if (!latch.isEmpty())
        send(thread, {}, { "DEL", latch }, {}, {}, {}, {});
    if (reply.isInteger() && reply.toInteger() == 1) {
        m_watchdog->cancel(name, thread, true);
        m_leaseTime.remove(name); // back to the watchdog timeout after a full release
        emitEvent(thread, ActorEvent::Released, -1, {}, QStringLiteral("unlock() returned: released"));
    } else if (reply.isInteger()) {
        m_watchdog->cancel(name, thread, false);
        emitEvent(thread, ActorEvent::StillHeld, -1, {}, QStringLiteral("unlock() returned: still held"));
    } else {
        m_watchdog->cancel(name, thread, false);
        m_leaseTime.remove(name);
        // Redisson's own words, so that the audience recognises the exception from their logs.
        emitEvent(thread, ActorEvent::Refused, -1, {},
            QStringLiteral("IllegalMonitorStateException: attempt to unlock lock, not locked by current thread by "
                           "node id: %1 thread-id: %2")
                .arg(QString::fromLatin1(m_options.uuid))
                .arg(thread));
    }
    m_calls.remove(thread);
    emit callDone(thread);
}

void RedissonClient::forceUnlock(qint64 thread, const QByteArray &name)
{
    m_watchdog->forget(name); // cancelled client-side before the script is sent
    m_calls.insert(thread, Call { false, name });
    eval(thread, ScriptId::ForceUnlock, { name, channel(name) }, { unlockMessage, "publish" },
        [this, thread](const RedisValue &reply) {
            emitEvent(thread, reply.isInteger() && reply.toInteger() == 1 ? ActorEvent::Released : ActorEvent::None, -1,
                {},
                reply.isInteger() && reply.toInteger() == 1 ? QStringLiteral("forceUnlock() → true")
                                                            : QStringLiteral("forceUnlock() → false"));
            m_calls.remove(thread);
            emit callDone(thread);
        });
}

void RedissonClient::raw(qint64 thread, const QList<QByteArray> &argv)
{
    m_calls.insert(thread, Call { false, argv.value(1) });
    send(thread, {}, argv, {}, {}, {}, [this, thread](const RedisValue &) {
        m_calls.remove(thread);
        emit callDone(thread);
    });
}

void RedissonClient::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_watchdog->stop();
    for (Call &call : m_calls) {
        if (call.timer)
            call.timer->deleteLater();
    }
    m_calls.clear();
    m_entries.clear();
    m_connection->close();
    m_subscriber->deleteLater();
    m_subscriber = nullptr;
}

} // namespace LockScope::Guide
