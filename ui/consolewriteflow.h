#pragma once

#include "consoleaudit.h"

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace LockScope {

class HolderWatch;
class LockClient;
class LockMonitor;

// What every guarded write of the console starts from (force release, release-client): the client that writes, the
// monitor it refreshes, the window its dialogs belong to, the connection its records name, the action whose name the
// audit log's refusal gives, and the verdicts and production flag its dialog shows. A flow runs asynchronously and
// reports through message().
class ConsoleWriteFlow : public QObject
{
    Q_OBJECT
public:
    ConsoleWriteFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
        const QAction *action, QObject *parent = nullptr);

    // Whether each holder is alive, shown in the dialog (nullptr: not judged).
    void setHolderWatch(HolderWatch *watch);
    void setProduction(bool production) { m_production = production; }
    void setNotifier(AuditNotifier *notifier) { m_audit.setNotifier(notifier); }

signals:
    void message(const QString &text, bool error);
    // The write ran to its end: holds of the console's own may have been among what it released.
    void finished();

protected:
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
