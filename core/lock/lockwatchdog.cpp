#include "lock/lockwatchdog.h"

#include "kinds/reentrant/lockscripts.h"
#include "redis/rediscommander.h"
#include "redis/slotmap.h"

#include <QPointer>

namespace LockScope {

LockWatchdog::LockWatchdog(RedisCommander *connection, const LockClientOptions &options, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_options(options)
{
    m_clock.start();
    m_timer.setInterval(qMax(1, options.watchdogTimeoutMs / 3));
    connect(&m_timer, &QTimer::timeout, this, &LockWatchdog::tick);
}

void LockWatchdog::track(const QByteArray &name, const QByteArray &owner, qint64 leaseMs, bool renew, qint64 watchdogMs,
    const QByteArray &readTimeoutPrefix, const RedisScript *renewal, LockMode kind)
{
    Hold &h = m_holds[{ name, owner }];
    h.leaseMs = leaseMs;
    // A reentrant acquire with the watchdog keeps it on for the hold, as in Redisson.
    h.renew = h.renew || renew;
    if (renew && watchdogMs > 0)
        h.watchdogMs = watchdogMs;
    ++h.levels;
    h.confirmedMs = m_clock.elapsed();
    h.readTimeoutPrefix = readTimeoutPrefix;
    h.renewal = renewal ? renewal : &LockScripts::renew();
    h.kind = kind;
    // A hold with a shorter watchdog lease than the client's makes every tick come sooner, until no hold is left
    // (a hold with a longer one is renewed more often than it needs, never too late). No walk over the holds: an
    // acquire stays O(1) with a million of them.
    if (h.renew && h.watchdogMs > 0 && h.watchdogMs / 3 < m_timer.interval())
        m_timer.setInterval(int(qMax<qint64>(1, h.watchdogMs / 3)));
    if (!m_timer.isActive())
        m_timer.start();
}

void LockWatchdog::idle()
{
    m_timer.stop();
    m_timer.setInterval(int(qMax<qint64>(1, m_options.watchdogTimeoutMs / 3)));
}

void LockWatchdog::released(const QByteArray &name, const QByteArray &owner, bool fully)
{
    auto it = m_holds.find({ name, owner });
    if (it == m_holds.end())
        return;
    if (fully || --it->levels <= 0)
        m_holds.erase(it);
    if (m_holds.isEmpty())
        idle();
}

void LockWatchdog::forget(const QByteArray &name)
{
    for (auto it = m_holds.begin(); it != m_holds.end();)
        it = it.key().first == name ? m_holds.erase(it) : std::next(it);
    if (m_holds.isEmpty())
        idle();
}

bool LockWatchdog::setRenewal(const QByteArray &name, const QByteArray &owner, bool renew)
{
    auto it = m_holds.find({ name, owner });
    if (it == m_holds.end())
        return false;
    const bool switchedOn = renew && !it->renew;
    it->renew = renew;
    if (switchedOn)
        renewBatch(*it->renewal, { { name, owner } });
    return true;
}

bool LockWatchdog::isTracked(const QByteArray &name, const QByteArray &owner) const
{
    return m_holds.contains({ name, owner });
}

bool LockWatchdog::isRenewing(const QByteArray &name, const QByteArray &owner) const
{
    const auto it = m_holds.constFind({ name, owner });
    return it != m_holds.cend() && it->renew;
}

qint64 LockWatchdog::leaseOf(const QByteArray &name, const QByteArray &owner) const
{
    const auto it = m_holds.constFind({ name, owner });
    return it == m_holds.cend() ? 0 : it->leaseMs;
}

QList<HoldEvent> LockWatchdog::holds() const
{
    QList<HoldEvent> out;
    for (auto it = m_holds.cbegin(); it != m_holds.cend(); ++it)
        out.append({ it.key().first, it.key().second, it->leaseMs, it->kind });
    return out;
}

qint64 LockWatchdog::renewalLease(const Hold &hold) const
{
    // Redisson's renewal always extends to lockWatchdogTimeout, even when a level of the hold was re-entered with an
    // explicit lease: renewing with that shorter lease would let the hold run out between two ticks.
    return !hold.renew ? 0 : hold.watchdogMs > 0 ? hold.watchdogMs : m_options.watchdogTimeoutMs;
}

void LockWatchdog::renewNow()
{
    tick();
}

void LockWatchdog::tick()
{
    // In a cluster one script may only touch one slot: a batch per slot, as Redisson 3.44+ does. And one per
    // layout's renewal script: a string lock is renewed by comparing its token, a lock hash by its field.
    const bool bySlot = m_connection->routesBySlot();
    QHash<QPair<quint16, const RedisScript *>, QList<Key>> batches;
    for (auto it = m_holds.cbegin(); it != m_holds.cend(); ++it) {
        const QPair<quint16, const RedisScript *> batchKey { bySlot ? keySlot(it.key().first) : 0, it->renewal };
        QList<Key> &batch = batches[batchKey];
        batch.append(it.key());
        if (batch.size() >= m_options.watchdogBatchSize) {
            renewBatch(*batchKey.second, batch);
            batch.clear();
        }
    }
    for (auto it = batches.cbegin(); it != batches.cend(); ++it)
        if (!it->isEmpty())
            renewBatch(*it.key().second, *it);
}

void LockWatchdog::renewBatch(const RedisScript &script, const QList<Key> &keys)
{
    QList<QByteArray> names;
    QList<QByteArray> args;
    QList<qint64> leases;
    for (const Key &k : keys) {
        const Hold &h = m_holds.value(k);
        const qint64 lease = renewalLease(h);
        names << k.first;
        args << QByteArray::number(lease) << k.second << h.readTimeoutPrefix;
        leases << lease;
    }
    QPointer<LockWatchdog> self(this);
    const qint64 sentMs = m_clock.elapsed();
    m_connection->eval(script, names, args, [self, keys, leases, sentMs](const RedisResult &r) {
        if (!self)
            return;
        if (!r.ok() || !r.value.isArray() || r.value.size() != keys.size()) {
            // Redisson retries at the next tick too; the lease still covers two more. But once no renewal has
            // landed for a whole lease, the hold has run out on the server whether we can see it or not.
            emit self->renewalFailed(
                r.ok() ? RedisError(RedisError::Kind::Protocol, QStringLiteral("renewal reply")) : r.error);
            if (self)
                self->expireUnconfirmed(keys);
            return;
        }
        for (int i = 0; i < keys.size(); ++i) {
            const Key &k = keys.at(i);
            // Released meanwhile: the answer is about a hold nobody tracks any more.
            if (!self->m_holds.contains(k))
                continue;
            const HoldEvent event { k.first, k.second, leases.at(i), self->m_holds.value(k).kind };
            if (r.value.at(i).toInteger() == 1) {
                if (leases.at(i) > 0) {
                    self->m_holds[k].confirmedMs = sentMs;
                    emit self->renewed(event);
                }
            } else {
                self->m_holds.remove(k);
                emit self->lost(event);
            }
            if (!self)
                return;
        }
        if (self->m_holds.isEmpty())
            self->idle();
    });
}

void LockWatchdog::expireUnconfirmed(const QList<Key> &keys)
{
    QPointer<LockWatchdog> self(this);
    const qint64 now = m_clock.elapsed();
    for (const Key &k : keys) {
        const auto it = m_holds.constFind(k);
        // A renewing hold was last extended to the watchdog timeout, whatever lease its latest level asked for.
        const qint64 lease = it == m_holds.cend() ? 0 : qMax(it->leaseMs, renewalLease(*it));
        if (it == m_holds.cend() || now - it->confirmedMs < lease)
            continue;
        const HoldEvent event { k.first, k.second, lease, it->kind };
        m_holds.remove(k);
        emit lost(event);
        if (!self)
            return;
    }
    if (m_holds.isEmpty())
        idle();
}

} // namespace LockScope
