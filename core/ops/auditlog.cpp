#include "ops/auditlog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QSysInfo>

namespace LockScope {

QString AuditLog::path()
{
    const QString fromEnv = qEnvironmentVariable("LOCKSCOPE_AUDIT_LOG");
    if (!fromEnv.isEmpty())
        return fromEnv;
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/lockscope/audit.log");
}

bool AuditLog::append(QJsonObject record, QString *error)
{
    record.insert(QStringLiteral("ts"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    record.insert(QStringLiteral("user"), qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME")));
    record.insert(QStringLiteral("host"), QSysInfo::machineHostName());
    record.insert(QStringLiteral("pid"), QCoreApplication::applicationPid());
    const QString file = path();
    QDir().mkpath(QFileInfo(file).absolutePath());
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text)) {
        if (error)
            *error = out.errorString();
        return false;
    }
    out.write(QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n');
    return true;
}

} // namespace LockScope
