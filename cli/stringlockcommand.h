#pragma once

#include "commands.h"

class QTimer;

namespace LockScope {
class StringLockClient;
}

namespace LockScope::Cli {

// lock NAME --kind string: SET NAME <fresh token> NX PX <lease>, hold (the watchdog renewing unless --lease), then
// give it back by compare-and-delete. The token is the holder's identity in every event.
class StringLockCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void tryOnce();
    void releaseAndExit(const QString &reason);

    StringLockClient *m_strings = nullptr;
    QTimer *m_holdTimer = nullptr; // only with --hold
    QByteArray m_name;
    QByteArray m_token;
    qint64 m_lease = -1;
    qint64 m_waitDeadline = 0; // monotonic ms; -1: forever
    bool m_holding = false;
    bool m_releasing = false;
    bool m_endOfInput = false;
    bool m_interrupted = false;
};

} // namespace LockScope::Cli
