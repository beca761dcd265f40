#pragma once

#include "monitor/lockrecord.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <optional>

namespace LockScope {

// What the console knows of its own holds and the monitor cannot: its client id, the owner of each of its holds (a
// string lock's holder is a bare token, with no client id to tell it by), and whether its watchdog renews each. The
// setters answer the names whose rows now read otherwise, so that only those repaint.
class OwnHolds
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::OwnHolds)
public:
    void setClientId(const QByteArray &clientId) { m_clientId = clientId; }
    const QByteArray &clientId() const { return m_clientId; }
    // name -> owner; answers the names that gained, lost or changed a hold.
    QSet<QByteArray> setTokens(const QHash<QByteArray, QByteArray> &tokens);
    // name -> on; answers the names whose switch came, went or changed.
    QSet<QByteArray> setWatchdogs(const QHash<QByteArray, bool> &watchdogs);
    bool isOurs(const LockRecord &record) const;
    // Whether this holder of record is the console: its token (a bare-token layout), else its client id.
    bool isOurs(const LockRecord &record, const LockHolder &holder) const;
    // Whether the console's watchdog renews its hold on name; none when the console says nothing of name.
    std::optional<bool> watchdog(const QByteArray &name) const;
    // Whether the console held a lock of this name since it started (released or lost since, or held now).
    bool heldBefore(const QByteArray &name) const { return m_heldBefore.contains(name); }
    // The record's warnings as the console tells them: none once the lock is gone. On its own hold whose watchdog it
    // switched off, the monitor's "renewals failing … the holder's watchdog may have stopped" is the console's own
    // doing (issue 47): said as such, and when the lease runs out.
    QStringList warnings(const LockRecord &record, qint64 nowMs) const;

private:
    QByteArray m_clientId;
    QHash<QByteArray, QByteArray> m_tokens;
    QHash<QByteArray, bool> m_watchdogs;
    QSet<QByteArray> m_heldBefore;
};

} // namespace LockScope
