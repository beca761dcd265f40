#include "monitor/passtally.h"

#include "monitor/lockrecordstore.h"

namespace LockScope {

void PassTally::begin(quint64 topologyEpoch)
{
    ++m_number;
    m_seenPresent = 0;
    m_epoch = topologyEpoch;
}

void PassTally::met(LockRecord &record)
{
    if (record.seenInPass == m_number)
        return;
    record.seenInPass = m_number;
    if (record.present)
        ++m_seenPresent;
}

void PassTally::presenceChanged(const LockRecord &record, bool present)
{
    if (record.seenInPass == m_number)
        m_seenPresent += present ? 1 : -1;
}

QList<QByteArray> PassTally::unmet(const LockRecordStore &store) const
{
    QList<QByteArray> unmet;
    if (m_seenPresent == store.presentCount())
        return unmet;
    store.forEach([&](const QByteArray &name, const LockRecord &record) {
        if (record.present && record.seenInPass != m_number)
            unmet << name;
    });
    return unmet;
}

} // namespace LockScope
