#pragma once

#include <QObject>

class QSocketNotifier;

namespace LockScope::Cli {

// Turns SIGINT, SIGTERM and the end of standard input into Qt signals, so a holder releases cleanly
// however its operator or supervisor stops it.
class TerminationWatcher : public QObject
{
    Q_OBJECT
public:
    explicit TerminationWatcher(bool watchStdinEof, QObject *parent = nullptr);
    ~TerminationWatcher() override;

signals:
    // signal: SIGINT or SIGTERM; false for the end of standard input.
    void terminationRequested(const QString &reason, bool signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace LockScope::Cli
