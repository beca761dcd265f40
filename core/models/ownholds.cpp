#include "models/ownholds.h"

#include "kinds/locklayouts.h"

#include <algorithm>

namespace LockScope {

QSet<QByteArray> OwnHolds::setTokens(const QHash<QByteArray, QByteArray> &tokens)
{
    QSet<QByteArray> changed;
    for (auto it = tokens.cbegin(); it != tokens.cend(); ++it)
        if (m_tokens.value(it.key()) != it.value())
            changed.insert(it.key());
    for (auto it = m_tokens.cbegin(); it != m_tokens.cend(); ++it)
        if (!tokens.contains(it.key()))
            changed.insert(it.key());
    m_tokens = tokens;
    return changed;
}

QSet<QByteArray> OwnHolds::setWatchdogs(const QHash<QByteArray, bool> &watchdogs)
{
    QSet<QByteArray> changed;
    for (auto it = watchdogs.cbegin(); it != watchdogs.cend(); ++it)
        if (!m_watchdogs.contains(it.key()) || m_watchdogs.value(it.key()) != it.value())
            changed.insert(it.key());
    for (auto it = m_watchdogs.cbegin(); it != m_watchdogs.cend(); ++it)
        if (!watchdogs.contains(it.key()))
            changed.insert(it.key());
    m_watchdogs = watchdogs;
    return changed;
}

bool OwnHolds::isOurs(const LockRecord &record) const
{
    if (LockLayouts::forRecord(record.info.kind).capabilities().tokenHolder) {
        const QByteArray token = m_tokens.value(record.info.name);
        // Several tokens may hold it (a shared Symfony lock): ours wherever it stands among them.
        return !token.isEmpty()
            && std::any_of(record.info.holders.cbegin(), record.info.holders.cend(),
                [&token](const LockHolder &h) { return h.owner == token; });
    }
    if (m_clientId.isEmpty())
        return false;
    for (const LockHolder &h : record.info.holders)
        if (h.client == m_clientId)
            return true;
    return false;
}

std::optional<bool> OwnHolds::watchdog(const QByteArray &name) const
{
    const auto own = m_watchdogs.constFind(name);
    if (own == m_watchdogs.cend())
        return std::nullopt;
    return own.value();
}

} // namespace LockScope
