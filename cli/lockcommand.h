#pragma once

#include "commands.h"
#include "kinds/locktypes.h"

class QTimer;

namespace LockScope::Cli {

// lock NAME: acquire as this process's own client id, hold, then release cleanly.
class LockCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void onAcquired(const AcquireResult &result);
    void reportNotAcquired(const AcquireResult &result);
    void releaseAndExit(const QString &reason);

    LockClient *m_client = nullptr;
    QTimer *m_holdTimer = nullptr; // only with --hold
    QByteArray m_name;
    QByteArray m_owner;
    bool m_holding = false;
    bool m_releasing = false;
    bool m_endOfInput = false;
    bool m_cancelling = false;
    LockMode m_kind = LockMode::Reentrant;
};

} // namespace LockScope::Cli
