#include "clirun.h"

#include "benchcommon.h"

#include <QFile>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

extern char **environ;

namespace LockScope::Bench {

qint64 locksPrinted(const QString &path, bool json)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        fatal(QStringLiteral("cannot read %1").arg(path));
    if (!json)
        return f.readLine().split(' ').value(0).toLongLong();
    qint64 n = 0;
    QByteArray tail;
    while (!f.atEnd()) {
        const QByteArray chunk = tail + f.read(1 << 20);
        for (qsizetype at = chunk.indexOf("\"confidence\":"); at >= 0; at = chunk.indexOf("\"confidence\":", at + 1))
            ++n;
        tail = chunk.right(12); // shorter than the key: a key split between chunks is counted once, in the next
    }
    return n;
}

CliRun runCliProcess(const QString &cli, const QStringList &args, const QString &outPath, bool json)
{
    std::vector<QByteArray> storage { cli.toLocal8Bit() };
    for (const QString &a : args)
        storage.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const QByteArray out = outPath.toLocal8Bit();
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);

    CliRun r;
    const qint64 start = nowNs();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv.front(), &actions, nullptr, argv.data(), environ) != 0)
        fatal(QStringLiteral("cannot start %1").arg(cli));
    int status = 0;
    struct rusage usage = {};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fatal(QStringLiteral("%1 %2 failed (status %3)").arg(cli, args.join(QLatin1Char(' '))).arg(status));
    r.wallMs = double(nowNs() - start) / 1e6;
    posix_spawn_file_actions_destroy(&actions);
    r.cpuMs = (double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
    r.rssMb = double(usage.ru_maxrss) / 1024.0; // KiB on Linux
    r.locks = locksPrinted(outPath, json);
    return r;
}

} // namespace LockScope::Bench
