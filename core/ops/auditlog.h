#pragma once

#include <QJsonObject>
#include <QString>

namespace LockScope {

// Destructive actions (force release, release on behalf of another owner) leave one JSON line each in an
// append-only file, readable by its owner only: who, from where, against which server, what was there before, and what
// happened. $LOCKSCOPE_AUDIT_LOG overrides the default path under the user's data directory. Nothing is written unless
// its record can be: the front-ends ask writable() first.
class AuditLog
{
public:
    static QString path();
    // Whether a record can be appended now (its directory made, the file opened for appending); false with the reason.
    // Asked before every audited write: an action that could not be audited is not run at all.
    static bool writable(QString *error = nullptr);
    // The operating system's account the process runs as (its uid when it has no name): the record's "user".
    static QString userName();
    // Adds ts, user, host and pid; false (with the reason) when the file cannot be written.
    // written: the line as it went to the file, for the notifications (ops/auditnotifier.h).
    static bool append(QJsonObject record, QString *error = nullptr, QJsonObject *written = nullptr);
};

} // namespace LockScope
