// Orphaned fair queues (docs/protocol/classification.md#orphaned-fair-queues): a redisson_lock_queue:{N} list or
// redisson_lock_timeout:{N} sorted set whose lock hash N is gone. Every later fair acquire waits behind its head, so
// the monitor shows it as a fair lock with no holders. The scanner finds them by the fair layout's cursor over the
// queue keys, or by reading a name that has no key, and reads them here.
#include "kinds/fair/fairlayout.h"

#include "kinds/auxreader.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"

namespace LockScope {

QList<QByteArray> FairLayout::namesFromAuxKey(const QByteArray &key) const
{
    QList<QByteArray> names = LockNameMap::namesAfter(key, "redisson_lock_queue:");
    return names.isEmpty() ? LockNameMap::namesAfter(key, "redisson_lock_timeout:") : names;
}

bool FairLayout::mayOutliveItsKey(const QByteArray &name) const
{
    // For "redisson_lock_queue:{X}" both X and "{X}" name the same key (prefixName wraps only names without braces);
    // X, the common case, is the one a queue is listed under.
    return !name.isEmpty() && LockNameMap::fromKey(LockNames::fairQueue(name)).value(0) == name;
}

void FairLayout::readKeyless(AuxReader &reader) const
{
    const QByteArray name = reader.snapshot().name;
    const QByteArray queueKey = LockNames::fairQueue(name);
    // Every name the queue key may belong to: a hash under any of them is the lock, listed by the hash cursor (or by
    // its own read), never twice.
    QList<QByteArray> exists { "EXISTS" };
    exists << LockNameMap::fromKey(queueKey);
    reader.command(exists, [](KeySnapshot &s, const RedisResult &r) {
        if (!r.ok() || r.value.toInteger() != 0)
            s.superseded = true;
    });
    // A key of another type under Redisson's name answers WRONGTYPE: nothing is read, nothing is shown.
    reader.command({ "LRANGE", queueKey, "0", "-1" }, [](KeySnapshot &s, const RedisResult &r) {
        if (r.ok() && r.value.isArray())
            for (const RedisValue &m : r.value.elements())
                s.aux.get<FairQueueAux>().queue << m.bytes();
    });
    reader.command(
        { "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" }, [](KeySnapshot &s, const RedisResult &r) {
            if (!r.ok() || !r.value.isArray())
                return;
            for (int k = 0; k + 1 < r.value.size(); k += 2)
                s.aux.get<FairQueueAux>().deadlines.insert(
                    r.value.at(k).bytes(), r.value.at(k + 1).bytes().toLongLong());
        });
}

} // namespace LockScope
