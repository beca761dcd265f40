#include "base/heappolicy.h"
#include "cliconnection.h"
#include "clioutput.h"
#include "commandlist.h"
#include "commands.h"
#include "guide/guideactor.h"
#include "profiles/keychainstore.h"
#include "translations.h"

#include <QCoreApplication>

#include <cstdio>
#include <memory>

#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Cli;

int main(int argc, char *argv[])
{
    keepFreedHeapForReuse();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LOCKSCOPE_VERSION));
    // Human output follows the system locale (LANG, LANGUAGE); JSON output is never translated.
    I18n::install({});
    // Hidden: the guided demo's client in a process of its own (the crash and freeze scenarios start it).
    if (argc == 2 && qstrcmp(argv[1], "guide-actor") == 0)
        return Guide::runGuideActor();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("Cli", "Inspect and manage Redisson-style distributed locks in Redis.")
        + QStringLiteral("\n\n") + QCoreApplication::translate("Cli", "Commands:") + QLatin1Char('\n')
        + commandsHelp());
    parser.addHelpOption();
    parser.addVersionOption();
    // The usage line's placeholders are words for the reader, in their language; the commands stay as typed.
    parser.addPositionalArgument(QStringLiteral("command"), commandNames(),
        QCoreApplication::translate("Cli", "command", "the usage line's placeholder for the command"));
    parser.addPositionalArgument(QStringLiteral("name"),
        QCoreApplication::translate("Cli", "the lock name (not for demo)"),
        QCoreApplication::translate("Cli", "[name]", "the usage line's placeholder for the lock name"));
    addConnectionOptions(parser);
    addCommandOptions(parser);
    if (!parser.parse(app.arguments())) {
        Output(false).error(parser.errorText());
        return ExitUsage;
    }
    const QStringList args = parser.positionalArguments();
    // `COMMAND --help` and `help COMMAND`: that command's own usage, options and examples, as git and kubectl do.
    const bool helpVerb = !args.isEmpty() && args.first() == QLatin1String("help");
    if (parser.isSet(QStringLiteral("help")) || helpVerb) {
        const QString about = helpVerb ? args.value(1) : args.value(0);
        if (const CommandSpec *spec = about.isEmpty() ? nullptr : findCommand(about)) {
            std::fputs(qPrintable(commandHelp(*spec, connectionOptions() + commandOptions())), stdout);
            return ExitDone;
        }
        if (!about.isEmpty()) {
            Output(false).error(QCoreApplication::translate("Cli", "unknown command \"%1\"; see --help").arg(about));
            return ExitUsage;
        }
        parser.showHelp(ExitDone);
    }
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    Output out(parser.isSet(QStringLiteral("json")) || parser.isSet(QStringLiteral("jsonl")));
    if (args.isEmpty()) {
        out.error(QCoreApplication::translate("Cli", "no command given; see --help"));
        return ExitUsage;
    }
    const CommandSpec *spec = findCommand(args.first());
    if (!spec) {
        out.error(QCoreApplication::translate("Cli", "unknown command \"%1\"; see --help").arg(args.first()));
        return ExitUsage;
    }
    // Commands over many locks filter them with --pattern; guide takes a scenario id, and none with --list; every
    // other command acts on exactly one name.
    using Takes = CommandSpec::Takes;
    const bool arityOk = spec->takes == Takes::Scenario || spec->takes == Takes::OptionalArgument ? args.size() <= 2
        : spec->takes == Takes::Pattern                                                           ? args.size() == 1
                                                                                                  : args.size() == 2;
    if (!arityOk) {
        out.error(spec->takes == Takes::Pattern
                ? QCoreApplication::translate("Cli", "%1 takes no lock name (use --pattern)").arg(args.first())
                : spec->takes == Takes::LockName
                ? QCoreApplication::translate("Cli", "%1 takes exactly one lock name").arg(args.first())
                : QCoreApplication::translate("Cli", "usage: lockscope-cli %1")
                      .arg(QString::fromLatin1(spec->synopsis)));
        return ExitUsage;
    }
    if (!checkLibraryOptions(parser, out))
        return ExitUsage;
    RedisError error;
    const std::optional<ConnectionProfile> profile = profileFrom(parser, &error);
    if (error.isError())
        return out.fail(error);
    // Passwords of a saved profile come from the keychain, which answers asynchronously: everything from here on
    // runs on the event loop.
    const std::unique_ptr<SecretStore> store(profile ? KeychainSecretStore::create() : nullptr);
    ConnectionOptions connection;
    // Destroyed before the application object: sockets close while Qt is still whole.
    std::unique_ptr<Command> command;
    std::unique_ptr<SshHostKeyProbe> probe;
    const auto makeCommand = [&] {
        command.reset(spec->create(parser, connection, nullptr));
        if (profile)
            command->useProfile(*profile);
        QObject::connect(command.get(), &Command::finished, &app, [](int code) { QCoreApplication::exit(code); });
    };
    const auto begin = [&](const ProfileSecrets &secrets) {
        RedisError error;
        connection = connectionFrom(parser, &error, profile ? &*profile : nullptr, secrets);
        if (error.isError()) {
            QCoreApplication::exit(out.fail(error));
            return;
        }
        makeCommand();
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
                    makeCommand();
                }
                // Known, changed or unreachable: the command's own connection says so, in its own words and exit code.
                QMetaObject::invokeMethod(command.get(), &Command::run, Qt::QueuedConnection);
            });
            probe->start();
        } else {
            QMetaObject::invokeMethod(command.get(), &Command::run, Qt::QueuedConnection);
        }
    };
    QMetaObject::invokeMethod(
        &app,
        [&] {
            if (profile)
                readProfileSecrets(*profile, store.get(), begin);
            else
                begin({});
        },
        Qt::QueuedConnection);
    return app.exec();
}
