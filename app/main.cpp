#include "appsession.h"
#include "base/heappolicy.h"
#include "commandline.h"
#include "guide/guideactor.h"
#include "guide/guidewindow.h"
#include "guide/scenario.h"
#include "lockspane.h"
#include "mainwindow.h"
#include "models/locktablemodel.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

using namespace LockScope;

namespace {
int g_signalPipe[2] = { -1, -1 };

// Ctrl+C in the terminal that started the app closes it like the window's close button, so the private
// server's temporary directory is removed too (the parent-death signal alone would only stop the server).
void closeOnTerminationSignals(QWidget *window)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, window);
    QObject::connect(notifier, &QSocketNotifier::activated, window, [window] {
        char c = 0;
        if (::read(g_signalPipe[0], &c, 1) == 1)
            window->close();
    });
    struct sigaction sa = {};
    sa.sa_handler = [](int signo) {
        const char c = char(signo);
        [[maybe_unused]] auto n = ::write(g_signalPipe[1], &c, 1);
    };
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int usageError(const QString &message)
{
    std::fputs(qPrintable(QStringLiteral("lockscope: %1\n").arg(message)), stderr);
    return 2;
}

// Help, version and usage errors from the parser; -1 to go on.
int parseArguments(AppCommandLine &commandLine, const QStringList &arguments)
{
    QCommandLineParser &parser = commandLine.parser;
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    // Only --guide takes an argument: the scenario to open.
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(commandLine.guide) && positional.size() == 1) {
        if (!Guide::findScenario(positional.first()))
            return usageError(QCoreApplication::translate("App", "no guided scenario \"%1\"; they are G01 to G16")
                                  .arg(positional.first()));
        return -1;
    }
    if (!positional.isEmpty())
        return usageError(QCoreApplication::translate("App", "unexpected argument \"%1\"; see --help")
                              .arg(parser.positionalArguments().first()));
    return -1;
}

// Names and language, before the parser exists: its help texts are translated too. 0 when the language is shipped.
int setUpApplication()
{
    // Settings then live in ~/.config/lockscope/lockscope.conf (without an organisation Qt names the directory
    // "Unknown Organization").
    QCoreApplication::setOrganizationName(QStringLiteral("lockscope"));
    QCoreApplication::setApplicationName(QStringLiteral("lockscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LOCKSCOPE_VERSION));
    const QString lang = I18n::languageArgument(QCoreApplication::arguments());
    if (I18n::install(lang))
        return 0;
    return usageError(QCoreApplication::translate("App", "unknown language \"%1\"; available: %2")
                          .arg(lang, I18n::available().join(QStringLiteral(", "))));
}
} // namespace

int main(int argc, char *argv[])
{
    keepFreedHeapForReuse();
    if (argc == 2 && qstrcmp(argv[1], "--guide-actor") == 0) {
        // Hidden: the guided demo's client in a process of its own (the crash and freeze scenarios start it). It
        // has no window, so it needs no display.
        QCoreApplication app(argc, argv);
        I18n::install({});
        return Guide::runGuideActor();
    }
    if (asksForHelpOrVersion(argc, argv)) {
        // No display needed: support staff read the help over ssh, and the man page is generated from it.
        QCoreApplication app(argc, argv);
        if (const int status = setUpApplication())
            return status;
        AppCommandLine commandLine;
        return parseArguments(commandLine, app.arguments()) < 0 ? 0 : 2;
    }

    QApplication app(argc, argv);
    if (const int status = setUpApplication())
        return status;
    AppCommandLine commandLine;
    if (const int status = parseArguments(commandLine, app.arguments()); status >= 0)
        return status;
    const QCommandLineParser &parser = commandLine.parser;
    const QCommandLineOption &screenshot = commandLine.screenshot;
    const QCommandLineOption &quitAfter = commandLine.quitAfter;

    const bool readOnly = parser.isSet(QStringLiteral("read-only"));
    const bool urlGiven = parser.isSet(QStringLiteral("url")) || qEnvironmentVariableIsSet("LOCKSCOPE_URL");
    ConnectionOptions options;
    // A URL that cannot be used is said in the window too (a desktop launcher has no terminal), which then offers
    // File > Connect instead of connecting anywhere.
    QString badUrl;
    if (urlGiven) {
        RedisError error;
        const QString url = parser.isSet(QStringLiteral("url")) ? parser.value(QStringLiteral("url"))
                                                                : qEnvironmentVariable("LOCKSCOPE_URL");
        options = ConnectionOptions::fromUrl(url, &error);
        if (error.isError()) {
            badUrl = error.message();
            std::fprintf(stderr, "lockscope: %s\n", qPrintable(badUrl));
        }
        options.readOnly = readOnly;
    }
    if (parser.isSet(commandLine.ssh)) {
        if (!urlGiven)
            return usageError(
                QCoreApplication::translate("App", "--ssh needs --url: the server as the SSH host sees it"));
        RedisError error;
        options.ssh = SshOptions::parseTarget(parser.value(commandLine.ssh), &error);
        if (error.isError())
            return usageError(error.message());
        options.ssh.keyFile = parser.value(commandLine.sshKey);
        options.ssh.knownHostsFile = parser.value(commandLine.sshKnownHosts);
    } else if (parser.isSet(commandLine.sshKey) || parser.isSet(commandLine.sshKnownHosts)) {
        return usageError(QCoreApplication::translate("App", "--ssh-key and --ssh-known-hosts need --ssh"));
    }

    MainWindow window;
    // Declared after the window, so destroyed before it: the demo and the server stop while it still exists.
    AppSession session(&window);
    if (!badUrl.isEmpty())
        session.showUnusableUrl(badUrl);
    else if (parser.isSet(QStringLiteral("demo")) || !urlGiven)
        session.startDemo(urlGiven ? &options : nullptr, readOnly);
    else
        session.connectTo(options);
    closeOnTerminationSignals(&window);
    window.show();
    if (parser.isSet(commandLine.guide) && parser.isSet(quitAfter)) {
        // The user guide's pictures of the guided demo: the scenario played at T = 3 s in presenter mode, the window
        // saved --quit-after MS into it.
        const QString file = parser.value(screenshot);
        const int afterMs = parser.value(quitAfter).toInt();
        session.openGuide(parser.positionalArguments().value(0), [file, afterMs](QWidget *window) {
            auto *guide = static_cast<Guide::GuideWindow *>(window);
            guide->setTimeScaleMs(3000);
            guide->setPresenterMode(true);
            guide->play();
            QTimer::singleShot(afterMs, guide, [guide, file] {
                const bool failed = !file.isEmpty() && !guide->grab().save(file);
                if (failed)
                    std::fputs(qPrintable(QStringLiteral("lockscope: cannot write %1\n").arg(file)), stderr);
                QCoreApplication::exit(failed ? 1 : 0);
            });
        });
    } else if (parser.isSet(commandLine.guide)) {
        session.openGuide(parser.positionalArguments().value(0));
    }

    if (parser.isSet(quitAfter) && !parser.isSet(commandLine.guide)) {
        const QString file = parser.value(screenshot);
        const QString view = parser.value(commandLine.screenshotView);
        const QByteArray lock = parser.value(commandLine.screenshotLock).toUtf8();
        QTimer::singleShot(parser.value(quitAfter).toInt(), &window, [&window, file, view, lock] {
            // A screenshot shows a lock in detail: the one named, else the first row, selected shortly before the
            // picture.
            if (window.locksPane() && !lock.isEmpty())
                window.locksPane()->selectLock(lock);
            else if (window.locksPane() && window.locksPane()->model()->rowCount() > 0)
                window.locksPane()->selectLock(window.locksPane()->model()->nameAt(0));
            if (!view.isEmpty())
                window.showContentionView(view);
            QTimer::singleShot(700, &window, [&window, file] {
                const bool failed = !file.isEmpty() && !window.grab().save(file);
                if (failed)
                    std::fputs(qPrintable(QStringLiteral("lockscope: cannot write %1\n").arg(file)), stderr);
                window.close();
                if (failed)
                    QCoreApplication::exit(1);
            });
        });
    }
    return app.exec();
}
