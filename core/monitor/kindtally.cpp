#include "monitor/kindtally.h"

#include "monitor/lockrecord.h"

namespace LockScope {

KindTally::Share KindTally::shareOf(const LockRecord &record)
{
    Share share;
    if (!record.present)
        return share;
    const LockInfo &info = record.info;
    share.present = true;
    share.kind = info.kind;
    share.library = info.library;
    share.held = !info.holders.isEmpty();
    share.waiters = qMax<qint64>(qMax(info.waiters, 0), info.queue.size());
    return share;
}

void KindTally::move(const Share &before, const Share &after)
{
    // Most reads change nothing the tally counts (a re-scan meets the same locks again): no map is touched then.
    if (before == after)
        return;
    add(before, -1);
    add(after, 1);
}

void KindTally::add(const Share &share, int sign)
{
    if (!share.present)
        return;
    const Key key { share.kind, share.library };
    auto it = m_entries.find(key);
    if (it == m_entries.end())
        it = m_entries.emplace(key, Count {}).first;
    Count &count = it->second;
    count.locks += sign;
    count.held += share.held ? sign : 0;
    count.waiters += sign * share.waiters;
    // An entry goes with its last lock, as a walk of the records would not list it.
    if (count.locks == 0)
        m_entries.erase(it);
}

} // namespace LockScope
