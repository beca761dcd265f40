#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace LockScope {

// The desktop app's options, declared once: the windowed run and the display-less --help/--version (which the
// man page is generated from) must never disagree.
class AppCommandLine
{
public:
    AppCommandLine();

    QCommandLineParser parser;
    QCommandLineOption url;
    QCommandLineOption readOnly;
    QCommandLineOption lang;
    QCommandLineOption demo;
    QCommandLineOption guide;
    QCommandLineOption screenshot;
    QCommandLineOption quitAfter;
    QCommandLineOption screenshotView;
    QCommandLineOption screenshotLock;
    QCommandLineOption ssh;
    QCommandLineOption sshKey;
    QCommandLineOption sshKnownHosts;
};

// True when argv asks only for help or the version: those need no display, so main() answers them before a
// QApplication (which aborts without one) exists. --help-all is left to QApplication: it lists Qt's GUI options.
bool asksForHelpOrVersion(int argc, char *argv[]);

} // namespace LockScope
