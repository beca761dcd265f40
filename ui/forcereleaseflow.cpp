#include "forcereleaseflow.h"

#include "forcereleasedialog.h"
#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "ops/forcerelease.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"

#include <QAction>
#include <QCoreApplication>
#include <QMessageBox>
#include <QPointer>

// The texts keep the context they were translated under when ConsoleActions ran the force release itself.

namespace LockScope {

ForceReleaseFlow::ForceReleaseFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
    const QAction *action, QObject *parent)
    : ConsoleWriteFlow(client, monitor, window, std::move(connection), action, parent)
{ }

void ForceReleaseFlow::start(const QByteArray &name)
{
    QPointer<ForceReleaseFlow> self(this);
    Ops::inspect(m_client, name, [self](const LockNow &now) {
        if (self)
            self->confirm(now);
    });
}

void ForceReleaseFlow::confirm(const LockNow &now)
{
    const QString shownName = escapeBytes(now.name, 200);
    if (now.error.isError()) {
        emit message(QCoreApplication::translate("LockScope::ConsoleActions", "Force release of %1 refused: %2")
                         .arg(shownName, now.error.message()),
            true);
        return;
    }
    if (now.holders.isEmpty()) {
        emit message(QCoreApplication::translate(
                         "LockScope::ConsoleActions", "%1 is not locked any more: nothing was force-released")
                         .arg(shownName),
            true);
        return;
    }
    if (!m_watch) {
        showDialog(now);
        return;
    }
    QPointer<ForceReleaseFlow> self(this);
    m_watch->readClients([self, now] {
        if (self)
            self->showDialog(now);
    });
}

void ForceReleaseFlow::showDialog(const LockNow &now)
{
    const LockRecord *seen = m_monitor->record(now.name);
    auto *dialog = new ForceReleaseDialog(now, seen && seen->present ? &seen->info : nullptr, m_watch, m_window);
    dialog->setProduction(m_production);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QByteArray name = now.name;
    const LockMode kind = now.actionMode();
    connect(dialog, &QDialog::accepted, this, [this, dialog, name, kind] {
        if (!dialog->confirmed())
            return; // a production lock whose name was not typed: nothing is done
        if (!m_audit.takes(m_action))
            return;
        // What the person confirmed is the guard, not whatever the monitor has read since; the script, and so whom
        // it wakes, is the layout of the reading the dialog shows.
        ForceReleasePlan plan { name, dialog->shownHolders(), {}, kind, {} };
        plan.reason = dialog->reason();
        const ForceReleaseShown shown { dialog->shownHolderCounts(), dialog->shownWaiters() };
        // Events and the timeline say who deleted it: from outside, a delete that publishes looks like a release.
        m_monitor->attributeNextEnd(
            name, QCoreApplication::translate("LockScope::ConsoleActions", "force-released by this console"));
        QPointer<ForceReleaseFlow> self(this);
        Ops::forceRelease(m_client, m_connection, plan, shown, [self, plan](const ForceReleaseDone &res) {
            if (!self)
                return;
            if (res.outcome != AuditRecord::Outcome::Deleted)
                self->m_monitor->attributeNextEnd(plan.name, {});
            const bool failed = res.outcome != AuditRecord::Outcome::Deleted;
            emit self->message(res.error.isError()
                    ? QCoreApplication::translate("LockScope::ConsoleActions", "Force release of %1 failed: %2")
                          .arg(escapeBytes(plan.name, 200), res.summary)
                    : res.summary,
                failed);
            if (res.outcome == AuditRecord::Outcome::GuardFailed) {
                auto *box = new QMessageBox(QMessageBox::Warning,
                    QCoreApplication::translate("LockScope::ConsoleActions", "Force release refused"), res.summary,
                    QMessageBox::Ok, self->m_window);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            }
            // The same record as lockscope-cli's for the same action, built by the operation.
            self->m_audit.append(res.record);
            self->m_monitor->refresh({ plan.name });
            // A hold of ours it deleted is over.
            emit self->finished();
        });
    });
    dialog->open();
}

} // namespace LockScope
