#include "models/ownholds.h"

#include "kinds/locklayouts.h"
#include "models/locktexts.h"

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
    for (auto it = tokens.cbegin(); it != tokens.cend(); ++it)
        m_heldBefore.insert(it.key());
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
    // Several tokens may hold it (a shared Symfony lock): ours wherever it stands among them.
    return std::any_of(record.info.holders.cbegin(), record.info.holders.cend(),
        [&](const LockHolder &h) { return isOurs(record, h); });
}

bool OwnHolds::isOurs(const LockRecord &record, const LockHolder &holder) const
{
    if (LockLayouts::forRecord(record.info.kind).capabilities().tokenHolder) {
        const QByteArray token = m_tokens.value(record.info.name);
        return !token.isEmpty() && holder.owner == token;
    }
    return !m_clientId.isEmpty() && holder.client == m_clientId;
}

QStringList OwnHolds::warnings(const LockRecord &record, qint64 nowMs) const
{
    // A lock that is gone warns of nothing: "it never expires" stayed red over a lock already deleted (issue 47).
    if (!record.present)
        return {};
    QStringList all = record.warnings();
    const std::optional<bool> own = watchdog(record.info.name);
    if (!own || *own || !record.present || !isOurs(record))
        return all;
    all.removeAll(record.renewalWarning);
    const qint64 left = record.remainingMs(nowMs);
    all << (left < 0 ? tr("this console switched its watchdog off for this hold (Ctrl+W): nothing renews the lease")
                     : tr("this console switched its watchdog off for this hold (Ctrl+W): the lease runs out in %1 "
                          "unless it is switched on again")
                           .arg(LockTexts::durationText(left)));
    return all;
}

std::optional<bool> OwnHolds::watchdog(const QByteArray &name) const
{
    const auto own = m_watchdogs.constFind(name);
    if (own == m_watchdogs.cend())
        return std::nullopt;
    return own.value();
}

} // namespace LockScope
