#include "commandline.h"

#include <QCoreApplication>

#include <cstring>

namespace LockScope {

AppCommandLine::AppCommandLine()
    : url(QStringLiteral("url"),
        QCoreApplication::translate(
            "App", "redis:// or rediss:// URL (default: $LOCKSCOPE_URL; without either, demo mode)"),
        QStringLiteral("URL"))
    , readOnly(QStringLiteral("read-only"),
          QCoreApplication::translate("App", "refuse every write before it reaches the wire"))
    , lang(QStringLiteral("lang"), QCoreApplication::translate("App", "en or zh_CN (default: the system locale)"),
          QStringLiteral("LANG"))
    , demo(QStringLiteral("demo"),
          QCoreApplication::translate("App",
              "run simulated Redisson clients, on a private redis-server unless --url is given; everything "
              "it started stops when the window closes"))
    , guide(QStringLiteral("guide"),
          QCoreApplication::translate("App",
              "open the guided demo: Redisson's lock protocol step by step (with a scenario ID or slug after it: that "
              "one, ready to play)"))
    , screenshot(QStringLiteral("screenshot"), QStringLiteral("save the window as FILE"), QStringLiteral("FILE"))
    , quitAfter(QStringLiteral("quit-after"), QStringLiteral("close after MS"), QStringLiteral("MS"))
    , screenshotView(QStringLiteral("screenshot-view"),
          QStringLiteral("before the screenshot, show hot, stuck, clients or blockers"), QStringLiteral("VIEW"))
    , screenshotLock(QStringLiteral("screenshot-lock"),
          QStringLiteral("before the screenshot, select this lock (default: the first row)"), QStringLiteral("NAME"))
    , ssh(QStringLiteral("ssh"),
          QCoreApplication::translate("App", "reach Redis (and every node or sentinel it names) through this SSH host"),
          QStringLiteral("USER@HOST[:PORT]"))
    , sshKey(QStringLiteral("ssh-key"),
          QCoreApplication::translate("App", "private key for --ssh (default: the agent, then ~/.ssh/id_*)"),
          QStringLiteral("FILE"))
    , sshKnownHosts(QStringLiteral("ssh-known-hosts"),
          QCoreApplication::translate(
              "App", "known_hosts file to check the SSH host key against (default: ~/.ssh/known_hosts)"),
          QStringLiteral("FILE"))
{
    parser.setApplicationDescription(
        QCoreApplication::translate("App", "Desktop monitor and console for Redisson-style distributed locks."));
    parser.addHelpOption();
    parser.addVersionOption();
    // For documentation and tests, not for users.
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    quitAfter.setFlags(QCommandLineOption::HiddenFromHelp);
    screenshotView.setFlags(QCommandLineOption::HiddenFromHelp);
    screenshotLock.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addPositionalArgument(QStringLiteral("scenario"),
        QCoreApplication::translate("App", "with --guide: the scenario to open (G01 to G16, or its slug)"),
        QStringLiteral("[scenario]"));
    parser.addOptions({ url, readOnly, lang, demo, guide, ssh, sshKey, sshKnownHosts, screenshot, quitAfter,
        screenshotView, screenshotLock });
}

bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (std::strcmp(arg, "--") == 0)
            return false;
        for (const char *flag : { "-h", "--help", "-?", "-v", "--version" }) {
            if (std::strcmp(arg, flag) == 0)
                return true;
        }
    }
    return false;
}

} // namespace LockScope
