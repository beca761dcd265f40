#include "commandlist.h"

#include "blockerscommand.h"
#include "countercommands.h"
#include "democommand.h"
#include "expirecommand.h"
#include "guidecommand.h"
#include "inspectcommands.h"
#include "lockcommand.h"
#include "metricscommand.h"
#include "reapcommand.h"
#include "recordcommands.h"
#include "recordquerycommands.h"
#include "releaseclientcommand.h"
#include "releasecommands.h"
#include "repaircommand.h"
#include "statscommands.h"
#include "stuckcommand.h"
#include "tracecommand.h"
#include "watchcommand.h"

#include <QCommandLineOption>
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
            Takes::Pattern, make<ListCommand>,
            "pattern library jsonl string-locks no-string-locks layout-pattern owner-template json",
            "lockscope-cli list\nlockscope-cli list --pattern 'orders:*' --json\nlockscope-cli list --library shedlock "
            "--jsonl" },
        { "show", "show NAME", QT_TRANSLATE_NOOP("Cli", "one lock in full: holders, TTL, waiters, queue, evidence"),
            Takes::LockName, make<ShowCommand>,
            "hex observe string-locks no-string-locks layout-pattern owner-template json",
            "lockscope-cli show orders:42\nlockscope-cli show orders:42 --observe 30000\nlockscope-cli show orders:42 "
            "--json\nlockscope-cli show 6f72646572733a00ff --hex" },
        { "blockers", "blockers",
            QT_TRANSLATE_NOOP(
                "Cli", "who waits for whom: root blockers first, each with its liveness and what frees it; deadlocks"),
            Takes::Pattern, make<BlockersCommand>,
            "pattern string-locks no-string-locks layout-pattern owner-template json",
            "lockscope-cli blockers\nlockscope-cli blockers --json" },
        { "stuck", "stuck",
            QT_TRANSLATE_NOOP("Cli",
                "what keeps locks from being taken, the console's Stuck rules: one line per problem\n"
                "with since when, its holder and what fixes it (--observe MS: watch first)"),
            Takes::Pattern, make<StuckCommand>,
            "pattern observe string-locks no-string-locks layout-pattern owner-template json",
            "lockscope-cli stuck\nlockscope-cli stuck --pattern 'orders:*' --json\nlockscope-cli stuck --observe "
            "60000" },
        { "watch", "watch", QT_TRANSLATE_NOOP("Cli", "live events of every lock matching --pattern until interrupted"),
            Takes::Pattern, make<WatchCommand>,
            "pattern interval enable-keyspace-events reason notify syslog syslog-socket string-locks no-string-locks "
            "layout-pattern owner-template "
            "json",
            "lockscope-cli watch --pattern 'orders:*'\nlockscope-cli watch --json\nlockscope-cli watch "
            "--enable-keyspace-events" },
        { "stats", "stats",
            QT_TRANSLATE_NOOP("Cli",
                "watch for --seconds N, then print contention statistics per lock; with --db FILE, those of\n"
                "a recording's window (--since T, --until T)"),
            Takes::Pattern, make<StatsCommand>,
            "pattern seconds limit interval db since until string-locks no-string-locks layout-pattern owner-template "
            "json",
            "lockscope-cli stats --seconds 60\nlockscope-cli stats --seconds 300 --pattern 'orders:*' --json\n"
            "lockscope-cli stats --db night.sqlite --since 2026-11-26T03:00:00Z --until 2026-11-26T04:00:00Z" },
        { "top", "top",
            QT_TRANSLATE_NOOP("Cli", "the most contended locks, redrawn every --interval ms until interrupted"),
            Takes::Pattern, make<TopCommand>,
            "pattern interval limit string-locks no-string-locks layout-pattern owner-template json",
            "lockscope-cli top\nlockscope-cli top --limit 10 --interval 1000" },
        { "serve-metrics", "serve-metrics",
            QT_TRANSLATE_NOOP("Cli", "serve statistics to Prometheus at --listen HOST:PORT (default 127.0.0.1:9464)"),
            Takes::Pattern, make<ServeMetricsCommand>,
            "listen pattern limit interval db no-record retain max-size redact reap-policy confirm-name reason notify "
            "syslog syslog-socket string-locks no-string-locks layout-pattern owner-template",
            "lockscope-cli serve-metrics\nlockscope-cli serve-metrics --listen 0.0.0.0:9464 --pattern 'orders:*'\n"
            "lockscope-cli serve-metrics --reap-policy /etc/lockscope/reap.yaml --notify https://chat.example/hook" },
        { "trace", "trace",
            QT_TRANSLATE_NOOP("Cli",
                "MONITOR for --seconds N (default 10, at most 300): which connection sent each owner\n"
                "id and token, who retries, and what the trace cost the server (needs +monitor)"),
            Takes::Pattern, make<TraceCommand>, "seconds json",
            "lockscope-cli trace\nlockscope-cli trace --seconds 30 --json" },
        { "lock", "lock NAME", QT_TRANSLATE_NOOP("Cli", "acquire, hold, then release cleanly"), Takes::LockName,
            make<LockCommand>, "hex kind lease watchdog watchdog-timeout wait hold json",
            "lockscope-cli lock orders:42 --hold 10000\nlockscope-cli lock orders:42 --wait 5000 --lease "
            "30000\nlockscope-cli lock catalog --kind read --watchdog-timeout 10000" },
        { "release", "release NAME", QT_TRANSLATE_NOOP("Cli", "release one level on behalf of --owner UUID:TID"),
            Takes::LockName, make<ReleaseCommand>, "hex owner yes reason notify syslog syslog-socket json",
            "lockscope-cli release orders:42 --owner 6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731" },
        { "force-release", "force-release NAME", QT_TRANSLATE_NOOP("Cli", "delete the lock and wake its waiters"),
            Takes::LockName, make<ForceReleaseCommand>,
            "hex expect-owner yes confirm-name reason notify syslog syslog-socket json",
            "lockscope-cli force-release orders:42\nlockscope-cli force-release orders:42 --expect-owner "
            "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731\nlockscope-cli force-release orders:42 --yes --json" },
        { "release-client", "release-client UUID|UUID:TID",
            QT_TRANSLATE_NOOP("Cli",
                "release every hold, read hold, token and fair-queue place of one client, as each\n"
                "library would, guarded by what is shown (--dry-run: only list them)"),
            Takes::LockName, make<ReleaseClientCommand>,
            "pattern dry-run yes confirm-name even-if-alive reason notify syslog syslog-socket string-locks "
            "no-string-locks "
            "layout-pattern owner-template json",
            "lockscope-cli release-client 6e3d30b7-83b1-433a-9335-5e8b9916d3ac --dry-run\nlockscope-cli "
            "release-client 6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731 --yes --reason 'pod killed'" },
        { "record", "record",
            QT_TRANSLATE_NOOP("Cli",
                "every event of every lock matching --pattern into a recording (--db FILE, SQLite) until\n"
                "SIGINT or SIGTERM; appends to an existing one, prunes by --retain and --max-size"),
            Takes::Pattern, make<RecordCommand>,
            "db retain max-size redact pattern interval string-locks no-string-locks layout-pattern owner-template "
            "json",
            "lockscope-cli record --db incidents.sqlite\nlockscope-cli record --db /var/lib/lockscope/orders.sqlite "
            "--retain 14d --max-size 2G --redact 'customer:*'" },
        { "history", "history NAME",
            QT_TRANSLATE_NOOP("Cli", "one lock's recorded events, oldest first (--db FILE, --since T, --until T)"),
            Takes::LockName, make<HistoryCommand>, "hex db since until json",
            "lockscope-cli history orders:42 --db incidents.sqlite --since 2026-11-26T03:00:00Z --until "
            "2026-11-26T03:30:00Z" },
        { "at", "at TIME",
            QT_TRANSLATE_NOOP("Cli", "every lock and its holders at that moment, from a recording (--db FILE)"),
            Takes::Argument, make<AtCommand>, "db pattern json",
            "lockscope-cli at 2026-11-26T03:12:00Z\nlockscope-cli at 2026-11-26T03:12:00+08:00 --pattern 'orders:*' "
            "--json" },
        { "explain", "explain [MESSAGE]",
            QT_TRANSLATE_NOOP("Cli",
                "the story of the hold an error is about (Redisson's \"not locked by current thread\", redsync's,\n"
                "redis-py's, python-redis-lock's): acquired, renewals and their gaps, how it ended, who came next"),
            Takes::OptionalArgument, make<ExplainCommand>, "db owner lock around json",
            "lockscope-cli explain 'attempt to unlock lock, not locked by current thread by node id: "
            "2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901 thread-id: 93'\nlockscope-cli explain --lock orders:42 --around "
            "2026-11-26T03:12:15Z\njournalctl -u orders | grep IllegalMonitorState | tail -1 | lockscope-cli explain "
            "-" },
        { "advise", "advise",
            QT_TRANSLATE_NOOP("Cli",
                "the lease advisor, from a recording: hold times against each lock's lease, each client's renewal\n"
                "rhythm and gaps, its inferred lockWatchdogTimeout, and verdicts (lease too short, a pause, ...)"),
            Takes::Pattern, make<AdviseCommand>, "db since until pattern json",
            "lockscope-cli advise --since 2026-11-26T00:00:00Z\nlockscope-cli advise --pattern 'orders:*' --json" },
        { "client", "client OWNER",
            QT_TRANSLATE_NOOP("Cli",
                "everything one holder did across locks, from a recording (a client id alone: all "
                "its threads)"),
            Takes::Argument, make<ClientCommand>, "db since until json",
            "lockscope-cli client 2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901:93\nlockscope-cli client "
            "2c0b6a3e-7a71-4b7e-9a43-8f1de3c2a901 --since 2026-11-26T03:00:00Z" },
        { "export", "export",
            QT_TRANSLATE_NOOP("Cli", "a recording's timeline as JSON lines or CSV on standard output"), Takes::Pattern,
            make<ExportCommand>, "db since until format pattern",
            "lockscope-cli export --since 2026-11-26T00:00:00Z --format csv > night.csv" },
        { "reap", "reap",
            QT_TRANSLATE_NOOP("Cli",
                "the guarded reaper: release the holds a --policy FILE's rules judge gone (two signals each),\n"
                "after a report (--dry-run) and its approval (--approve HASH|REPORT-FILE, or on the terminal);\n"
                "each lock re-checked before its release, quotas and protected names kept"),
            Takes::Pattern, make<ReapCommand>,
            "policy dry-run approve yes confirm-name observe reason notify syslog syslog-socket string-locks "
            "no-string-locks layout-pattern owner-template json",
            "lockscope-cli reap --policy reap.yaml --dry-run --json > report.jsonl\nlockscope-cli reap --policy "
            "reap.yaml --approve report.jsonl --reason 'INC-4711'" },
        { "expire", "expire NAME",
            QT_TRANSLATE_NOOP("Cli",
                "give a lock with no lease one of --lease MS, or a holder that overruns a longer one\n"
                "(guarded by the holders shown; never shortens a lease)"),
            Takes::LockName, make<ExpireCommand>,
            "hex lease expect-owner yes confirm-name reason notify syslog syslog-socket json",
            "lockscope-cli expire orders:42 --lease 60000\nlockscope-cli expire jobs.lock --lease 600000 --yes "
            "--reason 'holder gone, no TTL'" },
        { "repair-queue", "repair-queue NAME",
            QT_TRANSLATE_NOOP("Cli", "remove a fair lock's dead waiters (--dry-run: only report them)"),
            Takes::LockName, make<RepairQueueCommand>,
            "hex dry-run recheck yes reason notify syslog syslog-socket json",
            "lockscope-cli repair-queue orders:42 --dry-run\nlockscope-cli repair-queue orders:42 --yes" },
        { "add-permits", "add-permits NAME",
            QT_TRANSLATE_NOOP("Cli", "give a Redisson semaphore --permits N more free permits (default 1)"),
            Takes::LockName, makeCounter<CounterPlan::Action::AddPermits>,
            "hex permits yes reason notify syslog syslog-socket json", "lockscope-cli add-permits pool --permits 2" },
        { "release-permit", "release-permit NAME",
            QT_TRANSLATE_NOOP("Cli", "give back an expirable semaphore's permit --permit ID"), Takes::LockName,
            makeCounter<CounterPlan::Action::ReleasePermit>, "hex permit yes reason notify syslog syslog-socket json",
            "lockscope-cli release-permit pool --permit 2b3c4d5e6f708192a3b4c5d6e7f80910" },
        { "open-latch", "open-latch NAME",
            QT_TRANSLATE_NOOP("Cli", "open a Redisson count-down latch: every waiter goes on"), Takes::LockName,
            makeCounter<CounterPlan::Action::Open>, "hex expect-count yes reason notify syslog syslog-socket json",
            "lockscope-cli open-latch ready --expect-count 2" },
        { "demo", "demo",
            QT_TRANSLATE_NOOP("Cli",
                "run simulated Redisson clients until interrupted (without --url: on a private\n"
                "redis-server it starts and stops itself)"),
            Takes::Pattern, make<DemoCommand>, "clients locks json",
            "lockscope-cli demo\nlockscope-cli demo --clients 10 --locks 8 --json" },
        { "guide", "guide ID|all",
            QT_TRANSLATE_NOOP("Cli",
                "play the guided demo: Redisson's lock protocol step by step, narrated (--list: the\n"
                "scenarios; without --url on a private redis-server)"),
            Takes::Scenario, make<GuideCommand>, "list speed step script-version allow-writes json",
            "lockscope-cli guide --list\nlockscope-cli guide G07\nlockscope-cli guide all --step --speed fast" },
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

namespace {
// Words into lines of at most width characters after indent (a word longer than a line keeps its own line). Text
// without spaces (Chinese) is one word: the terminal wraps it.
QStringList wrapped(const QString &text, int indent, int width)
{
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}
} // namespace

QString commandHelp(const CommandSpec &spec, const QList<QCommandLineOption> &options)
{
    constexpr int width = 79; // as QCommandLineParser's --help
    constexpr int column = 28; // where descriptions start
    QStringList out;
    out << QCoreApplication::translate("Cli", "Usage: %1 %2 [options]")
               .arg(QCoreApplication::applicationName(), QString::fromLatin1(spec.synopsis));
    out << QCoreApplication::translate("Cli", spec.help).replace(QLatin1Char('\n'), QLatin1Char(' ')) << QString();
    out << QCoreApplication::translate("Cli", "Options:");
    for (const QString &name : QString::fromLatin1(spec.options).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        for (const QCommandLineOption &option : options) {
            if (!option.names().contains(name))
                continue;
            QString head = QStringLiteral("  --") + name;
            if (!option.valueName().isEmpty())
                head += QStringLiteral(" <%1>").arg(option.valueName());
            const QStringList lines = wrapped(option.description(), column, width);
            if (head.size() + 1 < column) {
                out << head.leftJustified(column) + lines.value(0);
            } else {
                out << head;
                out << QString(column, QLatin1Char(' ')) + lines.value(0);
            }
            for (qsizetype i = 1; i < lines.size(); ++i)
                out << QString(column, QLatin1Char(' ')) + lines.at(i);
        }
    }
    out << QString();
    out << wrapped(QCoreApplication::translate("Cli",
                       "Where to connect and how (--url, --profile, --cluster, --sentinel, --ssh, TLS, passwords, "
                       "--read-only): every command takes the same options, listed by %1 --help.")
                       .arg(QCoreApplication::applicationName()),
        0, width);
    out << QString() << QCoreApplication::translate("Cli", "Examples:");
    for (const QString &example : QString::fromLatin1(spec.examples).split(QLatin1Char('\n')))
        out << QStringLiteral("  ") + example;
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
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
