#pragma once

#include "redis/connectionoptions.h"

#include <QCommandLineParser>
#include <QList>
#include <QObject>
#include <QString>

namespace LockScope::Cli {

class Command;

// Every command of lockscope-cli, once: its name, what follows it, its line in --help and how it is made. A new
// command is a class of its own and one entry in commandlist.cpp; main(), --help and the fuzzer read this list.
struct CommandSpec
{
    // What the command takes after its name.
    enum class Takes {
        LockName, // exactly one lock name
        Pattern, // none: it works on every lock matching --pattern
        Scenario, // guide: a scenario id, or none with --list
        Argument, // exactly one argument that is not a lock name (a time, an owner)
        OptionalArgument, // one such argument, or none
    };
    const char *name;
    const char *synopsis; // "show NAME", as --help lists it
    const char *help; // translated in the "Cli" context; a "\n" continues it on the next line
    Takes takes;
    Command *(*create)(const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent);
    const char *options; // the options of its own, space-separated ("hex expect-owner yes json"), for its --help
    const char *examples; // command lines, '\n'-separated, for its --help
};

const QList<CommandSpec> &commandList();
// The command called name, or nullptr.
const CommandSpec *findCommand(const QString &name);
// --help's list of commands, aligned, translated.
QString commandsHelp();
// `lockscope-cli COMMAND --help` (or `help COMMAND`): its usage, what it does, its own options described, the
// connection options named, examples. options: every option the program takes, to describe them from.
QString commandHelp(const CommandSpec &spec, const QList<QCommandLineOption> &options);
// "list, show, ..., demo or guide", for the positional argument's help.
QString commandNames();

} // namespace LockScope::Cli
