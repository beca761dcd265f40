#include "cliconnection.h"
#include "clioutput.h"
#include "commands.h"
#include "guide/guideactor.h"
#include "translations.h"

#include <QCoreApplication>

#include <memory>

#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Cli;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LOCKSCOPE_VERSION));
    // Human output follows the system locale (LANG, LANGUAGE); JSON output is never translated.
    I18n::install({});
    // Hidden: the guided demo's client in a process of its own (the crash and freeze scenarios start it).
    if (argc == 2 && qstrcmp(argv[1], "guide-actor") == 0)
        return Guide::runGuideActor();

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("Cli",
        "Inspect and manage Redisson-style distributed locks in Redis.\n\n"
        "Commands:\n"
        "  list                 every lock whose name matches --pattern (default *)\n"
        "  show NAME            one lock in full: holders, TTL, waiters, queue, evidence\n"
        "  watch                live events of every lock matching --pattern until interrupted\n"
        "  stats                watch for --seconds N, then print contention statistics per lock\n"
        "  top                  the most contended locks, redrawn every --interval ms until interrupted\n"
        "  serve-metrics        serve statistics to Prometheus at --listen HOST:PORT (default 127.0.0.1:9464)\n"
        "  lock NAME            acquire, hold, then release cleanly\n"
        "  release NAME         release one level on behalf of --owner UUID:TID\n"
        "  force-release NAME   delete the lock and wake its waiters\n"
        "  repair-queue NAME    remove a fair lock's dead waiters (--dry-run: only report them)\n"
        "  add-permits NAME     give a Redisson semaphore --permits N more free permits (default 1)\n"
        "  release-permit NAME  give back an expirable semaphore's permit --permit ID\n"
        "  open-latch NAME      open a Redisson count-down latch: every waiter goes on\n"
        "  demo                 run simulated Redisson clients until interrupted (without --url: on a private\n"
        "                       redis-server it starts and stops itself)\n"
        "  guide ID|all         play the guided demo: Redisson's lock protocol step by step, narrated (--list: the\n"
        "                       scenarios; without --url on a private redis-server)"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"),
        QCoreApplication::translate("Cli",
            "list, show, watch, stats, top, serve-metrics, lock, release, force-release, repair-queue, add-permits, "
            "release-permit, open-latch, demo or guide"));
    parser.addPositionalArgument(QStringLiteral("name"),
        QCoreApplication::translate("Cli", "the lock name (not for demo)"), QStringLiteral("[name]"));
    addConnectionOptions(parser);
    addCommandOptions(parser);
    if (!parser.parse(app.arguments())) {
        Output(false).error(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(ExitDone);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    const QStringList args = parser.positionalArguments();
    Output out(parser.isSet(QStringLiteral("json")) || parser.isSet(QStringLiteral("jsonl")));
    // demo, list and watch work on many names (filtered with --pattern); every other command on exactly one name.
    static const QStringList manyNames { QStringLiteral("demo"), QStringLiteral("list"), QStringLiteral("watch"),
        QStringLiteral("stats"), QStringLiteral("top"), QStringLiteral("serve-metrics") };
    const bool demo = manyNames.contains(args.value(0));
    // guide takes a scenario id instead of a lock name, and none with --list.
    const bool guide = args.value(0) == QLatin1String("guide");
    if (args.isEmpty()) {
        out.error(QCoreApplication::translate("Cli", "no command given; see --help"));
        return ExitUsage;
    }
    if (guide ? args.size() > 2 : args.size() != (demo ? 1 : 2)) {
        out.error(demo ? QCoreApplication::translate("Cli", "%1 takes no lock name (use --pattern)").arg(args.first())
                       : QCoreApplication::translate("Cli", "%1 takes exactly one lock name").arg(args.first()));
        return ExitUsage;
    }
    if (!checkLibraryOptions(parser, out))
        return ExitUsage;
    RedisError error;
    ConnectionOptions connection = connectionFrom(parser, &error);
    if (error.isError())
        return out.fail(error);
    // Destroyed before the application object: sockets close while Qt is still whole.
    std::unique_ptr<Command> command(createCommand(args.first(), parser, connection, nullptr));
    if (!command) {
        out.error(QCoreApplication::translate("Cli", "unknown command \"%1\"; see --help").arg(args.first()));
        return ExitUsage;
    }
    QObject::connect(command.get(), &Command::finished, &app, [](int code) { QCoreApplication::exit(code); });
    std::unique_ptr<SshHostKeyProbe> probe;
    if (connection.ssh.isSet() && connection.ssh.acceptHostKey.isEmpty() && isatty(STDIN_FILENO)) {
        // At a terminal an unknown SSH host key is a question, as with ssh: look at it before connecting for real.
        probe = std::make_unique<SshHostKeyProbe>(connection.ssh, connection.connectTimeoutMs);
        QObject::connect(probe.get(), &SshHostKeyProbe::finished, &app, [&](const SshHostKey &key) {
            if (key.state == SshHostKey::State::Unknown) {
                const std::optional<bool> accepted = confirmHostKey(key, connection.ssh);
                if (!accepted || !*accepted) {
                    QCoreApplication::exit(out.fail(key.error));
                    return;
                }
                connection.ssh.acceptHostKey = key.fingerprint;
                command.reset(createCommand(args.first(), parser, connection, nullptr));
                QObject::connect(
                    command.get(), &Command::finished, &app, [](int code) { QCoreApplication::exit(code); });
            }
            // Known, changed or unreachable: the command's own connection says so, in its own words and exit code.
            QMetaObject::invokeMethod(command.get(), &Command::run, Qt::QueuedConnection);
        });
        probe->start();
    } else {
        QMetaObject::invokeMethod(command.get(), &Command::run, Qt::QueuedConnection);
    }
    return app.exec();
}
