#pragma once

#include "consoleaudit.h"
#include "reclaim/reapreport.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QWidget;

namespace LockScope {

class AuditNotifier;
class HolderWatch;
class LockClient;
class LockMonitor;
class ReapWatch;
class ReclaimDialog;

// Tools › Reclaim by policy, as lockscope-cli reap runs it (cli/reapcommand.cpp) but with a person reading the report
// in ReclaimDialog instead of on a terminal: the policy loaded, a ReapWatch on the console's own monitor and holder
// watch reports, and once the person confirms, the watch judges once more (the re-check) and Ops::reap releases what
// was shown and is still as it was, with the console's client. Each lock's record goes to the audit log as the
// console's, with the reason typed. Nothing waits: every step answers later, and says what happened through
// message().
class ReclaimFlow : public QObject
{
    Q_OBJECT
public:
    ReclaimFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly,
        QObject *parent = nullptr);
    ~ReclaimFlow() override;

    // "Reclaim by policy…", for the Tools menu: opens the dialog (the same one again once opened).
    QAction *action() const { return m_action; }
    // The judge of every holder: the console's one, set once the monitor has one (nullptr: none yet).
    void setHolderWatch(HolderWatch *watch);
    void setProduction(bool production);
    void setNotifier(AuditNotifier *notifier) { m_audit.setNotifier(notifier); }
    // Shows the dialog, not modal: the console stays in use while a watch runs.
    void open();
    ReclaimDialog *dialog() const;

signals:
    void message(const QString &text, bool error);
    // A run ended: holds of the console's own may have been among what it released.
    void finished();

private:
    void watch(const QString &path);
    // The current watch is dropped: its report, if one is still to come, is not shown.
    void abandon();
    void reported(const ReapReport &report);
    void release();
    void run(const ReapReport &approved, const ReapReport &now, const QString &reason);

    LockClient *m_client;
    LockMonitor *m_monitor;
    QWidget *m_window;
    QString m_connection;
    bool m_readOnly;
    bool m_production = false;
    QAction *m_action;
    ConsoleAudit m_audit;
    QPointer<HolderWatch> m_holders;
    QPointer<ReclaimDialog> m_dialog;
    // A child of the holder watch, whose callbacks point at it: it goes with the connection, or once idle.
    QPointer<ReapWatch> m_watch;
    bool m_reporting = false; // m_watch's report is still to come
    bool m_running = false; // a re-check or a run is under way
    std::optional<ReapReport> m_shown; // the report the dialog shows: what a confirmation approves
};

} // namespace LockScope
