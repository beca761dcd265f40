#pragma once

#include "consoleaudit.h"

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace LockScope {
struct LockNow;

class HolderWatch;
class LockClient;
class LockMonitor;

// The console's force release once the person has asked for it: reads the lock as Redis holds it now (as
// lockscope-cli's prompt does), shows that in ForceReleaseDialog, and once confirmed deletes it, guarded by the holders
// shown and waking whom its layout wakes (Ops::forceRelease). Runs asynchronously and reports through message().
class ForceReleaseFlow : public QObject
{
    Q_OBJECT
public:
    // action: the console's Force release, whose name the audit log's refusal gives.
    ForceReleaseFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
        const QAction *action, QObject *parent = nullptr);

    // name: the lock chosen when the person asked, whatever is chosen by the time Redis answers.
    void start(const QByteArray &name);
    // Whether each holder is alive, shown in the dialog (nullptr: not shown). CLIENT LIST is read again before the
    // dialog opens: whether a holder's connection is still there is what the person confirms on.
    void setHolderWatch(HolderWatch *watch);
    void setProduction(bool production) { m_production = production; }

signals:
    void message(const QString &text, bool error);
    // A force release ran to its end: a hold of the console's own that it deleted is over.
    void finished();

private:
    // What Ops::inspect read: refused, or the dialog once the holders' connections are read.
    void confirm(const LockNow &now);
    // The dialog for what Ops::inspect read, and the force release it confirms.
    void showDialog(const LockNow &now);

    LockClient *m_client;
    LockMonitor *m_monitor;
    QWidget *m_window;
    QString m_connection;
    const QAction *m_action;
    ConsoleAudit m_audit;
    QPointer<HolderWatch> m_watch;
    bool m_production = false;
};

} // namespace LockScope
