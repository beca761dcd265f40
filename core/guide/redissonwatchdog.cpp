#include "guide/redissonwatchdog.h"

namespace LockScope::Guide {

RedissonWatchdog::RedissonWatchdog(
    int timeoutMs, std::function<QByteArray(qint64 thread)> owner, Send send, QObject *parent)
    : QObject(parent)
    , m_timeoutMs(timeoutMs)
    , m_owner(std::move(owner))
    , m_send(std::move(send))
{
    m_timer.setSingleShot(true);
    // Every T/3 as Redisson's scheduler does it, not up to 5% early or late (the default coarse timer).
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &RedissonWatchdog::tick);
}

void RedissonWatchdog::add(const QByteArray &name, qint64 thread)
{
    auto &threads = m_renewals[name];
    bool found = false;
    for (auto &[t, levels] : threads) {
        if (t == thread) {
            ++levels;
            found = true;
        }
    }
    if (!found)
        threads.append({ thread, 1 });
    if (!m_timer.isActive() && !m_inFlight && !m_stopped)
        m_timer.start(m_timeoutMs / 3);
}

void RedissonWatchdog::cancel(const QByteArray &name, qint64 thread, bool all)
{
    auto it = m_renewals.find(name);
    if (it == m_renewals.end())
        return;
    for (int i = 0; i < it->size(); ++i) {
        if ((*it)[i].first != thread)
            continue;
        if (all || --(*it)[i].second <= 0)
            it->removeAt(i);
        break;
    }
    if (it->isEmpty())
        m_renewals.erase(it);
}

void RedissonWatchdog::stop()
{
    m_stopped = true;
    m_timer.stop();
    m_renewals.clear();
}

void RedissonWatchdog::tick()
{
    if (m_renewals.isEmpty() || m_stopped)
        return; // nothing left to keep: the task is not rescheduled
    QList<QByteArray> keys;
    QList<QByteArray> args { QByteArray::number(m_timeoutMs) };
    for (auto it = m_renewals.cbegin(); it != m_renewals.cend(); ++it) {
        keys << it.key();
        args << m_owner(it->first().first); // only the first registered thread's field is renewed
    }
    m_inFlight = true;
    m_send(keys, args, [this, keys](const RedisValue &reply) {
        m_inFlight = false;
        for (int i = 0; i < keys.size() && i < reply.size(); ++i) {
            if (reply.at(i).toInteger() == 0 && m_renewals.remove(keys.at(i)))
                emit dropped(keys.at(i));
        }
        if (!m_renewals.isEmpty() && !m_stopped)
            m_timer.start(m_timeoutMs / 3);
        else
            emit stopped();
    });
}

} // namespace LockScope::Guide
