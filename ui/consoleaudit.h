#pragma once

#include "ops/auditrecord.h"

#include <QCoreApplication>

#include <functional>

class QAction;
class QWidget;

namespace LockScope {

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
    // Appends an operation's record as the console's; says so when the log cannot take it.
    void append(const AuditRecord &record) const;

private:
    QWidget *m_window;
    std::function<void(const QString &)> m_report;
};

} // namespace LockScope
