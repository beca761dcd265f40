// What every target that runs Qt's networking or event loop starts with, once per process.
#pragma once

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>

namespace LockScope::Fuzz {

// Qt's warnings (sockets refused, replies of the wrong shape) would only slow a run down; a qFatal still aborts, so
// libFuzzer reports it as a crash with its message.
inline void quietQtMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtFatalMsg) {
        fprintf(stderr, "qFatal: %s\n", qPrintable(message));
        abort();
    }
}

// One QCoreApplication named after the target, for the whole run; call from LLVMFuzzerInitialize.
inline void startQt(const char *target)
{
    static int argc = 1;
    static QByteArray name(target);
    static char *argv[] = { name.data(), nullptr };
    static QCoreApplication app(argc, argv);
    qInstallMessageHandler(quietQtMessages);
}

} // namespace LockScope::Fuzz
