#include "consoleaudit.h"

#include "ops/auditlog.h"
#include "ops/auditnotifier.h"

#include <QAction>
#include <QMessageBox>

namespace LockScope {

bool auditLogTakes(const QString &what, QWidget *window, const std::function<void(const QString &)> &message)
{
    QString error;
    if (AuditLog::writable(&error))
        return true;
    const QString action = QString(what).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    const QString text = QCoreApplication::translate("LockScope::CounterActions",
        "%1 refused: the audit log %2 cannot be written (%3). Nothing was changed: every write of the console is "
        "audited. Make the file writable, or start LockScope with $LOCKSCOPE_AUDIT_LOG pointing at one that is.")
                             .arg(action, AuditLog::path(), error);
    message(text);
    auto *box = new QMessageBox(QMessageBox::Warning,
        QCoreApplication::translate("LockScope::CounterActions", "Audit log not writable"), text, QMessageBox::Ok,
        window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
}

ConsoleAudit::ConsoleAudit(QWidget *window, std::function<void(const QString &)> report)
    : m_window(window)
    , m_report(std::move(report))
{ }

bool ConsoleAudit::takes(const QAction *action) const
{
    return auditLogTakes(action->text(), m_window, m_report);
}

void ConsoleAudit::setNotifier(AuditNotifier *notifier)
{
    m_notifier = notifier;
}

void ConsoleAudit::append(const AuditRecord &record) const
{
    QString failure;
    QJsonObject line;
    if (!record.append(AuditRecord::Writer::Console, &failure, &line)) {
        m_report(tr("Could not write the audit log: %1").arg(failure));
        line = record.toJson(AuditRecord::Writer::Console); // told all the same, without the log's stamp
    }
    if (m_notifier)
        m_notifier->notify(line);
}

} // namespace LockScope
