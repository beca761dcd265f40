#include "releaseclientflow.h"

#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "ops/releaseclient.h"
#include "reclaim/clientverdicts.h"
#include "redis/bytesformat.h"
#include "releaseclientdialog.h"

#include <QAction>
#include <QPointer>

namespace LockScope {

ReleaseClientFlow::ReleaseClientFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
    const QAction *action, QObject *parent)
    : ConsoleWriteFlow(client, monitor, window, std::move(connection), action, parent)
{ }

void ReleaseClientFlow::start(const QByteArray &clientId)
{
    // The locks the console watches, as lockscope-cli's --pattern gives them: what the person can see is what is
    // offered.
    QPointer<ReleaseClientFlow> self(this);
    Ops::findClientHolds(m_client, clientId, m_monitor->options().pattern, [self](const ClientPlan &plan) {
        if (self)
            self->judge(plan);
    });
}

void ReleaseClientFlow::judge(ClientPlan plan)
{
    if (plan.error.isError()) {
        emit message(
            tr("Release of everything %1 holds refused: %2").arg(escapeBytes(plan.client, 200), plan.error.message()),
            true);
        return;
    }
    if (!m_watch || plan.items.isEmpty()) {
        showDialog(plan);
        return;
    }
    // CLIENT LIST read again before the dialog opens: whether a holder's connection is still there is what the person
    // confirms on, as lockscope-cli's prompt reads it.
    QPointer<ReleaseClientFlow> self(this);
    m_watch->readClients([self, plan]() mutable {
        if (!self || !self->m_watch)
            return;
        judgeClientItems(&plan, *self->m_watch);
        self->showDialog(plan);
    });
}

void ReleaseClientFlow::showDialog(const ClientPlan &plan)
{
    auto *dialog = new ReleaseClientDialog(plan, m_window);
    dialog->setProduction(m_production);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!dialog->confirmed())
            return; // an id not typed on production, a live holder not insisted on: nothing is done
        if (!m_audit.takes(m_action))
            return;
        // The plan shown is the guard: what the client took after the pass is not in it, and stays.
        run(dialog->plan());
    });
    dialog->open();
}

void ReleaseClientFlow::run(const ClientPlan &plan)
{
    QPointer<ReleaseClientFlow> self(this);
    Ops::releaseClient(m_client, m_connection, plan, [self](const ClientDone &d) {
        if (!self)
            return;
        // A refusal in read-only mode attempted nothing, as lockscope-cli leaves it out of the log; any other outcome
        // is the same record as lockscope-cli's for the same action, built by the operation.
        if (!d.error.isError() || d.error.kind() != RedisError::Kind::ReadOnly)
            self->m_audit.append(d.record);
        bool failed = d.error.isError();
        for (const ClientItem &item : d.plan.items)
            failed = failed || item.error.isError();
        emit self->message(d.error.isError() ? tr("Release of everything %1 holds refused: %2")
                                                   .arg(escapeBytes(d.plan.client, 200), d.error.message())
                                             : d.summary,
            failed);
        QList<QByteArray> names;
        for (const ClientItem &item : d.plan.items)
            if (!names.contains(item.name()))
                names << item.name();
        if (!names.isEmpty())
            self->m_monitor->refresh(names);
        emit self->finished();
    });
}

} // namespace LockScope
