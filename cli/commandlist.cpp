#include "commandlist.h"

#include "countercommands.h"
#include "democommand.h"
#include "guidecommand.h"
#include "inspectcommands.h"
#include "lockcommand.h"
#include "metricscommand.h"
#include "releasecommands.h"
#include "repaircommand.h"
#include "statscommands.h"
#include "watchcommand.h"

#include <QCoreApplication>
#include <QStringList>

namespace LockScope::Cli {

namespace {
template <typename C> Command *make(const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent)
{
    return new C(parser, std::move(connection), parent);
}

template <CounterPlan::Action action>
Command *makeCounter(const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent)
{
    return new CounterCommand(action, parser, std::move(connection), parent);
}

using Takes = CommandSpec::Takes;
} // namespace

const QList<CommandSpec> &commandList()
{
    // In --help's order: reading first, then writing, then the demos.
    static const QList<CommandSpec> list {
        { "list", "list", QT_TRANSLATE_NOOP("Cli", "every lock whose name matches --pattern (default *)"),
            Takes::Pattern, make<ListCommand> },
        { "show", "show NAME", QT_TRANSLATE_NOOP("Cli", "one lock in full: holders, TTL, waiters, queue, evidence"),
            Takes::LockName, make<ShowCommand> },
        { "watch", "watch", QT_TRANSLATE_NOOP("Cli", "live events of every lock matching --pattern until interrupted"),
            Takes::Pattern, make<WatchCommand> },
        { "stats", "stats",
            QT_TRANSLATE_NOOP("Cli", "watch for --seconds N, then print contention statistics per lock"),
            Takes::Pattern, make<StatsCommand> },
        { "top", "top",
            QT_TRANSLATE_NOOP("Cli", "the most contended locks, redrawn every --interval ms until interrupted"),
            Takes::Pattern, make<TopCommand> },
        { "serve-metrics", "serve-metrics",
            QT_TRANSLATE_NOOP("Cli", "serve statistics to Prometheus at --listen HOST:PORT (default 127.0.0.1:9464)"),
            Takes::Pattern, make<ServeMetricsCommand> },
        { "lock", "lock NAME", QT_TRANSLATE_NOOP("Cli", "acquire, hold, then release cleanly"), Takes::LockName,
            make<LockCommand> },
        { "release", "release NAME", QT_TRANSLATE_NOOP("Cli", "release one level on behalf of --owner UUID:TID"),
            Takes::LockName, make<ReleaseCommand> },
        { "force-release", "force-release NAME", QT_TRANSLATE_NOOP("Cli", "delete the lock and wake its waiters"),
            Takes::LockName, make<ForceReleaseCommand> },
        { "repair-queue", "repair-queue NAME",
            QT_TRANSLATE_NOOP("Cli", "remove a fair lock's dead waiters (--dry-run: only report them)"),
            Takes::LockName, make<RepairQueueCommand> },
        { "add-permits", "add-permits NAME",
            QT_TRANSLATE_NOOP("Cli", "give a Redisson semaphore --permits N more free permits (default 1)"),
            Takes::LockName, makeCounter<CounterPlan::Action::AddPermits> },
        { "release-permit", "release-permit NAME",
            QT_TRANSLATE_NOOP("Cli", "give back an expirable semaphore's permit --permit ID"), Takes::LockName,
            makeCounter<CounterPlan::Action::ReleasePermit> },
        { "open-latch", "open-latch NAME",
            QT_TRANSLATE_NOOP("Cli", "open a Redisson count-down latch: every waiter goes on"), Takes::LockName,
            makeCounter<CounterPlan::Action::Open> },
        { "demo", "demo",
            QT_TRANSLATE_NOOP("Cli",
                "run simulated Redisson clients until interrupted (without --url: on a private\n"
                "redis-server it starts and stops itself)"),
            Takes::Pattern, make<DemoCommand> },
        { "guide", "guide ID|all",
            QT_TRANSLATE_NOOP("Cli",
                "play the guided demo: Redisson's lock protocol step by step, narrated (--list: the\n"
                "scenarios; without --url on a private redis-server)"),
            Takes::Scenario, make<GuideCommand> },
    };
    return list;
}

const CommandSpec *findCommand(const QString &name)
{
    for (const CommandSpec &spec : commandList()) {
        if (name == QLatin1String(spec.name))
            return &spec;
    }
    return nullptr;
}

QString commandsHelp()
{
    constexpr int width = 20; // the synopses' column, after two spaces of indent; a space, then the description
    QStringList lines;
    for (const CommandSpec &spec : commandList()) {
        const QStringList help = QCoreApplication::translate("Cli", spec.help).split(QLatin1Char('\n'));
        lines << QStringLiteral("  ") + QString::fromLatin1(spec.synopsis).leftJustified(width) + QLatin1Char(' ')
                + help.first();
        for (qsizetype i = 1; i < help.size(); ++i)
            lines << QString(width + 3, QLatin1Char(' ')) + help.at(i);
    }
    return lines.join(QLatin1Char('\n'));
}

QString commandNames()
{
    QStringList names;
    for (const CommandSpec &spec : commandList())
        names << QLatin1String(spec.name);
    const QString last = names.takeLast();
    return QCoreApplication::translate("Cli", "%1 or %2").arg(names.join(QStringLiteral(", ")), last);
}

} // namespace LockScope::Cli
