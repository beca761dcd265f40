#include "models/lockfilter.h"

#include "kinds/keyglob.h"
#include "monitor/lockrecord.h"

#include <algorithm>

namespace LockScope {

void LockFilterMatch::set(const LockFilter &filter)
{
    m_filter = filter;
    const QString &glob = filter.nameGlob;
    const bool simple = !glob.contains(QLatin1Char('[')) && !glob.contains(QLatin1Char('\\'));
    m_glob = simple ? glob.toUtf8() : QByteArray();
    m_regex = glob.isEmpty() || simple ? QRegularExpression()
                                       : QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob));
}

bool LockFilterMatch::accepts(const LockRecord &r) const
{
    return (!m_pinned.isEmpty() && r.info.name == m_pinned) || matches(r);
}

bool LockFilterMatch::matches(const LockRecord &r) const
{
    // Straight from the record: matching a million rows asks this a million times.
    if (!m_filter.kind.isEmpty() && QLatin1String(LockInfo::kindName(r.info.kind)) != m_filter.kind)
        return false;
    if (!m_filter.clientId.isEmpty()
        && std::none_of(r.info.holders.cbegin(), r.info.holders.cend(),
            [this](const LockHolder &h) { return QLatin1String(h.client) == m_filter.clientId; }))
        return false;
    if (!m_glob.isEmpty())
        return globMatch(m_glob, r.info.name);
    return m_regex.pattern().isEmpty() || m_regex.match(QString::fromUtf8(r.info.name)).hasMatch();
}

} // namespace LockScope
