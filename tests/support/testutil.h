#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QString>
#include <QTemporaryDir>

#include <atomic>

namespace LockScope::Test {

// Names that cannot collide between test functions, repeated runs against a reused server, or test
// processes running in parallel: prefix, process id, a per-process counter and a random tail.
inline QString uniqueName(const char *prefix)
{
    static std::atomic<quint64> counter { 0 };
    return QStringLiteral("%1:%2:%3:%4")
        .arg(QString::fromUtf8(prefix))
        .arg(QCoreApplication::applicationPid())
        .arg(++counter)
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

inline QByteArray uniqueKey(const char *prefix)
{
    return uniqueName(prefix).toUtf8();
}

// The environment a test runs the CLI in: the audit log goes to the test's own directory, and LOCKSCOPE_URL from the
// developer's shell never points a test at a real server.
inline QProcessEnvironment cliEnvironment(const QTemporaryDir &dir)
{
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("LOCKSCOPE_AUDIT_LOG"), dir.filePath(QStringLiteral("audit.log")));
    // What one run leaves for the next (a trace's findings) stays with the test, never in the user's cache.
    e.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
    // And what it keeps (serve-metrics' recording, by default) in the test's directory too.
    e.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    e.remove(QStringLiteral("LOCKSCOPE_URL"));
    return e;
}

// The audit log's records, one object a line, in the order written (none when there is no log yet).
inline QList<QJsonObject> auditLines(const QString &path)
{
    QFile f(path);
    QList<QJsonObject> lines;
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.isEmpty())
                lines << QJsonDocument::fromJson(line).object();
    return lines;
}

} // namespace LockScope::Test
