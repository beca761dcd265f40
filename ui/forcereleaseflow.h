#pragma once

#include "consolewriteflow.h"

namespace LockScope {
struct LockNow;

// The console's force release once the person has asked for it: reads the lock as Redis holds it now (as
// lockscope-cli's prompt does), shows that in ForceReleaseDialog, and once confirmed deletes it, guarded by the holders
// shown and waking whom its layout wakes (Ops::forceRelease). Runs asynchronously and reports through message().
class ForceReleaseFlow : public ConsoleWriteFlow
{
    Q_OBJECT
public:
    // action: the console's Force release, whose name the audit log's refusal gives.
    ForceReleaseFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
        const QAction *action, QObject *parent = nullptr);

    // name: the lock chosen when the person asked, whatever is chosen by the time Redis answers.
    void start(const QByteArray &name);

private:
    // What Ops::inspect read: refused, or the dialog once the holders' connections are read.
    void confirm(const LockNow &now);
    // The dialog for what Ops::inspect read, and the force release it confirms.
    void showDialog(const LockNow &now);
};

} // namespace LockScope
