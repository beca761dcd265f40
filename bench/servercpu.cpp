#include "servercpu.h"

#include <QDir>
#include <QFile>

#include <cctype>

#include <sys/resource.h>
#include <unistd.h>

namespace LockScope::Bench {

namespace {

QByteArray readProc(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Fields after the command name, which may itself hold spaces and parentheses: "pid (comm) state ppid ...".
QList<QByteArray> statFields(qint64 pid)
{
    const QByteArray stat = readProc(QStringLiteral("/proc/%1/stat").arg(pid));
    const int close = stat.lastIndexOf(')');
    return close < 0 ? QList<QByteArray>() : stat.mid(close + 2).split(' ');
}

} // namespace

double selfCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto msOf = [](const timeval &t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return msOf(usage.ru_utime) + msOf(usage.ru_stime);
}

QList<qint64> childServerPids(const QList<quint16> &ports)
{
    QList<qint64> pids;
    const qint64 self = getpid();
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() < 2 || fields.at(1).toLongLong() != self)
            continue;
        // redis-server rewrites its command line to "/usr/bin/redis-server 127.0.0.1:PORT [cluster]".
        const QByteArray title = readProc(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!title.contains("redis-server"))
            continue;
        for (const quint16 port : ports) {
            const QByteArray address = "127.0.0.1:" + QByteArray::number(port);
            const int at = title.indexOf(address);
            const int after = at + int(address.size());
            if (at >= 0 && (after >= title.size() || !std::isdigit(static_cast<unsigned char>(title.at(after)))))
                pids << pid;
        }
    }
    return pids;
}

double processesCpuMs(const QList<qint64> &pids)
{
    static const double msPerTick = 1e3 / double(sysconf(_SC_CLK_TCK));
    double total = 0;
    for (const qint64 pid : pids) {
        // utime and stime: fields 14 and 15 of stat, so 11 and 12 of what follows the command name.
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() > 12)
            total += double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) * msPerTick;
    }
    return total;
}

} // namespace LockScope::Bench
