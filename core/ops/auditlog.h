#pragma once

#include <QJsonObject>
#include <QString>

namespace LockScope {

// Destructive actions (force release, release on behalf of another owner) leave one JSON line each in an
// append-only file: who, from where, against which server, what was there before, and what happened.
// $LOCKSCOPE_AUDIT_LOG overrides the default path under the user's data directory.
class AuditLog
{
public:
    static QString path();
    // Adds ts, user, host and pid; false (with the reason) when the file cannot be written.
    static bool append(QJsonObject record, QString *error = nullptr);
};

} // namespace LockScope
