#include "ops/auditlog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

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
// Every lock name, server and owner acted on is in the log: it is its owner's alone, like a shell history, also on a
// shared bastion. A file made before (world-readable, as older versions made it) is narrowed when it is ours.
constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

bool openForAppend(QFile &out, QString *error)
{
    const QString dir = QFileInfo(out.fileName()).absolutePath();
    if (!QFileInfo::exists(dir))
        QDir().mkpath(dir);
    if (out.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text, kOwnerOnly)) {
        if ((out.permissions() & ~(kOwnerOnly | QFileDevice::ReadUser | QFileDevice::WriteUser)) != 0)
            out.setPermissions(kOwnerOnly);
        return true;
    }
    if (error)
        *error = out.errorString();
    return false;
}
} // namespace

QString AuditLog::userName()
{
    // The account the process runs as, not $USER: cron and systemd units leave it unset, and anyone can set it.
    if (const passwd *account = getpwuid(geteuid()); account && account->pw_name)
        return QString::fromLocal8Bit(account->pw_name);
    return QString::number(geteuid());
}

bool AuditLog::writable(QString *error)
{
    QFile out(path());
    return openForAppend(out, error);
}

bool AuditLog::append(QJsonObject record, QString *error, QJsonObject *written)
{
    record.insert(QStringLiteral("ts"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    record.insert(QStringLiteral("user"), userName());
    record.insert(QStringLiteral("host"), QSysInfo::machineHostName());
    record.insert(QStringLiteral("pid"), QCoreApplication::applicationPid());
    if (written)
        *written = record;
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
