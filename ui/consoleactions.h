#pragma once

#include "consoleaudit.h"

#include "kinds/locktypes.h"
#include "monitor/lockrecord.h"

#include <QHash>
#include <QObject>

class QAction;
class QWidget;

class QProgressDialog;

namespace LockScope {

class AuditNotifier;
class CounterActions;
class ForceReleaseFlow;
class HolderWatch;
class LockClient;
class LockLayout;
class LockMonitor;
class ReclaimFlow;
class ReleaseClientFlow;

// The console's write actions on the selected lock, whatever its layout: acquire as the console's own client id,
// release one or all levels of our own holds, switch our watchdog off and on, and the guarded force release; and on
// the client chosen in the Clients view, the guarded release of everything it holds; and Tools › Reclaim by policy, the
// guarded reaper (reclaimflow.h). Each opens its dialog without blocking, runs asynchronously through the core's
// operations (ops/), reports what happened through message(), refreshes the lock in the monitor, and is audited.
// Read-only mode disables them here (the reaper's report stays: it only reads) and refuses them in the core.
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
    // "Release everything this client holds…", on the client chosen in the Clients view (setCurrentClient): not a lock
    // action, so not in actions().
    QAction *releaseClientAction() const { return m_releaseClient; }
    // Tools › "Reclaim by policy…": the guarded reaper's report and approval (reclaimflow.h).
    QAction *reclaimAction() const;
    ReclaimFlow *reclaimFlow() const { return m_reclaimFlow; }
    QList<QAction *> actions() const;
    // The actions on Redisson's semaphores and latches (counteractions.h), for the lock menu and the table's menu.
    QList<QAction *> counterActions() const;

    void setCurrentLock(const QByteArray &name);
    // The client id chosen in the Clients view (empty: none), what releaseClientAction() acts on.
    void setCurrentClient(const QByteArray &clientId);
    // Whether each holder is alive, in the force release dialog.
    void setHolderWatch(HolderWatch *watch);
    // A production server: the force release dialog needs the lock's name typed before it confirms.
    void setProduction(bool production);
    // The profile's notify list: every write of the console is also posted there (webhooks; "syslog" for the local
    // syslog), as lockscope-cli --notify and --syslog post theirs.
    void setNotify(const QStringList &targets);
    // Our own hold on the current lock (its owner field; a string lock's token), or empty.
    QByteArray ourHold() const;
    // Our own hold on name as this console's client keeps it (renewed or not), or empty.
    QByteArray ownHold(const QByteArray &name) const;
    // What the acquire dialog asks for once accepted.
    void acquire(const AcquireRequest &request);
    // This console's own holds (name -> owner), as its client keeps them.
    // The holds the client has now (not as last announced): quitting asks about a hold whose acquire has answered
    // even before the console has drawn it.
    QHash<QByteArray, QByteArray> ownHolds() const;
    // Releases every hold of this console, each level of each (audited as any release is); done(failed) runs once all
    // answered, with how many could not be released.
    void releaseOwnHolds(std::function<void(int failed)> done);

signals:
    void message(const QString &text, bool error);
    // Our holds, name -> owner (a string lock's token), whenever they change: only we can tell our tokens from
    // anyone else's.
    void ownHoldsChanged(const QHash<QByteArray, QByteArray> &owners);
    // Whether this console's watchdog renews each of its holds (name -> on): it knows, where the monitor can only
    // guess from renewals, and says so at once after a switch.
    void ownWatchdogsChanged(const QHash<QByteArray, bool> &watchdogs);
    // This console acquired name: the table selects it.
    void acquired(const QByteArray &name);

private:
    void updateEnabled();
    void noteHoldsChanged();
    void noteWatchdogs();
    // After an acquire that did not get the lock: says who holds it, or that the name holds no lock.
    void explainBusy(const QByteArray &name);
    // The wait of an acquire that waits: elapsed time, the limit, and Cancel (which ends the wait, nothing taken).
    QProgressDialog *waitProgress(const AcquireRequest &request);
    // Releases name's hold by owner, levels times at most and until it is gone; done(ok) after the last answer.
    void releaseHold(const QByteArray &name, const QByteArray &owner, int levels, std::function<void(bool)> done);
    void openAcquireDialog();
    // The acquire once the name passed the check that it is a lock (or nothing yet).
    void release(bool all);
    void releaseLevels(const QByteArray &name, const QByteArray &owner, int levels); // levels < 0: until free
    void toggleWatchdog(bool on);
    void forceRelease();
    void releaseClient();

    LockClient *m_client;
    QHash<QByteArray, QByteArray> m_ownHolds; // as last announced by ownHoldsChanged()
    QHash<QByteArray, bool> m_ownWatchdogs; // as last announced by ownWatchdogsChanged()
    LockMonitor *m_monitor;
    QWidget *m_window;
    QString m_connection;
    bool m_readOnly;
    bool m_offline = false; // the connection dropped and is not back
    ConsoleAudit m_audit;
    AuditNotifier *m_notifier = nullptr;
    QByteArray m_current;
    QByteArray m_currentClient;
    QAction *m_acquire;
    QAction *m_release;
    QAction *m_releaseAll;
    QAction *m_watchdog;
    QAction *m_force;
    QAction *m_refresh;
    QAction *m_releaseClient;
    CounterActions *m_counters;
    ForceReleaseFlow *m_forceFlow;
    ReleaseClientFlow *m_clientFlow;
    ReclaimFlow *m_reclaimFlow;
};

} // namespace LockScope
