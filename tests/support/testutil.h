#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QRandomGenerator>
#include <QString>

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

} // namespace LockScope::Test
