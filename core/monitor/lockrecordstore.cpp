#include "monitor/lockrecordstore.h"

namespace LockScope {

const LockRecord *LockRecordStore::find(const QByteArray &name) const
{
    const auto it = m_records.find(name);
    return it == m_records.cend() ? nullptr : &it->second;
}

LockRecord *LockRecordStore::find(const QByteArray &name)
{
    const auto it = m_records.find(name);
    return it == m_records.end() ? nullptr : &it->second;
}

LockRecord &LockRecordStore::obtain(const QByteArray &name)
{
    const auto [it, added] = m_records.try_emplace(name);
    if (added)
        it->second.info.name = name;
    return it->second;
}

QList<QByteArray> LockRecordStore::presentNames() const
{
    QList<QByteArray> names;
    names.reserve(m_presentCount);
    for (const auto &[name, record] : m_records)
        if (record.present)
            names << name;
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
        const auto it = m_records.find(name);
        if (it != m_records.cend() && !it->second.present && !keep.contains(name))
            m_records.erase(it);
    }
}

} // namespace LockScope
