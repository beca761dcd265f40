#pragma once

#include "consolewriteflow.h"

namespace LockScope {
struct ClientPlan;

// The console's release-client once the person has asked for it, as lockscope-cli release-client runs it: one pass
// over the locks the monitor watches finds what the client holds and waits for (Ops::findClientHolds), each holder is
// judged by the console's HolderWatch, ReleaseClientDialog shows exactly that, and once confirmed Ops::releaseClient
// releases exactly that plan. Runs asynchronously, reports through message(), and audits the one record it writes.
class ReleaseClientFlow : public ConsoleWriteFlow
{
    Q_OBJECT
public:
    // action: the console's "Release everything this client holds…", whose name the audit log's refusal gives.
    ReleaseClientFlow(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection,
        const QAction *action, QObject *parent = nullptr);

    // clientId: a client UUID (every thread of it) or one owner "UUID:TID", as the Clients view shows it.
    void start(const QByteArray &clientId);

private:
    // What the pass found: refused, or the dialog once its holders are judged.
    void judge(ClientPlan plan);
    void showDialog(const ClientPlan &plan);
    void run(const ClientPlan &plan);
};

} // namespace LockScope
