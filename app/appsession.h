#pragma once

#include "kinds/keyglob.h"
#include "redis/connectionoptions.h"

#include <QObject>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>

namespace LockScope {

class DemoClients;
class DemoFleet;
class LocalRedisServer;
class LockClient;
class LockMonitor;
class MainWindow;
class SecretStore;

// What the window is connected to, and everything the app started for it: the private redis-server and the
// demo clients in demo mode, the console's own lock client always. Destroying the session stops all of it.
class AppSession : public QObject
{
    Q_OBJECT
public:
    explicit AppSession(MainWindow *window, QObject *parent = nullptr);
    ~AppSession() override;

    // Demo clients on target, or on a private redis-server started first (without blocking) when target is
    // null. readOnly restricts the console's own connection; the simulated clients write, as clients do.
    void startDemo(const ConnectionOptions *target, bool readOnly);
    // The console alone on a server of the user's.
    void connectTo(const ConnectionOptions &options);
    // The URL given could not be used: the window says why and connects nowhere until File > Connect.
    void showUnusableUrl(const QString &reason);

    LocalRedisServer *server() const { return m_server; }
    // File > Connect: pick or type a connection, then everything of the current one stops and the new one opens.
    void openConnectionDialog();
    // Demo › Guided demo…: one window, on the private server when the console runs on one (the guided locks then
    // show in the console too), else on a private server of its own. scenario: selected, ready to play.
    void openGuide(const QString &scenario = {}, std::function<void(QWidget *)> opened = {});
    // The line under the connection: which locks the table shows and whether the actions write.
    QString connectionNote(const ConnectionOptions &options) const;

private:
    void onServerReady(bool readOnly);
    void runDemo(ConnectionOptions options, const QString &description);
    // Through SSH, the host key is looked at first (HostKeyPrompt); then watchNow().
    void watch(const ConnectionOptions &options, const QString &description);
    void watchNow(const ConnectionOptions &options, const QString &description, const QString &hostKey);
    void teardown();

    MainWindow *m_window;
    LocalRedisServer *m_server = nullptr;
    DemoClients *m_demo = nullptr;
    DemoFleet *m_fleet = nullptr; // the other libraries of the demo's mixed fleet
    LockClient *m_console = nullptr;
    LockMonitor *m_monitor = nullptr;
    QByteArray m_pattern = "*";
    bool m_production = false; // the profile is marked production: destructive dialogs ask for the name typed
    QStringList m_notify; // the profile's notify list: every write of the console is also posted there
    StringLockPatterns m_stringPatterns
        = StringLockPatterns(StringLockPatterns::defaults()); // from the profile connected with
    std::unique_ptr<SecretStore> m_secrets;
    QPointer<QObject> m_hostKeyPrompt;
    QPointer<QWidget> m_guide;
    bool m_guideShared = false; // it plays on m_server // while a profile's SSH host key is being looked at
};

} // namespace LockScope
