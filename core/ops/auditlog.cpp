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

namespace {
bool openForAppend(QFile &out, QString *error)
{
    QDir().mkpath(QFileInfo(out.fileName()).absolutePath());
    if (out.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return true;
    if (error)
        *error = out.errorString();
    return false;
}
} // namespace

bool AuditLog::writable(QString *error)
{
    QFile out(path());
    return openForAppend(out, error);
}

bool AuditLog::append(QJsonObject record, QString *error)
{
    record.insert(QStringLiteral("ts"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    record.insert(QStringLiteral("user"), qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME")));
    record.insert(QStringLiteral("host"), QSysInfo::machineHostName());
    record.insert(QStringLiteral("pid"), QCoreApplication::applicationPid());
    QFile out(path());
    if (!openForAppend(out, error))
        return false;
    const QByteArray line = QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    if (out.write(line) != line.size() || !out.flush()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

} // namespace LockScope
