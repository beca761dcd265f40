#include "reclaimflow.h"

#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "reclaim/reappolicy.h"
#include "reclaim/reaprun.h"
#include "reclaim/reapwatch.h"
#include "reclaimdialog.h"

#include <QAction>
#include <QWidget>

namespace LockScope {

ReclaimFlow::ReclaimFlow(
    LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_monitor(monitor)
    , m_window(window)
    , m_connection(std::move(connection))
    , m_readOnly(readOnly)
    , m_action(new QAction(tr("&Reclaim by policy…"), this))
    , m_audit(window, [this](const QString &text) { emit message(text, true); })
{
    // Watching and reporting only read: the action stays on in read-only mode, where the dialog releases nothing.
    m_action->setToolTip(m_readOnly ? tr("Watch the locks a reap policy covers and see which holders its rules judge "
                                         "gone (read-only connection: nothing is released)")
                                    : tr("Watch the locks a reap policy covers, see which holders its rules judge "
                                         "gone, and release those you approve"));
    connect(m_action, &QAction::triggered, this, &ReclaimFlow::open);
}

ReclaimFlow::~ReclaimFlow()
{
    // The dialog points at this connection's report and flow: it goes with them.
    delete m_dialog.data();
    // An idle watch goes too; one whose report is still to come goes when it comes (or with the holder watch).
    if (m_watch && !m_reporting && !m_running)
        m_watch->deleteLater();
}

ReclaimDialog *ReclaimFlow::dialog() const
{
    return m_dialog;
}

void ReclaimFlow::setHolderWatch(HolderWatch *watch)
{
    m_holders = watch;
}

void ReclaimFlow::setProduction(bool production)
{
    m_production = production;
    if (m_dialog)
        m_dialog->setProduction(production);
}

void ReclaimFlow::open()
{
    if (!m_dialog) {
        m_dialog = new ReclaimDialog(m_window);
        m_dialog->setReadOnly(m_readOnly);
        m_dialog->setProduction(m_production);
        connect(m_dialog, &ReclaimDialog::watchRequested, this, &ReclaimFlow::watch);
        connect(m_dialog, &ReclaimDialog::releaseRequested, this, &ReclaimFlow::release);
    }
    // Closing only hides it: the report read stays, to be released after a second look.
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
}

void ReclaimFlow::abandon()
{
    ReapWatch *old = m_watch.data();
    m_watch = nullptr;
    m_shown.reset();
    // While its report is still to come the holder watch's callbacks point at it: it deletes itself once it comes.
    if (old && !m_reporting)
        old->deleteLater();
    m_reporting = false;
}

void ReclaimFlow::watch(const QString &path)
{
    if (m_running || !m_dialog)
        return;
    QString error;
    const std::optional<ReapPolicy> policy = ReapPolicy::load(path, &error);
    if (!policy) {
        m_dialog->showError(error);
        return;
    }
    if (!m_holders) {
        m_dialog->showError(tr("Not connected yet: there are no locks to watch."));
        return;
    }
    abandon();
    // On the console's own monitor and judge, as serve-metrics' reaper runs on its own: the watch reads what they
    // read, and a holder the detail pane calls likely dead is judged so here too.
    auto *watch = new ReapWatch(*policy, m_connection, m_monitor, m_holders, m_holders);
    m_watch = watch;
    m_reporting = true;
    const qint64 observeMs = policy->observeMs();
    QString text = tr("Watching the locks policy %1 covers (%2) for %n s, its longest verdict_for…", nullptr,
        int((observeMs + 999) / 1000))
                       .arg(policy->name, QString::fromUtf8(policy->scanPattern()));
    // The console's monitor sees only the names its profile watches: a lock beyond them is not in any report.
    if (m_monitor->options().pattern != "*")
        text += QLatin1Char(' ')
            + tr("Only the locks this console watches (%1) are seen.")
                  .arg(QString::fromUtf8(m_monitor->options().pattern));
    m_dialog->showWatching(text);
    QPointer<ReclaimFlow> self(this);
    watch->report(observeMs, [self, watch](const ReapReport &report) {
        if (!self || self->m_watch != watch) {
            watch->deleteLater(); // abandoned: another watch replaced it, or the console went
            return;
        }
        self->reported(report);
    });
}

void ReclaimFlow::reported(const ReapReport &report)
{
    m_reporting = false;
    m_shown = report;
    if (m_dialog)
        m_dialog->showReport(report);
}

void ReclaimFlow::release()
{
    // The button is off in each of these cases; a click that raced a change of state does nothing either.
    if (m_running || m_reporting || !m_shown || !m_watch || !m_dialog || !m_dialog->confirmed() || m_readOnly)
        return;
    if (!m_audit.takes(m_action))
        return;
    m_running = true;
    m_dialog->showRunning();
    const ReapReport approved = *m_shown;
    const QString reason = m_dialog->reason();
    // The re-check: judged again now, after however long the person took to read the report.
    QPointer<ReclaimFlow> self(this);
    m_watch->judgeNow([self, approved, reason](const ReapReport &now) {
        if (self)
            self->run(approved, now, reason);
    });
}

void ReclaimFlow::run(const ReapReport &approved, const ReapReport &now, const QString &reason)
{
    ReapRunPlan plan;
    plan.approved = approved; // the report shown, never the re-check's: what nobody read is not released
    plan.now = now;
    plan.reason = reason;
    QPointer<ReclaimFlow> self(this);
    Ops::reap(m_client, m_connection, plan, [self](const ReapRunDone &done) {
        if (!self)
            return;
        // One record per lock a release was sent for, as lockscope-cli reap writes them (a refusal sent nothing).
        for (const AuditRecord &record : done.records)
            self->m_audit.append(record);
        self->m_running = false;
        self->m_shown.reset(); // acted on: a second run needs a new report
        if (self->m_dialog)
            self->m_dialog->showResult(done);
        emit self->message(done.error.isError()
                ? tr("Reclaim by policy %1 refused: %2").arg(done.result.policy, done.error.message())
                : done.summary,
            !done.allDone());
        QList<QByteArray> names;
        for (const ReapItem &item : done.result.items)
            if (item.outcome && !names.contains(item.name))
                names << item.name;
        if (!names.isEmpty())
            self->m_monitor->refresh(names);
        emit self->finished();
    });
}

} // namespace LockScope
