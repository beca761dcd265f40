#include "appsession.h"
#include "lockspane.h"
#include "locktablemodel.h"
#include "mainwindow.h"
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
} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("lockscope"));
    QApplication::setApplicationVersion(QStringLiteral(LOCKSCOPE_VERSION));
    // Before the parser: its help texts are translated too.
    const QString lang = I18n::languageArgument(app.arguments());
    if (!I18n::install(lang))
        return usageError(QCoreApplication::translate("App", "unknown language \"%1\"; available: %2")
                              .arg(lang, I18n::available().join(QStringLiteral(", "))));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("App", "Desktop monitor and console for Redisson-style distributed locks."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("save the window as FILE"), QStringLiteral("FILE"));
    QCommandLineOption quitAfter(QStringLiteral("quit-after"), QStringLiteral("close after MS"), QStringLiteral("MS"));
    // For documentation and tests, not for users.
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    quitAfter.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({
        { QStringLiteral("url"),
            QCoreApplication::translate(
                "App", "redis:// or rediss:// URL (default: $LOCKSCOPE_URL; without either, demo mode)"),
            QStringLiteral("URL") },
        { QStringLiteral("read-only"),
            QCoreApplication::translate("App", "refuse every write before it reaches the wire") },
        { QStringLiteral("lang"), QCoreApplication::translate("App", "en or zh_CN (default: the system locale)"),
            QStringLiteral("LANG") },
        { QStringLiteral("demo"),
            QCoreApplication::translate("App",
                "run simulated Redisson clients, on a private redis-server unless --url is given; everything "
                "it started stops when the window closes") },
        screenshot,
        quitAfter,
    });
    if (!parser.parse(app.arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (!parser.positionalArguments().isEmpty())
        return usageError(QCoreApplication::translate("App", "unexpected argument \"%1\"; see --help")
                              .arg(parser.positionalArguments().first()));

    const bool readOnly = parser.isSet(QStringLiteral("read-only"));
    const bool urlGiven = parser.isSet(QStringLiteral("url")) || qEnvironmentVariableIsSet("LOCKSCOPE_URL");
    ConnectionOptions options;
    if (urlGiven) {
        RedisError error;
        const QString url = parser.isSet(QStringLiteral("url")) ? parser.value(QStringLiteral("url"))
                                                                : qEnvironmentVariable("LOCKSCOPE_URL");
        options = ConnectionOptions::fromUrl(url, &error);
        if (error.isError())
            return usageError(error.message());
        options.readOnly = readOnly;
    }

    MainWindow window;
    // Declared after the window, so destroyed before it: the demo and the server stop while it still exists.
    AppSession session(&window);
    if (parser.isSet(QStringLiteral("demo")) || !urlGiven)
        session.startDemo(urlGiven ? &options : nullptr, readOnly);
    else
        session.connectTo(options);
    closeOnTerminationSignals(&window);
    window.show();

    if (parser.isSet(quitAfter)) {
        const QString file = parser.value(screenshot);
        QTimer::singleShot(parser.value(quitAfter).toInt(), &window, [&window, file] {
            // A screenshot shows a lock in detail: the first row, selected shortly before the picture.
            if (window.locksPane() && window.locksPane()->model()->rowCount() > 0)
                window.locksPane()->selectLock(window.locksPane()->model()->nameAt(0));
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
