#include "terminationwatcher.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace LockScope::Cli {

namespace {
int g_pipe[2] = { -1, -1 };
// Not a signal number: the byte the stdin reader writes at end of input.
constexpr char kEndOfInput = 0;

void onSignal(int signo)
{
    const char c = char(signo);
    // Only async-signal-safe calls here; the event loop reads the byte.
    [[maybe_unused]] auto n = ::write(g_pipe[1], &c, 1);
}
} // namespace

TerminationWatcher::TerminationWatcher(bool watchStdinEof, QObject *parent)
    : QObject(parent)
{
    if (g_pipe[0] < 0 && ::socketpair(AF_UNIX, SOCK_STREAM, 0, g_pipe) != 0)
        g_pipe[0] = g_pipe[1] = -1;
    if (g_pipe[0] >= 0) {
        m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            char c = 0;
            if (::read(g_pipe[0], &c, 1) != 1)
                return;
            if (c == kEndOfInput)
                emit terminationRequested(QStringLiteral("end of standard input"), false);
            else
                emit terminationRequested(c == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM"), true);
        });
        struct sigaction sa = {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
        if (watchStdinEof) {
            // Standard input may be a file or /dev/null, which no socket notifier accepts: a reader thread it is.
            // It touches no Qt object, only the pipe: the process may be tearing the application down when
            // end of input arrives, and a thread calling into a half-destroyed QCoreApplication crashes.
            std::thread([] {
                char buffer[256];
                while (::read(STDIN_FILENO, buffer, sizeof buffer) > 0) { }
                const char c = kEndOfInput;
                [[maybe_unused]] auto n = ::write(g_pipe[1], &c, 1);
            }).detach();
        }
    }
}

TerminationWatcher::~TerminationWatcher()
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

} // namespace LockScope::Cli
