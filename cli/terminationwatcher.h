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
    void terminationRequested(const QString &reason);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace LockScope::Cli
