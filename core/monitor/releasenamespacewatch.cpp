#include "monitor/releasenamespacewatch.h"

#include "kinds/locknames.h"
#include "monitor/lockrecordstore.h"

#include <QDateTime>

namespace LockScope {

namespace {
constexpr int kBothArriveMs = 250; // how long the second message of a "both" release may take
} // namespace

ReleaseNamespaceWatch::ReleaseNamespaceWatch(const LockRecordStore *records, QObject *parent)
    : QObject(parent)
    , m_records(records)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ReleaseNamespaceWatch::check);
}

void ReleaseNamespaceWatch::note(const QList<QByteArray> &names, bool sharded)
{
    for (const QByteArray &name : names) {
        const LockRecord *r = m_records->find(name);
        if (!r)
            continue;
        const auto it = m_seen.find(name);
        ReleaseSeen &seen = it != m_seen.end() ? *it : m_seen[name];
        if (it == m_seen.end()) {
            seen.atMs = monotonicMs();
            seen.shardWaiters = r->info.shardWaiters;
            seen.plainWaiters
                = r->info.waiters < 0 || r->info.shardWaiters < 0 ? -1 : r->info.waiters - r->info.shardWaiters;
        }
        (sharded ? seen.sharded : seen.plain) = true;
    }
    if (!m_timer.isActive())
        m_timer.start(kBothArriveMs);
}

void ReleaseNamespaceWatch::check()
{
    const qint64 now = monotonicMs();
    for (auto it = m_seen.begin(); it != m_seen.end();) {
        if (now - it->atMs < kBothArriveMs) {
            ++it;
            continue;
        }
        const ReleaseSeen seen = *it;
        const QByteArray name = it.key();
        it = m_seen.erase(it);
        const bool missedShard = seen.plain && !seen.sharded && seen.shardWaiters > 0 && seen.plainWaiters == 0;
        const bool missedPlain = seen.sharded && !seen.plain && seen.plainWaiters > 0 && seen.shardWaiters == 0;
        if (!missedShard && !missedPlain)
            continue;
        LockEvent e;
        e.type = LockEvent::Type::WakeUpMissed;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.name = name;
        e.detail = missedShard
            ? tr("released with PUBLISH while its %n waiter(s) listen on the shard channel (SSUBSCRIBE): they sleep "
                 "until their TTL; publish with both",
                nullptr, seen.shardWaiters)
            : tr("released with SPUBLISH while its %n waiter(s) listen on the plain channel (SUBSCRIBE): they sleep "
                 "until their TTL; publish with both",
                nullptr, seen.plainWaiters);
        emit wakeUpMissed(e);
    }
    if (!m_seen.isEmpty())
        m_timer.start(kBothArriveMs);
}

} // namespace LockScope
