#include "monitor/lockrecordstore.h"

namespace LockScope {

size_t LockRecordStore::size() const
{
    size_t total = 0;
    for (const Map &shard : m_shards)
        total += shard.size();
    return total;
}

const LockRecord *LockRecordStore::find(const QByteArray &name) const
{
    const Map &shard = shardOf(name);
    const auto it = shard.find(name);
    return it == shard.cend() ? nullptr : &it->second;
}

LockRecord *LockRecordStore::find(const QByteArray &name)
{
    Map &shard = shardOf(name);
    const auto it = shard.find(name);
    return it == shard.end() ? nullptr : &it->second;
}

LockRecord &LockRecordStore::obtain(const QByteArray &name)
{
    const auto [it, added] = shardOf(name).try_emplace(name);
    if (added)
        it->second.info.name = name;
    return it->second;
}

QList<QByteArray> LockRecordStore::presentNames() const
{
    QList<QByteArray> names;
    names.reserve(m_presentCount);
    forEach([&names](const QByteArray &name, const LockRecord &record) {
        if (record.present)
            names << name;
    });
    return names;
}

void LockRecordStore::notePresence(const QByteArray &name, bool wasPresent, bool present)
{
    if (present == wasPresent)
        return;
    m_presentCount += present ? 1 : -1;
    if (!present)
        m_goneOrder.push_back(name);
}

bool LockRecordStore::appendToTimeline(const LockEvent &event)
{
    LockRecord *r = find(event.name);
    if (!r)
        return false;
    r->timeline.append(event);
    if (r->timeline.size() > m_timelineLength)
        r->timeline.removeFirst();
    return true;
}

void LockRecordStore::forgetGone(const QSet<QByteArray> &keep)
{
    while (int(m_goneOrder.size()) > m_goneRetention) {
        const QByteArray name = m_goneOrder.front();
        m_goneOrder.pop_front();
        Map &shard = shardOf(name);
        const auto it = shard.find(name);
        if (it != shard.cend() && !it->second.present && !keep.contains(name))
            shard.erase(it);
    }
}

} // namespace LockScope
