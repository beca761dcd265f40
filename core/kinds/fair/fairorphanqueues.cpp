#include "kinds/lockscanner.h"

#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

#include <QDateTime>

// The scanner's reads for the fair layout's queue-key cursor. Orphaned fair queues
// (docs/protocol/classification.md#orphaned-fair-queues): a redisson_lock_queue:{N} list or
// redisson_lock_timeout:{N} sorted set whose lock hash N is gone. Every later fair acquire waits behind its head, so
// the monitor shows it as a fair lock with no holders. Found by a cursor of its own over Redisson's queue keys, and by
// reading a name that has no hash.
namespace LockScope {

namespace {
// The reading of a queue key's name this scanner reports: for "redisson_lock_queue:{X}" both X and "{X}" name the
// same key (prefixName wraps only names without braces), and X, the common case, is the one.
QByteArray canonicalName(const QByteArray &queueKey)
{
    return LockNameMap::fromKey(queueKey).value(0);
}
} // namespace

bool LockScanner::orphanCandidate(const QByteArray &name)
{
    return !name.isEmpty() && canonicalName(LockNames::fairQueue(name)) == name;
}

void LockScanner::snapshotOrphanQueues(const QList<QByteArray> &keys)
{
    QList<KeySnapshot> candidates;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    for (const QByteArray &key : keys) {
        if (!key.startsWith("redisson_lock_queue:") && !key.startsWith("redisson_lock_timeout:"))
            continue;
        const QByteArray name = canonicalName(key);
        // The monitor's pattern bounds the locks it shows, queues included; a queue and its deadlines name it once.
        if (name.isEmpty() || (m_options.pattern != "*" && !globMatch(m_options.pattern, name))
            || m_queueNamesSeen.contains(name))
            continue;
        m_queueNamesSeen.insert(name);
        KeySnapshot s;
        s.name = name;
        s.type = "none";
        s.nowMs = now;
        s.monoMs = mono;
        candidates << s;
    }
    readAux(std::move(candidates));
}

void LockScanner::readOrphanQueue(const std::shared_ptr<QList<KeySnapshot>> &snaps, int index, ReplyJoin &join,
    const std::shared_ptr<QSet<int>> &dropped)
{
    const QByteArray name = snaps->at(index).name;
    const QByteArray queueKey = LockNames::fairQueue(name);
    // Every name the queue key may belong to: a hash under any of them is the lock, listed by the hash cursor (or by
    // its own read), never twice.
    QList<QByteArray> exists { "EXISTS" };
    exists << LockNameMap::fromKey(queueKey);
    m_connection->command(exists, join.track([dropped, index](const RedisResult &r) {
        if (!r.ok() || r.value.toInteger() != 0)
            dropped->insert(index);
    }));
    // A key of another type under Redisson's name answers WRONGTYPE: nothing is read, nothing is shown.
    m_connection->command({ "LRANGE", queueKey, "0", "-1" }, join.track([snaps, index](const RedisResult &r) {
        if (r.ok() && r.value.isArray())
            for (const RedisValue &m : r.value.elements())
                (*snaps)[index].queue << m.bytes();
    }));
    m_connection->command({ "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" },
        join.track([snaps, index](const RedisResult &r) {
            if (!r.ok() || !r.value.isArray())
                return;
            for (int k = 0; k + 1 < r.value.size(); k += 2)
                (*snaps)[index].queueDeadlines.insert(r.value.at(k).bytes(), r.value.at(k + 1).bytes().toLongLong());
        }));
}

} // namespace LockScope
