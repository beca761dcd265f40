#pragma once

#include <QString>
#include <QStringList>

namespace LockScope::Bench {

// lockscope-cli as a user runs it: a process of its own, its standard output written to a file.
struct CliRun
{
    double wallMs = 0; // from just before the spawn until it was reaped
    double cpuMs = 0; // its user + system CPU (rusage)
    double rssMb = 0; // its peak RSS
    qint64 locks = 0; // locks it printed
};

// Runs cli with args, its output to outPath; fatal unless it exits 0. json: count lock objects, else the text list's
// "N lock(s)" first line.
CliRun runCliProcess(const QString &cli, const QStringList &args, const QString &outPath, bool json);
// What a list printed: a lock object's "confidence" key (JSON; holders and queue entries have none), or the text
// list's "N lock(s)" first line.
qint64 locksPrinted(const QString &path, bool json);

} // namespace LockScope::Bench
