#pragma once

#include "monitor/lockrecord.h"

#include <QByteArray>
#include <QHash>
#include <QSet>

#include <optional>

namespace LockScope {

// What the console knows of its own holds and the monitor cannot: its client id, the owner of each of its holds (a
// string lock's holder is a bare token, with no client id to tell it by), and whether its watchdog renews each. The
// setters answer the names whose rows now read otherwise, so that only those repaint.
class OwnHolds
{
public:
    void setClientId(const QByteArray &clientId) { m_clientId = clientId; }
    const QByteArray &clientId() const { return m_clientId; }
    // name -> owner; answers the names that gained, lost or changed a hold.
    QSet<QByteArray> setTokens(const QHash<QByteArray, QByteArray> &tokens);
    // name -> on; answers the names whose switch came, went or changed.
    QSet<QByteArray> setWatchdogs(const QHash<QByteArray, bool> &watchdogs);
    bool isOurs(const LockRecord &record) const;
    // Whether the console's watchdog renews its hold on name; none when the console says nothing of name.
    std::optional<bool> watchdog(const QByteArray &name) const;

private:
    QByteArray m_clientId;
    QHash<QByteArray, QByteArray> m_tokens;
    QHash<QByteArray, bool> m_watchdogs;
};

} // namespace LockScope
