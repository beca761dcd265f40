#include "consoleaudit.h"

#include "counteractions.h"

#include <QAction>

namespace LockScope {

ConsoleAudit::ConsoleAudit(QWidget *window, std::function<void(const QString &)> report)
    : m_window(window)
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

} // namespace LockScope
