#pragma once

#include "ops/auditrecord.h"

#include "monitor/lockrecord.h"

#include <QHash>
#include <QObject>

class QWidget;

namespace LockScope {

class LockMonitor;
class RedisRouter;
class StringLockClient;

// The console's actions on string locks (SET NX PX), which ConsoleActions hands over by the lock's kind: acquire
// with a fresh token, release and switch the watchdog of our own holds, and the force release guarded by the token
// a person saw. Kept apart from the Redisson actions because nothing is shared but the connection: no reentrancy,
// no wake-up channel, and the holder is a bare token rather than our client id.
class StringLockActions : public QObject
{
    Q_OBJECT
public:
    StringLockActions(RedisRouter *connection, int watchdogTimeoutMs, LockMonitor *monitor, QWidget *window,
        QObject *parent = nullptr);
    ~StringLockActions() override;

    // Our holds, name -> token.
    QHash<QByteArray, QByteArray> holds() const;
    QByteArray token(const QByteArray &name) const { return m_holds.value(name).token; }
    bool isWatchdogEnabled(const QByteArray &name) const { return m_holds.value(name).watchdog; }

    // leaseMs <= 0: the watchdog's lease, renewed every third of it. waitMs > 0: tried again every 100 ms until
    // then, since nothing announces a string lock's release.
    void acquire(const QByteArray &name, qint64 leaseMs, qint64 waitMs);
    void release(const QByteArray &name);
    bool setWatchdogEnabled(const QByteArray &name, bool on);
    // Our hold under token is over (released, or deleted by a force release): stop renewing and showing it.
    void forget(const QByteArray &name, const QByteArray &token);

signals:
    void message(const QString &text, bool error);
    void holdsChanged();
    // Each write, for the audit log (ConsoleActions writes it, with kind "string").
    void audited(const QString &action, const QByteArray &name, const QList<QByteArray> &holdersBefore,
        LockScope::AuditRecord::Outcome outcome, const LockScope::RedisError &error);

private:
    struct Hold
    {
        QByteArray token;
        bool watchdog = false;
    };
    void tryAcquire(const QByteArray &name, qint64 leaseMs, qint64 deadlineMs, const QList<QByteArray> &before);
    QList<QByteArray> holdersOf(const QByteArray &name) const;

    StringLockClient *m_client;
    LockMonitor *m_monitor;
    QWidget *m_window;
    QHash<QByteArray, Hold> m_holds;
};

} // namespace LockScope
