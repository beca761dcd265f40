#pragma once

#include "ops/auditrecord.h"

#include <QCoreApplication>
#include <QPointer>

#include <functional>

class QAction;
class QWidget;

namespace LockScope {

class AuditNotifier;

// Whether the audit log can take the record of an action now. If not, says so where the person looks (a warning box
// on window, and message) and returns false. Asked right before each write of the console: an action that could not
// be audited is not run. what: the action as its menu names it.
bool auditLogTakes(const QString &what, QWidget *window, const std::function<void(const QString &)> &message);

// How the console's writes are audited, as lockscope-cli's are: an action whose record the log cannot take is refused
// before it runs, and each record is appended as the console's. Whatever goes wrong is said through report. Its texts
// keep the translation context of ConsoleActions, which audited its writes itself before.
class ConsoleAudit
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::ConsoleActions)
public:
    ConsoleAudit(QWidget *window, std::function<void(const QString &)> report);

    // auditLogTakes() for one of the console's actions: false, said and shown, when its record could not be written.
    bool takes(const QAction *action) const;
    // Appends an operation's record as the console's, and posts it where the profile's notify says (the line as the
    // log has it); says so when the log cannot take it.
    void append(const AuditRecord &record) const;
    // The profile's webhooks and syslog (nullptr: none).
    void setNotifier(AuditNotifier *notifier);

private:
    QWidget *m_window;
    std::function<void(const QString &)> m_report;
    QPointer<AuditNotifier> m_notifier;
};

} // namespace LockScope
