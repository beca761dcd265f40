// lockscope-cli's argument handling: each input line is one argument, parsed with the CLI's own options
// (addConnectionOptions, addCommandOptions), checked as main.cpp checks them, turned into ConnectionOptions by
// connectionFrom, and the command object built and destroyed unstarted: nothing here connects anywhere.
// Standard input is /dev/null (--password-stdin reads an empty line) and no LOCKSCOPE_* variable is set, so a run
// depends only on its input; FUZZ_REDIS_PASSWORD is set for --password-env.
#include "cliconnection.h"
#include "commands.h"
#include "fuzzinput.h"

#include <QCoreApplication>
#include <QUrl>

#include <cstdio>
#include <cstdlib>
#include <memory>

extern char **environ;

using namespace LockScope;
using namespace LockScope::Cli;
using namespace LockScope::Fuzz;

namespace {
// main.cpp's parser, minus the description text.
void setUp(QCommandLineParser &parser)
{
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("command"));
    parser.addPositionalArgument(QStringLiteral("name"), QStringLiteral("name"), QStringLiteral("[name]"));
    addConnectionOptions(parser);
    addCommandOptions(parser);
}

void checkConnection(const QCommandLineParser &parser, const ConnectionOptions &o, const RedisError &error)
{
    if (error.isError()) {
        FUZZ_CHECK(!error.message().isEmpty());
        return;
    }
    FUZZ_CHECK(!o.host.isEmpty() && o.port > 0);
    FUZZ_CHECK(!o.autoReconnect); // a command-line tool reports a dead server at once
    FUZZ_CHECK(o.readOnly == parser.isSet(QStringLiteral("read-only")));
    FUZZ_CHECK(parser.isSet(QStringLiteral("sentinel")) != o.sentinels.isEmpty());
    // What the audit log and the JSON output show of the connection never carries the password.
    FUZZ_CHECK(QUrl(o.toDisplayUrl()).password().isEmpty());
    if (parser.isSet(QStringLiteral("password-env")) && !parser.isSet(QStringLiteral("password-stdin")))
        FUZZ_CHECK(o.password == qgetenv(parser.value(QStringLiteral("password-env")).toLocal8Bit().constData()));
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // Only the fuzzer's own variables (ASAN_OPTIONS and the like, read already) and one password survive.
    for (char **e = environ; *e;) {
        if (qstrncmp(*e, "LOCKSCOPE_", 10) == 0) {
            const QByteArray entry(*e);
            unsetenv(entry.left(entry.indexOf('=')).constData());
        } else {
            ++e;
        }
    }
    setenv("FUZZ_REDIS_PASSWORD", "from-the-environment", 1);
    if (!freopen("/dev/null", "r", stdin))
        abort();
    static int argc = 1;
    static char name[] = "lockscope-cli";
    static char *argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QStringList arguments { QStringLiteral("lockscope-cli") };
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const QByteArray &line : bytes.split('\n'))
        arguments << QString::fromUtf8(line);

    QCommandLineParser parser;
    setUp(parser);
    if (!parser.parse(arguments)) {
        FUZZ_CHECK(!parser.errorText().isEmpty());
        return 0;
    }
    // main.cpp prints help or the version and exits here.
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version")))
        return 0;
    const QStringList args = parser.positionalArguments();
    const bool many = args.value(0) == QLatin1String("demo") || args.value(0) == QLatin1String("list")
        || args.value(0) == QLatin1String("watch");
    if (args.isEmpty() || args.size() != (many ? 1 : 2))
        return 0;

    RedisError error;
    const ConnectionOptions connection = connectionFrom(parser, &error);
    checkConnection(parser, connection, error);
    if (error.isError())
        return 0;
    // Built, never started: a command only reads its options and connects once start() runs.
    std::unique_ptr<Command> command(createCommand(args.first(), parser, connection, nullptr));
    Output::jsonText(args.value(1).toUtf8());
    return 0;
}
