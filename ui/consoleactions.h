#pragma once

#include "ops/auditrecord.h"

#include "kinds/locktypes.h"
#include "monitor/lockrecord.h"

#include <QHash>
#include <QObject>

class QAction;
class QWidget;

namespace LockScope {

class LockClient;
class LockMonitor;
class StringLockActions;

// The console's write actions on the selected lock: acquire as the console's own client id, release one or all
// levels of our own holds, switch our watchdog off and on, and the guarded force release; string locks' go to
// StringLockActions, by the lock's kind or the kind chosen to acquire. Each opens its dialog
// without blocking, runs asynchronously, reports what happened through message(), refreshes the lock in the
// monitor, and is audited. Read-only mode disables them here and refuses them in the core.
class ConsoleActions : public QObject
{
    Q_OBJECT
public:
    ConsoleActions(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly);

    QAction *acquireAction() const { return m_acquire; }
    QAction *releaseAction() const { return m_release; }
    QAction *releaseAllAction() const { return m_releaseAll; }
    QAction *watchdogAction() const { return m_watchdog; }
    QAction *forceReleaseAction() const { return m_force; }
    QAction *refreshAction() const { return m_refresh; }
    QList<QAction *> actions() const;

    void setCurrentLock(const QByteArray &name);
    // Our own hold on the current lock (its owner field; a string lock's token), or empty.
    QByteArray ourHold() const;
    StringLockActions *stringLocks() const { return m_strings; }

signals:
    void message(const QString &text, bool error);
    // Our string locks, name -> token, whenever they change: only we can tell our tokens from anyone else's.
    void ownStringHoldsChanged(const QHash<QByteArray, QByteArray> &tokens);

private:
    void updateEnabled();
    void acquire();
    void release(bool all);
    void releaseLevels(const QByteArray &name, const QByteArray &owner, int levels, int released);
    void toggleWatchdog(bool on);
    void forceRelease();
    // kind: only for string locks ("string"), as lockscope-cli writes it; Redisson's records have none.
    void audit(const QString &action, const QByteArray &name, const QList<QByteArray> &holdersBefore,
        AuditRecord::Outcome outcome, const RedisError &error = {}, const QString &kind = {}) const;

    LockClient *m_client;
    StringLockActions *m_strings;
    LockMonitor *m_monitor;
    QWidget *m_window;
    QString m_connection;
    bool m_readOnly;
    QByteArray m_current;
    QAction *m_acquire;
    QAction *m_release;
    QAction *m_releaseAll;
    QAction *m_watchdog;
    QAction *m_force;
    QAction *m_refresh;
};

} // namespace LockScope
