#pragma once

#include "ops/auditrecord.h"

#include <QCoreApplication>

#include <functional>

class QAction;
class QWidget;

namespace LockScope {

class LockClient;
class LockLayout;

// How the console's writes are audited, as lockscope-cli's are: an action whose record the log cannot take is refused
// before it runs, and each record is appended as the console's. Whatever goes wrong is said through report. Its texts
// keep the translation context of ConsoleActions, which audited its writes itself before.
class ConsoleAudit
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::ConsoleActions)
public:
    ConsoleAudit(LockClient *client, QString connection, QWidget *window, std::function<void(const QString &)> report);

    // auditLogTakes() for one of the console's actions: false, said and shown, when its record could not be written.
    bool takes(const QAction *action) const;
    // Appends an operation's record as the console's; says so when the log cannot take it.
    void append(const AuditRecord &record) const;
    // layout: names the kind where the holders do not (AuditRecord::setLayout), as lockscope-cli writes it.
    void write(const QString &action, const QByteArray &name, const QList<QByteArray> &holdersBefore,
        AuditRecord::Outcome outcome, const RedisError &error, const LockLayout &layout) const;

private:
    LockClient *m_client;
    QString m_connection;
    QWidget *m_window;
    std::function<void(const QString &)> m_report;
};

} // namespace LockScope
