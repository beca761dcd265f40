#include "consoleaudit.h"

#include "counteractions.h"
#include "lock/lockclient.h"

#include <QAction>

namespace LockScope {

ConsoleAudit::ConsoleAudit(
    LockClient *client, QString connection, QWidget *window, std::function<void(const QString &)> report)
    : m_client(client)
    , m_connection(std::move(connection))
    , m_window(window)
    , m_report(std::move(report))
{ }

bool ConsoleAudit::takes(const QAction *action) const
{
    return auditLogTakes(action->text(), m_window, m_report);
}

void ConsoleAudit::append(const AuditRecord &record) const
{
    QString failure;
    if (!record.append(AuditRecord::Writer::Console, &failure))
        m_report(tr("Could not write the audit log: %1").arg(failure));
}

void ConsoleAudit::write(const QString &action, const QByteArray &name, const QList<QByteArray> &holdersBefore,
    AuditRecord::Outcome outcome, const RedisError &error, const LockLayout &layout) const
{
    AuditRecord record(action, m_connection, name, m_client->clientId());
    record.setHoldersBefore(holdersBefore);
    if (error.isError())
        record.setError(error);
    else
        record.setOutcome(outcome);
    record.setLayout(layout);
    append(record);
}

} // namespace LockScope
